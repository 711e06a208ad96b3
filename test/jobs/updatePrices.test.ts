import Big from 'big.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { toPlainDecimal } from '../../src/domain/decimal';
import type { StoredToken } from '../../src/domain/pool';
import { priceAndDecorationFeature } from '../../src/jobs/triggers/priceAndDecorationFeature';
import { updatePrices } from '../../src/jobs/updatePrices';
import { SqliteStore } from '../../src/store/sqliteStore';
import { startFakePriceServer, FakePriceServer, syntheticPrice } from '../fakes/priceServer';
import { describeWithSnapshot, loadSnapshotPools, MAINNET } from '../helpers/snapshot';
import { startTestServer, TestServer } from '../helpers/testServer';

const ETH_USD = 2500;
const API_KEY = 'demo-key-for-tests';

/** What the price job must store: the provider's USD price divided by ETH's (exact here: / 2500). */
const inEth = (usd: number) => toPlainDecimal(new Big(usd).div(ETH_USD).toFixed());

async function tokens(srv: TestServer): Promise<Map<string, StoredToken>> {
  const res = await request(srv.url).get('/tokens/1').expect(200);
  return new Map((res.body as StoredToken[]).map((t) => [t.address, t]));
}

describeWithSnapshot('token prices against the local price server (mainnet snapshot)', () => {
  let fake: FakePriceServer;
  let srv: TestServer;
  const pools = loadSnapshotPools() as { tokens: { address: string }[] }[];
  const allTokens = new Set(pools.flatMap((p) => p.tokens.map((t) => t.address.toLowerCase())));

  beforeAll(async () => {
    fake = await startFakePriceServer({
      coins: { ethereum: ETH_USD },
      tokens: { ethereum: { [MAINNET.USDC]: 1, [MAINNET.DAI]: 1.002 } },
      defaultTokenPrice: (_platform, address) => syntheticPrice(address),
      apiKey: API_KEY,
    });
    srv = await startTestServer(
      {
        PRICE_API_URL: fake.url,
        PRICE_API_KEY: API_KEY,
        PRICE_REQUESTS_PER_MINUTE: '600000',
        PRICE_FRESHNESS_SECONDS: '0',
      },
      { seed: [{ chainId: 1, pools: loadSnapshotPools() }], features: [priceAndDecorationFeature] },
    );
  });
  afterAll(async () => {
    await srv?.close();
    await fake?.close();
  });
  afterEach(() => fake.reset());

  test('POST /tokens/update/ answers 201 empty and every token of the snapshot gets its price in ETH and USD', async () => {
    const before = (await srv.ctx.store.getMeta(1)).tokensVersion;
    const res = await request(srv.url).post('/tokens/update/').expect(201);
    expect(res.text).toBe('');

    const stored = await tokens(srv);
    expect(new Set(stored.keys())).toEqual(allTokens);
    for (const t of stored.values()) {
      expect(t).toMatchObject({
        price: expect.any(String),
        priceUsd: expect.any(String),
        noPriceData: false,
        lastUpdate: expect.any(Number),
      });
    }
    expect(stored.get(MAINNET.WETH)).toMatchObject({ price: '1', priceUsd: '2500' });
    expect(stored.get(MAINNET.USDC)).toMatchObject({ price: '0.0004', priceUsd: '1' });
    expect(stored.get(MAINNET.DAI)).toMatchObject({ price: inEth(1.002), priceUsd: '1.002' });
    expect(stored.get(MAINNET.BAL)).toMatchObject({ price: inEth(syntheticPrice(MAINNET.BAL)) });
    expect((await srv.ctx.store.getMeta(1)).tokensVersion).toBe(before + 1);

    // Batches of at most PRICE_BATCH_SIZE (50) addresses, the key in CoinGecko's demo header, WETH never asked for.
    const requests = fake.tokenRequests();
    expect(requests).toHaveLength(Math.ceil((allTokens.size - 1) / 50));
    expect(requests.every((r) => r.headers['x-cg-demo-api-key'] === API_KEY)).toBe(true);
    expect(new Set(fake.addressesRequested())).toEqual(new Set([...allTokens].filter((a) => a !== MAINNET.WETH)));
  });

  test('the same prices again change nothing: no token written, no version bump', async () => {
    await updatePrices(srv.ctx);
    const before = await srv.ctx.store.getMeta(1);
    const report = await updatePrices(srv.ctx);
    expect(report.changedChains).toEqual([]);
    expect(report.chains[0]).toMatchObject({ chainId: 1, changed: 0, priced: allTokens.size });
    expect((await srv.ctx.store.getMeta(1)).tokensVersion).toBe(before.tokensVersion);
  });

  test('a token the provider does not know keeps its old price and gets noPriceData; the others move', async () => {
    await request(srv.url).post('/tokens/update').expect(201);
    const old = (await tokens(srv)).get(MAINNET.BAL)!;
    fake.unknown.add(MAINNET.BAL);
    fake.setTokenPrice('ethereum', MAINNET.USDC, 1.01);

    await request(srv.url).post('/tokens/update').expect(201);
    const stored = await tokens(srv);
    expect(stored.get(MAINNET.BAL)).toEqual({ ...old, noPriceData: true });
    expect(stored.get(MAINNET.USDC)).toMatchObject({ price: inEth(1.01), priceUsd: '1.01', noPriceData: false });
    fake.setTokenPrice('ethereum', MAINNET.USDC, 1);
  });

  test('429 with Retry-After, then a 500, then success: the run recovers and prices everything', async () => {
    fake.setTokenPrice('ethereum', MAINNET.USDC, 0.999);
    fake.failNext({ status: 429, retryAfterSeconds: 1 });
    fake.failNext({ status: 500 });
    const report = await updatePrices(srv.ctx);
    expect(report.chains[0]).toMatchObject({ failed: 0, noPriceData: 0, priced: allTokens.size });
    // Two failed attempts on top of the native request and the token batches.
    expect(fake.requestCount()).toBe(1 + Math.ceil((allTokens.size - 1) / 50) + 2);
    expect((await tokens(srv)).get(MAINNET.USDC)).toMatchObject({ priceUsd: '0.999', price: inEth(0.999) });
    fake.setTokenPrice('ethereum', MAINNET.USDC, 1);
  });

  test('a run that fails entirely (provider refuses the key) answers 502 JSON and changes no price', async () => {
    await request(srv.url).post('/tokens/update').expect(201);
    const before = await tokens(srv);
    const version = (await srv.ctx.store.getMeta(1)).tokensVersion;
    fake.setCoinPrice('ethereum', 3000);
    const wrongKey = await startTestServer(
      {
        PRICE_API_URL: fake.url,
        PRICE_API_KEY: 'wrong',
        PRICE_REQUESTS_PER_MINUTE: '600000',
        PRICE_FRESHNESS_SECONDS: '0',
      },
      { store: srv.ctx.store, features: [priceAndDecorationFeature] },
    );
    try {
      const res = await request(wrongKey.url).post('/tokens/update/').expect(502);
      expect(res.body).toEqual({ error: expect.stringContaining('price API'), code: 502, reason: 'UPSTREAM_FAILED' });
    } finally {
      await new Promise<void>((resolve) => wrongKey.server.close(() => resolve()));
      wrongKey.ctx.readModel.stop();
    }
    expect(await tokens(srv)).toEqual(before);
    expect((await srv.ctx.store.getMeta(1)).tokensVersion).toBe(version);
    fake.setCoinPrice('ethereum', ETH_USD);
  });

  test('two concurrent POST /tokens/update/: the second waits for the first and answers its result (201), one run', async () => {
    fake.delayMs = 300;
    const [a, b] = await Promise.all([
      request(srv.url).post('/tokens/update/'),
      request(srv.url).post('/tokens/update/'),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(fake.tokenRequests()).toHaveLength(Math.ceil((allTokens.size - 1) / 50));
  });
});

describe("a manual price update while the embedded timer's run is in flight", () => {
  test('waits for that run and answers 201 once its prices are stored', async () => {
    const fake = await startFakePriceServer({ defaultTokenPrice: () => 2 });
    fake.delayMs = 600;
    const usdc = {
      address: MAINNET.USDC,
      symbol: 'USDC',
      name: null,
      decimals: 6,
      price: null,
      priceUsd: null,
      lastUpdate: null,
      noPriceData: false,
    };
    const dir = mkdtempSync(join(tmpdir(), 'bps-prices-'));
    const store = new SqliteStore(join(dir, 'store.sqlite'), 50);
    await store.commit(1, { tokens: [usdc], bumpTokensVersion: true });
    // The 30 s timer's first run starts with the service.
    const srv = await startTestServer(
      {
        PRICE_API_URL: fake.url,
        PRICE_REQUESTS_PER_MINUTE: '600000',
        PRICE_FRESHNESS_SECONDS: '3600',
        PRICE_INTERVAL_SECONDS: '30',
        DECORATE_POOLS_INTERVAL_IN_MINUTES: '0',
      },
      { store, background: true, features: [priceAndDecorationFeature] },
    );
    try {
      while (fake.requestCount() === 0) await new Promise((r) => setTimeout(r, 20));
      const res = await request(srv.url).post('/tokens/update/');
      expect(res.status).toBe(201);
      // One run only, the timer's, and its price is what the caller reads right after.
      expect(fake.tokenRequests()).toHaveLength(1);
      expect((await tokens(srv)).get(MAINNET.USDC)).toMatchObject({ priceUsd: '2' });
    } finally {
      await srv.close();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('token price freshness', () => {
  test('tokens priced within PRICE_FRESHNESS_SECONDS are not asked for again', async () => {
    const fake = await startFakePriceServer({ defaultTokenPrice: () => 2 });
    const usdc = {
      address: MAINNET.USDC,
      symbol: 'USDC',
      name: null,
      decimals: 6,
      price: null,
      priceUsd: null,
      lastUpdate: null,
      noPriceData: false,
    };
    const srv = await startTestServer(
      { PRICE_API_URL: fake.url, PRICE_REQUESTS_PER_MINUTE: '600000', PRICE_FRESHNESS_SECONDS: '3600' },
      { features: [] },
    );
    try {
      await srv.ctx.store.commit(1, {
        tokens: [usdc, { ...usdc, address: MAINNET.DAI, symbol: 'DAI', decimals: 18 }],
        bumpTokensVersion: true,
      });
      const first = await updatePrices(srv.ctx);
      expect(first.chains[0]).toMatchObject({ requested: 2, priced: 2, changed: 2 });
      const second = await updatePrices(srv.ctx);
      expect(second.chains[0]).toMatchObject({ requested: 0, fresh: 2, changed: 0 });
      expect(fake.tokenRequests()).toHaveLength(1);
    } finally {
      await srv.close();
      await fake.close();
    }
  });
});

describe('when the price API misbehaves, the last prices are kept', () => {
  const usdc = {
    address: MAINNET.USDC,
    symbol: 'USDC',
    name: null,
    decimals: 6,
    price: '0.0004',
    priceUsd: '1',
    lastUpdate: 1_700_000_000_000,
    noPriceData: false,
  };
  const dai = { ...usdc, address: MAINNET.DAI, symbol: 'DAI', decimals: 18 };
  let fake: FakePriceServer;
  let srv: TestServer;
  beforeAll(async () => {
    fake = await startFakePriceServer({ defaultTokenPrice: () => 2 });
    srv = await startTestServer(
      {
        PRICE_API_URL: fake.url,
        PRICE_REQUESTS_PER_MINUTE: '600000',
        PRICE_FRESHNESS_SECONDS: '0',
        PRICE_RUN_DEADLINE_SECONDS: '2',
      },
      { features: [priceAndDecorationFeature] },
    );
    await srv.ctx.store.commit(1, { tokens: [usdc, dai], bumpTokensVersion: true });
  });
  afterAll(async () => {
    await srv.close();
    await fake.close();
  });
  afterEach(() => fake.reset());

  test.each([
    ['an object keyed by something else', { status: { error_code: 0, error_message: 'maintenance' } }],
    ['an array', [{ usd: 2 }]],
    [
      'prices that are not numbers',
      { ethereum: { usd: 'soon' }, [MAINNET.USDC]: { usd: 'soon' }, [MAINNET.DAI]: { usd: 'soon' } },
    ],
  ])('200 with %s: 502 naming the price API and its answer, no price changed', async (_what, body) => {
    fake.failNext({ status: 200, body }, 1000);
    const before = await tokens(srv);
    const res = await request(srv.url).post('/tokens/update/');
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      error: expect.stringMatching(/price API: answered \/simple\/\S+ with JSON of an unexpected shape/),
      code: 502,
      reason: 'UPSTREAM_FAILED',
    });
    expect(await tokens(srv)).toEqual(before);
  });

  test('native prices fine, every token batch malformed: 502, and no token is marked as unknown to the provider', async () => {
    const before = await tokens(srv);
    fake.failNext({ status: 200, body: { ethereum: { usd: 2500 } } });
    fake.failNext({ status: 200, body: { [MAINNET.USDC]: 1.0 } }, 1000);
    const res = await request(srv.url).post('/tokens/update/');
    expect(res.status).toBe(502);
    expect(res.body.error).toMatch(/price API: .*unexpected shape/);
    expect(await tokens(srv)).toEqual(before);
  });

  test('a price API that never answers: 502 by the run deadline (PRICE_RUN_DEADLINE_SECONDS), no price changed', async () => {
    fake.delayMs = 60_000;
    const before = await tokens(srv);
    const started = Date.now();
    const res = await request(srv.url).post('/tokens/update/');
    expect(res.status).toBe(502);
    expect(res.body.error).toMatch(/price API: no answer before the run's 2 s deadline \(PRICE_RUN_DEADLINE_SECONDS\)/);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await tokens(srv)).toEqual(before);
  });
});
