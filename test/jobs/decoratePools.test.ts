import Big from 'big.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { toPlainDecimal } from '../../src/domain/decimal';
import { HISTORY_RETENTION_SECONDS } from '../../src/domain/pool';
import { decoratePools } from '../../src/jobs/decoratePools';
import { JobAlreadyRunning } from '../../src/jobs/exclusive';
import { priceAndDecorationFeature } from '../../src/jobs/triggers/priceAndDecorationFeature';
import { SQLITE_FILE_NAME } from '../../src/store/createStore';
import { SqliteStore } from '../../src/store/sqliteStore';
import { FakePriceServer, startFakePriceServer, syntheticPrice } from '../fakes/priceServer';
import { runCli } from '../helpers/runCli';
import { describeWithSnapshot, loadSnapshotPools, MAINNET } from '../helpers/snapshot';
import { seedStore, startTestServer, TestServer } from '../helpers/testServer';

/** The snapshot's 50/50 WETH/USDC weighted pool. */
const WETH_USDC = '0x96646936b91d6b9d7d0c47c496afbf3d6ec7b6f8000200000000000000000019';
const ETH_USD = 2500;
const DAY = 86_400;

interface RawPool {
  id: string;
  tokens: { address: string; balance: string }[];
  totalSwapVolume?: string;
  totalSwapFee?: string;
  createTime?: number;
}

describeWithSnapshot('pool decoration after seed + price run (mainnet snapshot)', () => {
  let fake: FakePriceServer;
  let srv: TestServer;
  let dataDir: string;
  const now = Math.floor(Date.now() / 1000);
  const env = () => ({
    NETWORKS: '1',
    DATA_DIR: dataDir,
    PRICE_API_URL: fake.url,
    PRICE_REQUESTS_PER_MINUTE: '600000',
    PRICE_FRESHNESS_SECONDS: '0',
  });

  beforeAll(async () => {
    fake = await startFakePriceServer({
      coins: { ethereum: ETH_USD },
      tokens: { ethereum: { [MAINNET.USDC]: 1 } },
      defaultTokenPrice: (_p, a) => syntheticPrice(a),
    });
    dataDir = mkdtempSync(join(tmpdir(), 'bps-decoration-'));
    const store = new SqliteStore(join(dataDir, SQLITE_FILE_NAME), 50);
    // A day ago the pool had traded 1,000,000 USD (1,000 in fees); now 3,000,000 (3,000). It is 3 days old.
    const withCounters = (volume: string, fees: string) =>
      (loadSnapshotPools() as RawPool[]).map((p) =>
        p.id === WETH_USDC ? { ...p, totalSwapVolume: volume, totalSwapFee: fees, createTime: now - 3 * DAY } : p,
      );
    await seedStore(store, 1, withCounters('1000000', '1000'), now - DAY - 600);
    await seedStore(store, 1, withCounters('3000000', '3000'), now);
    // A point past retention, to be pruned.
    await store.commit(1, {
      history: [
        {
          poolId: WETH_USDC,
          timestamp: now - HISTORY_RETENTION_SECONDS - 7200,
          totalSwapVolume: '1',
          totalSwapFee: '0',
          totalShares: '1',
          priceRates: {},
        },
      ],
    });
    srv = await startTestServer(env(), { store, features: [priceAndDecorationFeature] });
    await request(srv.url).post('/tokens/update/').expect(201);
  });
  afterAll(async () => {
    await srv?.close();
    await fake?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('GET /pools/1/<WETH/USDC> carries totalLiquidity, 24 h volume and fees, apr, maxApr and isNew', async () => {
    const report = await decoratePools(srv.ctx, 1);
    expect(report).toMatchObject({ chainId: 1, pools: 372, prunedHistory: 1 });
    expect(report.changed).toBeGreaterThan(300);

    const pool = (await request(srv.url).get(`/pools/1/${WETH_USDC}`).expect(200)).body;
    const raw = (loadSnapshotPools() as RawPool[]).find((p) => p.id === WETH_USDC)!;
    const usd: Record<string, number> = { [MAINNET.WETH]: ETH_USD, [MAINNET.USDC]: 1 };
    const liquidity = raw.tokens.reduce((s, t) => s.plus(new Big(t.balance).times(usd[t.address]!)), new Big(0));
    // 365 x 10000 x 2000 fees x (1 - 0.5 protocol fee) / liquidity, rounded.
    const swapFees = Number(new Big(365 * 10_000 * 2000 * 0.5).div(liquidity).round(0).toFixed(0));

    expect(pool).toMatchObject({
      totalLiquidity: toPlainDecimal(liquidity.toFixed()),
      volumeSnapshot: '2000000',
      feesSnapshot: '2000',
      snapshotExtrapolated: false,
      isNew: true,
      maxApr: swapFees,
      apr: {
        swapFees,
        tokenAprs: { total: 0, breakdown: {} },
        stakingApr: { min: 0, max: 0 },
        rewardAprs: { total: 0, breakdown: {} },
        protocolApr: 0,
        min: swapFees,
        max: swapFees,
      },
    });
    expect(swapFees).toBeGreaterThan(0);
    // The subgraph fields are untouched.
    expect(pool.tokens.map((t: { balance: string }) => t.balance)).toEqual(
      raw.tokens.map((t) => toPlainDecimal(t.balance)),
    );
  });

  test('a second run with nothing new writes nothing and keeps the pools version', async () => {
    await decoratePools(srv.ctx, 1);
    const version = (await srv.ctx.store.getMeta(1)).poolsVersion;
    const again = await decoratePools(srv.ctx, 1);
    expect(again.changed).toBe(0);
    expect((await srv.ctx.store.getMeta(1)).poolsVersion).toBe(version);
  });

  test('runs once at a time per chain', async () => {
    const results = await Promise.allSettled([decoratePools(srv.ctx, 1), decoratePools(srv.ctx, 1)]);
    expect(results.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason)).toEqual([
      expect.any(JobAlreadyRunning),
    ]);
  });

  test('`npm run job -- decorate-pools --chain 1` and `update-prices` run once and print what changed', async () => {
    fake.setTokenPrice('ethereum', MAINNET.USDC, 1.01);
    const prices = await runCli('src/cli/job.ts', ['update-prices'], env());
    expect(prices.stderr).toBe('');
    expect(prices.stdout).toMatch(
      /^chain 1: 336 tokens, 335 requested, 336 priced, 0 without price data, 0 in failed batches, 0 fresh, 1 changed$/m,
    );
    const decorated = await runCli('src/cli/job.ts', ['decorate-pools', '--chain', '1'], env());
    expect(decorated.code).toBe(0);
    expect(decorated.stdout).toMatch(/^chain 1: 372 pools, \d+ changed, \d+ with liquidity/m);
    // The running service sees the CLI's writes through the store notification.
    await srv.ctx.readModel.refresh(1);
    const pool = (await request(srv.url).get(`/pools/1/${WETH_USDC}`).expect(200)).body;
    const raw = (loadSnapshotPools() as RawPool[]).find((p) => p.id === WETH_USDC)!;
    const usdc = raw.tokens.find((t) => t.address === MAINNET.USDC)!;
    const weth = raw.tokens.find((t) => t.address === MAINNET.WETH)!;
    expect(pool.totalLiquidity).toBe(
      toPlainDecimal(new Big(usdc.balance).times('1.01').plus(new Big(weth.balance).times(ETH_USD)).toFixed()),
    );
  }, 60_000);
});
