import { decimalToUnits, unitsToDecimal } from '../../src/domain/decimal';
import { updatePools } from '../../src/jobs/updatePools';
import { SyntheticPool, syntheticPools } from '../fakes/subgraphServer';
import { poolUpdateFeature } from '../../src/jobs/triggers/poolUpdateFeature';
import { freePort } from '../helpers/freePort';
import { startTestServer } from '../helpers/testServer';
import { Harness, startHarness, storeState, ViewPool } from './poolUpdateHarness';

/**
 * 2,100 pools are three pages (1000, 1000, 100). Each case starts from a stored first update, then
 * changes something upstream (so a failed run would have something to write) and switches a fault.
 */
const POOLS = syntheticPools(2_100);
const sortedIds = POOLS.map((p) => p.id).sort();
const onPage = (page: number) => sortedIds[(page - 1) * 1000 + 7]!;

function bumpFirstBalance(p: Record<string, unknown>): void {
  const t = (p.tokens as SyntheticPool['tokens'][number][])[0]!;
  (t as { balance: string }).balance = unitsToDecimal(decimalToUnits(t.balance, t.decimals) + 1n, t.decimals);
}

describe('pool update when the subgraph misbehaves', () => {
  let h: Harness;
  let stored: string;

  beforeEach(async () => {
    h = await startHarness(POOLS, { SUBGRAPH_RETRIES: '2' });
    expect((await h.update()).status).toBe(201);
    // Upstream moves on: one pool on page 1 changes and one new pool appears.
    h.fake.updatePool(onPage(1), bumpFirstBalance);
    h.fake.setPools([...h.fake.getPools(), ...syntheticPools(1, { seed: 'late-arrival' })]);
    h.fake.reset();
    stored = await storeState(h.server.ctx.store);
  });
  afterEach(async () => h.close());

  const expectUnchanged = async () => expect(await storeState(h.server.ctx.store)).toBe(stored);

  test('HTTP 500 on page 2, every time: 502 naming the subgraph, after the retries; nothing stored', async () => {
    h.fake.faults.failPage = 2;
    const res = await h.update();
    expect(res.status).toBe(502);
    expect(res.json).toEqual({
      error: expect.stringContaining('subgraph: answered HTTP 500'),
      code: 502,
      reason: 'UPSTREAM_FAILED',
    });
    // Page 1 (with its change) was read, then page 2 was tried 1 + 2 retries times.
    expect(h.fake.queries.map((q) => [q.page, q.outcome])).toEqual([
      [1, 'served'],
      [2, '500'],
      [2, '500'],
      [2, '500'],
    ]);
    await expectUnchanged();
  });

  test('HTTP 500 on page 2 once: the retry succeeds and the update is stored', async () => {
    h.fake.faults.failPage = 2;
    h.fake.faults.failPageTimes = 1;
    expect((await h.update()).status).toBe(201);
    expect(((await h.getJson('/pools/1')).body as ViewPool[]).length).toBe(2_101);
  });

  test('429 twice then success: the update waits it out and is stored', async () => {
    h.fake.faults.rateLimitTimes = 2;
    h.fake.faults.retryAfterSeconds = 0;
    expect((await h.update()).status).toBe(201);
    expect(h.fake.queries.slice(0, 3).map((q) => q.outcome)).toEqual(['429', '429', 'served']);
    const pool = (await h.getJson(`/pools/1/${onPage(1)}`)).body as ViewPool;
    const expected = structuredClone(POOLS.find((p) => p.id === onPage(1))!) as unknown as Record<string, unknown>;
    bumpFirstBalance(expected);
    expect(pool.tokens[0]!.balance).toBe((expected.tokens as { balance: string }[])[0]!.balance);
  });

  test("a GraphQL errors array on page 3: 502 with the subgraph's message; nothing stored", async () => {
    h.fake.faults.graphqlErrors = { message: 'indexing_error: store error: deadlock detected', page: 3 };
    const res = await h.update();
    expect(res.status).toBe(502);
    expect(res.json).toEqual({
      error:
        'upstream failed: subgraph: answered with GraphQL errors: indexing_error: store error: deadlock detected; nothing was changed, retry later',
      code: 502,
      reason: 'UPSTREAM_FAILED',
    });
    await expectUnchanged();
  });

  test('a malformed pool is skipped and counted; its stored version stays; the rest is updated', async () => {
    const bad = onPage(2);
    const goodBefore = (await h.getJson(`/pools/1/${bad}`)).body as ViewPool;
    h.fake.faults.malformPoolIds = [bad];

    const report = await updatePools(h.server.ctx, 1);

    expect(report.skipped).toEqual([{ id: bad, error: expect.stringContaining('tokens.0.balance') }]);
    expect(report).toMatchObject({ fetched: 2_101, written: 2, removed: 0 });
    expect((await h.getJson(`/pools/1/${bad}`)).body).toEqual(goodBefore);
    expect(((await h.getJson('/pools/1')).body as ViewPool[]).length).toBe(2_101);
  });

  test('a malformed pool the store has never seen is not stored, and the update still answers 201', async () => {
    const late = syntheticPools(1, { seed: 'late-arrival' })[0]!;
    h.fake.faults.malformPoolIds = [late.id];
    expect((await h.update()).status).toBe(201);
    expect((await h.getJson(`/pools/1/${late.id}`)).status).toBe(404);
    expect(((await h.getJson('/pools/1')).body as ViewPool[]).length).toBe(2_100);
  });

  test('a new pool with an impossible fee is never stored, so never routed', async () => {
    const late = syntheticPools(1, { seed: 'late-arrival' })[0]!;
    h.fake.updatePool(late.id, (p) => (p.swapFee = '-1'));
    const report = await updatePools(h.server.ctx, 1);
    expect(report.skipped).toEqual([{ id: late.id, error: expect.stringContaining('swapFee: -1') }]);
    expect((await h.getJson(`/pools/1/${late.id}`)).status).toBe(404);
    expect(h.server.ctx.readModel.get(1)!.poolsById.has(late.id)).toBe(false);
  });

  test('a bad chain id is refused before any upstream is asked; nothing stored', async () => {
    const bad = await h.update('mainnet');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({
      error: expect.stringContaining('chainId must be a positive integer'),
      code: 400,
      reason: 'BAD_FIELD',
      field: 'chainId',
    });
    const disabled = await h.update('137');
    expect(disabled.status).toBe(404);
    expect(disabled.json).toEqual({
      error: expect.stringContaining('chain 137 (polygon) is not enabled'),
      code: 404,
      reason: 'CHAIN_NOT_ENABLED',
      field: 'chainId',
      details: { enabled: [1] },
    });
    expect(h.fake.requests).toBe(0);
    await expectUnchanged();
  });
});

