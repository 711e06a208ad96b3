import type { Address } from '../../src/domain/address';
import { gasPriceTable, nativePriceInToken } from '../../src/routing/tokenPrices';

describe('gas-cost prices', () => {
  test('inverts the stored price (token in ETH) to ETH in the token', () => {
    expect(nativePriceInToken('0.0005')).toBe('2000');
    expect(nativePriceInToken('4')).toBe('0.25');
    expect(nativePriceInToken('0.00034')).toMatch(/^2941\.176470588235294117647058823529411764$/);
  });

  test('unknown, zero or malformed prices give 0 (gas ignored for that token)', () => {
    expect(nativePriceInToken(null)).toBe('0');
    expect(nativePriceInToken(undefined)).toBe('0');
    expect(nativePriceInToken('0')).toBe('0');
    expect(nativePriceInToken('-1')).toBe('0');
    expect(nativePriceInToken('n/a')).toBe('0');
  });

  test('the table covers every token of the snapshot', () => {
    const t = (address: string, price: string | null) => ({
      address: address as Address,
      symbol: null,
      name: null,
      decimals: 18,
      price,
      priceUsd: null,
      lastUpdate: null,
      noPriceData: price === null,
    });
    expect(gasPriceTable([t('0xa', '0.5'), t('0xb', null)])).toEqual({ '0xa': '2', '0xb': '0' });
  });
});
