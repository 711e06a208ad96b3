import type { Address } from '../../src/domain/address';
import { Writable } from 'node:stream';
import type { RequestHandler } from 'express';
import request from 'supertest';
import { chainById } from '../../src/config/chains';
import { loadConfig } from '../../src/config/env';
import type { StoredToken } from '../../src/domain/pool';
import { graphqlFeature } from '../../src/graphql/feature';
import { INTERNAL_JOB_RUNNERS } from '../../src/jobs/triggers/scheduler/jobRunners';
import { internalJobsRouter } from '../../src/jobs/triggers/scheduler/routes';
import { decoratePools } from '../../src/jobs/decoratePools';
import { describeDecoration } from '../../src/jobs/priceAndDecorationCommands';
import { createLogger } from '../../src/log/logger';
import { createContext, RunningServer, startServer } from '../../src/server';
import { SqliteStore } from '../../src/store/sqliteStore';
import { A, pool, token } from '../domain/decoration/poolBuilder';
import { FakeGaugeChain } from '../fakes/gaugeRpcServer';
import { FakeGaugesSubgraph, gaugeEntry } from '../fakes/gaugesSubgraphServer';

/**
 * Staking and reward APRs through the real decoration job, with a local gauges subgraph and a
 * local node in the mainnet gauge contracts' shapes: what GET /pools and GraphQL show, and what an
 * upstream failure does (last APRs kept, logged, 502 from the job endpoint).
 *
 * Hand-computed: the pool holds 500 WETH (2,000 USD) + 1,000,000 USDC over 20,000 shares: 100 USD
 * per BPT. BAL inflation 0.1 BAL/s x weight 10 % = 0.01 BAL/s = 315,360 BAL a year = 1,576,800 USD
 * at 5 USD. Working supply 39,999.6 BPT: one unboosted BPT gets 0.4 / 40,000 = 1e-5 of it,
 * 15.768 USD a year on 100 USD: 1577 bps min, x 2.5 = 3942 bps max. LINK 0.001/s = 31,536 LINK =
 * 473,040 USD a year; staked 99,999 BPT: one more gets 1e-5, 4.7304 USD on 100: 473 bps.
 */
const MAINNET_GAUGES = chainById(1)!.gauges!;
/** These tests call the internal endpoint directly; the caller check is tested in test/jobs/triggers/scheduler/. */
const UNGUARDED: RequestHandler = (_req, _res, next) => next();
if (MAINNET_GAUGES.emissions.kind !== 'controller') throw new Error('mainnet gauges are controller gauges');
const EMISSIONS = MAINNET_GAUGES.emissions;
const BAL = MAINNET_GAUGES.bal;
const LINK = '0x00000000000000000000000000000000000000e9';
const E18 = 10n ** 18n;
const GAUGE = '0x000000000000000000000000000000000000a901';

const earning = pool(
  '1',
  'Weighted',
  [token(A.WETH, '500', { weight: '0.5' }), token(A.USDC, '1000000', { weight: '0.5' })],
  { totalShares: '20000' },
);
const plain = pool(
  '2',
  'Weighted',
  [token(A.WETH, '5', { weight: '0.5' }), token(A.USDC, '10000', { weight: '0.5' })],
  { totalShares: '200' },
);
const priced = (address: string, usd: string): StoredToken => ({
  address: address as Address,
  symbol: null,
  name: null,
  decimals: 18,
  price: null,
  priceUsd: usd,
  lastUpdate: 1,
  noPriceData: false,
});

let subgraph: FakeGaugesSubgraph;
let chain: FakeGaugeChain;
let srv: RunningServer;
let logText = '';
const logLines = () =>
  logText
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function chainState(linkRate: bigint) {
  return {
    tokenAdmin: { address: EMISSIONS.balancerTokenAdmin, rate: E18 / 10n },
    controller: { address: EMISSIONS.gaugeController, weights: { [GAUGE]: E18 / 10n } },
    gauges: {
      [GAUGE]: {
        totalSupply: 99_999n * E18,
        workingSupply: (399_996n * E18) / 10n,
        rewards: { [LINK]: { rate: linkRate, periodFinish: Math.floor(Date.now() / 1000) + 86_400 } },
      },
    },
    decimals: { [LINK]: 18 },
  };
}

