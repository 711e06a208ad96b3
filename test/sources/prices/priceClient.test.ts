import { apiKeyHeader, usdFrom } from '../../../src/sources/prices/priceClient';
import { RequestGate } from '../../../src/sources/prices/requestGate';
import { priceInNative } from '../../../src/jobs/planPriceUpdate';

describe('price client details', () => {
  it("sends the key in the header CoinGecko expects for the base URL's plan", () => {
    expect(apiKeyHeader('https://pro-api.coingecko.com/api/v3')).toBe('x-cg-pro-api-key');
    expect(apiKeyHeader('https://api.coingecko.com/api/v3')).toBe('x-cg-demo-api-key');
    expect(apiKeyHeader('http://127.0.0.1:4000/prices')).toBe('x-cg-demo-api-key');
  });

  it('turns provider floats into canonical decimals and refuses unusable prices', () => {
    expect(usdFrom({ usd: 1.234e-6 })).toBe('0.000001234');
    expect(usdFrom({ usd: 2500 })).toBe('2500');
    expect(usdFrom({ usd: '0.5' })).toBe('0.5');
    for (const bad of [{ usd: 0 }, { usd: -1 }, { usd: null }, {}, null, { usd: 'abc' }])
      expect(usdFrom(bad)).toBeUndefined();
  });

  it('divides by the native price exactly, rounding half-up at 30 decimals', () => {
    expect(priceInNative('1', '2500')).toBe('0.0004');
    // 1 / 3 = 0.333... -> 30 threes; 2 / 3 ends in ...667.
    expect(priceInNative('1', '3')).toBe(`0.${'3'.repeat(30)}`);
    expect(priceInNative('2', '3')).toBe(`0.${'6'.repeat(29)}7`);
  });

  it('the request gate refuses a slot that would start after the deadline', async () => {
    const gate = new RequestGate(1, () => 0); // one request a minute, clock stopped at 0
    expect(await gate.take(100)).toBe(true);
    expect(await gate.take(100)).toBe(false); // the next slot is at 60 s
  });
});