/**
 * One service for the spoiled-pool cases: each skips the pool, so its stored version stays the
 * first update's, and the upstream is set back after each case.
 */
describe('pool update when the subgraph sends a spoiled pool', () => {
  let shared: Harness;
  let upstream: unknown[];
  beforeAll(async () => {
    shared = await startHarness(POOLS, { SUBGRAPH_RETRIES: '2' });
    expect((await shared.update()).status).toBe(201);
    upstream = shared.fake.getPools();
  });
  afterEach(() => {
    shared.fake.setPools(upstream);
    shared.fake.reset();
  });
  afterAll(async () => shared?.close());

  type Token = { address: string; balance: string; decimals: number };
  const tokensOf = (p: Record<string, unknown>) => p.tokens as Token[];
  test.each<[string, RegExp, (p: Record<string, unknown>) => void]>([
    ['a negative balance', /tokens\.0\.balance: -5 is negative/, (p) => (tokensOf(p)[0]!.balance = '-5')],
    ['a swap fee of 2 (200 %)', /swapFee: 2 is outside 0\.000001\.\.0\.1/, (p) => (p.swapFee = '2')],
    ['a negative swap fee', /swapFee: -1 is outside/, (p) => (p.swapFee = '-1')],
    [
      "a token's decimals changed",
      /tokens\.0\.decimals: .* whose decimals were/,
      (p) => (tokensOf(p)[0]!.decimals = tokensOf(p)[0]!.decimals === 18 ? 6 : 18),
    ],
    [
      "a token's address changed",
      /tokens: .* differ from the pool's registered tokens/,
      (p) => (tokensOf(p)[0]!.address = `0x${'9d'.repeat(20)}`),
    ],
  ])('a pool sent with %s is skipped and logged; its last good version stays served', async (_what, error, spoil) => {
    const bad = onPage(2);
    const goodBefore = (await shared.getJson(`/pools/1/${bad}`)).body as ViewPool;
    shared.fake.updatePool(bad, spoil);

    const report = await updatePools(shared.server.ctx, 1);

    expect(report.skipped).toEqual([{ id: bad, error: expect.stringMatching(error) }]);
    expect((await shared.getJson(`/pools/1/${bad}`)).body).toEqual(goodBefore);
  });
});