beforeAll(async () => {
  subgraph = await FakeGaugesSubgraph.start([gaugeEntry(earning.id, GAUGE, [LINK])]);
  chain = await FakeGaugeChain.start(chainState(E18 / 1000n));
  const store = new SqliteStore(':memory:', 0);
  await store.commit(1, {
    pools: [earning, plain],
    tokens: [priced(A.WETH, '2000'), priced(A.USDC, '1'), priced(BAL, '5'), priced(LINK, '15')],
    bumpPoolsVersion: true,
    bumpTokensVersion: true,
  });
  const config = loadConfig({
    NETWORKS: '1',
    GAUGES_SUBGRAPH_URL_1: subgraph.url,
    RPC_URL_1: chain.url,
    SUBGRAPH_RETRIES: '0',
  });
  const logger = createLogger({
    debug: false,
    destination: new Writable({ write: (chunk: Buffer, _e, cb) => ((logText += chunk.toString()), cb()) }),
  });
  const ctx = await createContext(config, { logger, store });
  srv = await startServer(ctx, 0, {
    host: '127.0.0.1',
    features: [graphqlFeature],
    routers: [internalJobsRouter(ctx, INTERNAL_JOB_RUNNERS, 'no price tick in this test', UNGUARDED)],
  });
});

afterAll(async () => {
  await srv?.close();
  await subgraph?.close();
  await chain?.close();
});

beforeEach(() => {
  subgraph.failStatus = undefined;
  chain.failStatus = undefined;
  logText = '';
});

const poolApr = async (id: string) =>
  (await request(srv.url).get(`/pools/1/${id}`).expect(200)).body as { apr: Record<string, unknown>; maxApr: number };
const EXPECTED = {
  stakingApr: { min: 1577, max: 3942 },
  rewardAprs: { total: 473, breakdown: { [LINK]: 473 } },
  min: 1577 + 473,
  max: 3942 + 473,
};

describe('decoration with gauges', () => {
  it('GET /pools shows the staking range and the reward APRs of a pool with a gauge; a pool without one earns none', async () => {
    const report = await decoratePools(srv.ctx, 1);
    expect(report).toMatchObject({ withGauge: 1 });
    expect(report.gaugeError).toBeUndefined();
    expect(describeDecoration(report)[0]).toMatch(/1 with gauge APRs/);
    const got = await poolApr(earning.id);
    expect(got.apr).toMatchObject(EXPECTED);
    expect(got.maxApr).toBe(EXPECTED.max);
    expect((await poolApr(plain.id)).apr).toMatchObject({
      stakingApr: { min: 0, max: 0 },
      rewardAprs: { total: 0, breakdown: {} },
    });
  });

  it('GraphQL filters and sorts by stakingAprMin, stakingAprMax and rewardAprsTotal', async () => {
    await decoratePools(srv.ctx, 1);
    const q = (args: string) =>
      request(srv.url)
        .post('/graphql')
        .send({
          query: `{ pools(chainId: 1, ${args}) { pools { id apr { stakingApr { min max } rewardAprs { total } } } } }`,
        })
        .expect(200);
    const filtered = (await q('where: { stakingAprMin: { gt: 0 }, rewardAprsTotal: { ge: 473 } }')).body.data.pools
      .pools;
    expect(filtered).toEqual([
      { id: earning.id, apr: { stakingApr: { min: 1577, max: 3942 }, rewardAprs: { total: 473 } } },
    ]);
    const sorted = (await q('orderBy: "stakingAprMax", orderDirection: "asc"')).body.data.pools.pools.map(
      (p: { id: string }) => p.id,
    );
    expect(sorted).toEqual([plain.id, earning.id]);
    expect((await q('orderBy: "rewardAprsTotal"')).body.data.pools.pools.map((p: { id: string }) => p.id)).toEqual([
      earning.id,
      plain.id,
    ]);
  });

  it.each([
    ['the gauges subgraph answers 500', () => (subgraph.failStatus = 500), /gauges subgraph: answered HTTP 500/],
    ['the node answers 503', () => (chain.failStatus = 503), /RPC: answered HTTP 503/],
    [
      'the subgraph suddenly lists no gauge',
      () => (subgraph.entries = []),
      /answered no gauges while 1 pools earn from one/,
    ],
  ])(
    '%s: the last staking and reward APRs stay, the failure is logged and the job endpoint answers 502',
    async (_what, breakIt, message) => {
      await decoratePools(srv.ctx, 1);
      const entries = subgraph.entries;
      breakIt();
      try {
        const report = await decoratePools(srv.ctx, 1);
        expect(report.gaugeError).toMatch(message);
        expect(describeDecoration(report)[1]).toMatch(
          /gauge data failed .* staking and reward APRs keep their last values/,
        );
        expect((await poolApr(earning.id)).apr).toMatchObject(EXPECTED);
        expect(
          logLines().some(
            (l) =>
              l.severity === 'ERROR' &&
              String(l.err).match(message) &&
              /keep their last values/.test(String(l.message)),
          ),
        ).toBe(true);

        const res = await request(srv.url).post('/internal/jobs/decorate-pools/1').expect(502);
        expect(res.body).toEqual({
          code: 502,
          reason: 'UPSTREAM_FAILED',
          error: expect.stringMatching(
            /^pools were decorated, but the gauge data failed \(.*\); staking and reward APRs keep their last values; retry later$/,
          ),
        });
        expect((await poolApr(earning.id)).apr).toMatchObject(EXPECTED);
      } finally {
        subgraph.entries = entries;
      }
    },
  );

  it('fresh data after a failure replaces the kept figures (the reward doubled)', async () => {
    subgraph.failStatus = 500;
    await decoratePools(srv.ctx, 1);
    subgraph.failStatus = undefined;
    chain.state = chainState(E18 / 500n);
    try {
      expect((await decoratePools(srv.ctx, 1)).gaugeError).toBeUndefined();
      // 0.002 LINK/s: 946.08 bps -> 946.
      expect((await poolApr(earning.id)).apr).toMatchObject({
        stakingApr: { min: 1577, max: 3942 },
        rewardAprs: { total: 946 },
      });
      await request(srv.url).post('/internal/jobs/decorate-pools/1').expect(201);
    } finally {
      chain.state = chainState(E18 / 1000n);
    }
  });
});

