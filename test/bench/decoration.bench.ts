import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../../src/config/env';
import { decorateChain } from '../../src/domain/decoration/decorateChain';
import type { GaugeData, PoolGauge } from '../../src/domain/decoration/gaugeApr';
import { normalizePool } from '../../src/domain/normalizePool';
import type { PoolHistoryPoint, StoredPool, StoredToken } from '../../src/domain/pool';
import { decoratePools } from '../../src/jobs/decoratePools';
import { silentLogger } from '../../src/log/logger';
import { createContext } from '../../src/server';
import { SqliteStore } from '../../src/store/sqliteStore';
import { syntheticPools, syntheticTokens } from '../fakes/syntheticPools';
import { syntheticPrice } from '../fakes/priceServer';
import { figure } from './lib/report';

const POOLS = 10_000;
const TOKENS = 1_000;
const DAY = 86_400;

/**
 * Decoration of 10,000 synthetic pools (2/3 weighted, 1/3 stable, every 10th holding the previous
 * pool's BPT, 1 token in 5 without a price, two history points per pool, every other pool with a
 * boosted gauge streaming two reward tokens): the pure computation (target < 2 s) and the whole
 * job against SQLite (read, decorate, one commit).
 */
export async function run(): Promise<void> {
  const now = Math.floor(Date.now() / 1000);
  const pools: StoredPool[] = syntheticPools(POOLS, { seed: 'decoration-bench', tokenCount: TOKENS }).map(
    (raw, i, all) => {
      const r = normalizePool(raw);
      if (!r.ok) throw new Error(`synthetic pool ${r.id}: ${r.error}`);
      const p = r.pool;
      if (i % 10 !== 9) return p;
      // Nest: the first token becomes the previous pool's BPT.
      const [first, ...rest] = p.tokens;
      return { ...p, tokens: [{ ...first!, address: all[i - 1]!.address }, ...rest] };
    },
  );
  const tokens: StoredToken[] = syntheticTokens({ seed: 'decoration-bench', tokenCount: TOKENS }).map((t, i) => {
    const usd = i % 5 === 4 ? null : String(syntheticPrice(t.address));
    return { ...t, price: usd, priceUsd: usd, lastUpdate: now * 1000, noPriceData: usd === null };
  });
  const history: PoolHistoryPoint[] = pools.flatMap((p) => [
    {
      poolId: p.id,
      timestamp: now - 3 * DAY,
      totalSwapVolume: '0',
      totalSwapFee: '0',
      totalShares: p.totalShares,
      priceRates: Object.fromEntries(p.tokens.map((t) => [t.address, '0.999'])),
    },
    {
      poolId: p.id,
      timestamp: now - DAY - 900,
      totalSwapVolume: '1000',
      totalSwapFee: '1',
      totalShares: p.totalShares,
      priceRates: {},
    },
  ]);
  const pricesUsd = new Map(tokens.filter((t) => t.priceUsd !== null).map((t) => [t.address, t.priceUsd!]));
  const E18 = 10n ** 18n;
  const byPool = new Map<string, PoolGauge>();
  pools.forEach((p, i) => {
    if (i % 2 !== 0) return;
    byPool.set(p.id, {
      address: p.address,
      isKilled: false,
      bal: { perSecond: E18 / 100n, boosted: true, periodFinish: null },
      totalSupply: 1_000n * E18,
      workingSupply: 600n * E18,
      rewards: [tokens[i % TOKENS]!, tokens[(i + 7) % TOKENS]!].map((t) => ({
        token: t.address,
        decimals: t.decimals,
        perSecond: 10n ** BigInt(t.decimals) / 1000n,
        periodFinish: now + DAY,
      })),
    });
  });
  const gauges: GaugeData = { status: 'fresh', bal: tokens[0]!.address, byPool, unread: new Set() };

  const times: number[] = [];
  let decorated = 0;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    decorated = decorateChain({ pools, pricesUsd, history, nowSeconds: now, protocolSwapFee: 0.5, gauges }).size;
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  process.stdout.write(
    `${decorated} pools, ${tokens.length} tokens, ${history.length} history points, ${byPool.size} gauges\n`,
  );
  figure('decorateChain, 10,000 pools (median of 5)', times[2]! / 1000, 's', { op: '<', value: 2 });
  figure('decorateChain, 10,000 pools (slowest of 5)', times[4]! / 1000, 's');

  const dir = mkdtempSync(join(tmpdir(), 'bps-bench-decoration-'));
  const store = new SqliteStore(join(dir, 'bench.sqlite'), 0);
  try {
    await store.commit(1, { pools, tokens, history, bumpPoolsVersion: true, bumpTokensVersion: true });
    const ctx = await createContext(loadConfig({ NETWORKS: '1', DATA_DIR: dir }), { store, logger: silentLogger() });
    const t0 = performance.now();
    const first = await decoratePools(ctx, 1);
    const firstS = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const second = await decoratePools(ctx, 1);
    const secondS = (performance.now() - t1) / 1000;
    figure(`decorate-pools job on SQLite, first run (${first.changed} written)`, firstS, 's');
    figure(`decorate-pools job on SQLite, unchanged run (${second.changed} written)`, secondS, 's');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