/** Each case its own service and 20 pools: the faults here are timeouts, which the page count does not change. */
describe('pool update when the subgraph is too slow', () => {
  let h: Harness;
  let stored: string;
  afterEach(async () => h?.close());

  const expectUnchanged = async () => expect(await storeState(h.server.ctx.store)).toBe(stored);

  test('a subgraph that never answers: 502 by the update deadline (UPDATE_POOLS_DEADLINE_SECONDS), not after every retry; nothing stored', async () => {
    h = await startHarness(POOLS.slice(0, 20), { UPDATE_POOLS_DEADLINE_SECONDS: '2' });
    expect((await h.update()).status).toBe(201);
    h.fake.updatePool(POOLS[3]!.id, bumpFirstBalance);
    stored = await storeState(h.server.ctx.store);

    h.fake.faults.delayMs = 120_000;
    const started = Date.now();
    const res = await h.update();
    expect(res.status).toBe(502);
    expect(res.json).toEqual({
      error: expect.stringContaining(
        "subgraph: no answer before the update's 2 s deadline (UPDATE_POOLS_DEADLINE_SECONDS)",
      ),
      code: 502,
      reason: 'UPSTREAM_FAILED',
    });
    // The default per-request timeout (30 s) and retries would have taken minutes.
    expect(Date.now() - started).toBeLessThan(5_000);
    await expectUnchanged();
  });

  test('a subgraph slower than the timeout: 502 saying so; nothing stored', async () => {
    // A short timeout, and few pools so the healthy first run beats it.
    h = await startHarness(POOLS.slice(0, 20), { SUBGRAPH_RETRIES: '2', SUBGRAPH_TIMEOUT_MS: '500' });
    expect((await h.update()).status).toBe(201);
    h.fake.updatePool(POOLS[3]!.id, bumpFirstBalance);
    h.fake.reset();
    stored = await storeState(h.server.ctx.store);

    h.fake.faults.delayMs = 2_000;
    const res = await h.update();
    expect(res.status).toBe(502);
    expect(res.json).toEqual({
      error: expect.stringContaining('subgraph: no answer within 500 ms'),
      code: 502,
      reason: 'UPSTREAM_FAILED',
    });
    expect(h.fake.requests).toBe(3);
    await expectUnchanged();
  });
});

describe('pool update when the subgraph is down', () => {
  test('502 saying the subgraph refused the connection, without its address', async () => {
    const port = await freePort();
    const server = await startTestServer(
      { SUBGRAPH_URL_1: `http://127.0.0.1:${port}/subgraphs/balancer`, SUBGRAPH_RETRIES: '0' },
      { features: [poolUpdateFeature] },
    );
    try {
      const res = await fetch(`${server.url}/pools/1/update`, { method: 'POST' });
      expect(res.status).toBe(502);
      const body = (await res.json()) as { error: string };
      expect(body).toEqual({
        error:
          'upstream failed: subgraph: unreachable: the connection was refused (ECONNREFUSED); nothing was changed, retry later',
        code: 502,
        reason: 'UPSTREAM_FAILED',
      });
      expect(body.error).not.toMatch(/127\.0\.0\.1|:\d{2,5}\b/);
    } finally {
      await server.close();
    }
  });
});