describe('a gauge upstream that never answers', () => {
  let ctx2: Awaited<ReturnType<typeof createContext>>;
  let srv2: RunningServer;

  beforeAll(async () => {
    const store = new SqliteStore(':memory:', 0);
    await store.commit(1, {
      pools: [earning, plain],
      tokens: [priced(A.WETH, '2000'), priced(A.USDC, '1'), priced(BAL, '5'), priced(LINK, '15')],
      bumpPoolsVersion: true,
      bumpTokensVersion: true,
    });
    // Default timeouts and retries: only the deadline can end the run early.
    const config = loadConfig({
      NETWORKS: '1',
      GAUGES_SUBGRAPH_URL_1: subgraph.url,
      RPC_URL_1: chain.url,
      DECORATE_POOLS_DEADLINE_SECONDS: '2',
    });
    ctx2 = await createContext(config, {
      logger: createLogger({ debug: false, destination: new Writable({ write: (_c, _e, cb) => cb() }) }),
      store,
    });
    srv2 = await startServer(ctx2, 0, {
      host: '127.0.0.1',
      features: [],
      routers: [internalJobsRouter(ctx2, INTERNAL_JOB_RUNNERS, 'no price tick in this test', UNGUARDED)],
    });
  });

  afterAll(async () => {
    subgraph.hang = false;
    chain.hang = false;
    await srv2?.close();
  });

  it.each([
    [
      'the gauges subgraph',
      () => (subgraph.hang = true),
      /^gauges subgraph: no answer before the decoration's 2 s deadline \(DECORATE_POOLS_DEADLINE_SECONDS\)/,
    ],
    [
      'the node',
      () => (chain.hang = true),
      /^RPC: no answer before the decoration's 2 s deadline \(DECORATE_POOLS_DEADLINE_SECONDS\)/,
    ],
  ])(
    '%s: the job endpoint answers 502 by DECORATE_POOLS_DEADLINE_SECONDS, naming it; the last APRs stay',
    async (_what, hangIt, message) => {
      expect((await decoratePools(ctx2, 1)).gaugeError).toBeUndefined();
      hangIt();
      try {
        const started = Date.now();
        const res = await request(srv2.url).post('/internal/jobs/decorate-pools/1');
        expect(res.status).toBe(502);
        // The default per-request timeout and retries would take well over a minute.
        expect(Date.now() - started).toBeLessThan(6_000);
        expect(res.body.error).toMatch(/gauge data failed/);
        const report = await decoratePools(ctx2, 1);
        expect(report.gaugeError).toMatch(message);
        expect((await request(srv2.url).get(`/pools/1/${earning.id}`).expect(200)).body.apr).toMatchObject(EXPECTED);
      } finally {
        subgraph.hang = false;
        chain.hang = false;
      }
    },
    30_000,
  );
});
