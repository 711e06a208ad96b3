import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/env';
import { updatePools, PoolUpdateReport } from '../../src/jobs/updatePools';
import { silentLogger } from '../../src/log/logger';
import { createContext } from '../../src/server';
import { SubgraphClient } from '../../src/sources/subgraph/subgraphClient';
import { SqliteStore } from '../../src/store/sqliteStore';
import { FakeSubgraph, syntheticPools } from '../fakes/subgraphServer';

/**
 * Pool update of 10,000 synthetic pools from a local subgraph (10 pages) into SQLite: the first
 * load, a no-change re-run in the same process (what the embedded timer does), and a no-change
 * re-run in a fresh process context (what a new Cloud Run instance does). Wall time includes
 * serving the pages from the local fake, which runs in this same process.
 */
const POOLS = 10_000;
const TARGET_FIRST_MS = 15_000;
const TARGET_RERUN_MS = 3_000;

function line(label: string, ms: number, report: PoolUpdateReport, targetMs: number): string {
  const rate = Math.round(report.fetched / (ms / 1000));
  const verdict = ms < targetMs ? 'meets' : 'MISSES';
  return (
    `${label.padEnd(34)} ${String(ms).padStart(6)} ms  ${String(rate).padStart(7)} pools/s  written ${String(report.written).padStart(5)}  ` +
    `poolsVersion ${report.poolsVersion}  (target < ${targetMs / 1000} s: ${verdict})`
  );
}

export async function run(): Promise<void> {
  const fake = await FakeSubgraph.start(syntheticPools(POOLS));
  const dir = mkdtempSync(join(tmpdir(), 'bench-pool-update-'));
  const config = loadConfig({ NETWORKS: '1', DATA_DIR: dir, SUBGRAPH_URL_1: fake.url });
  const file = join(dir, 'bench.sqlite');
  const contexts: Awaited<ReturnType<typeof createContext>>[] = [];
  const context = async () => {
    const ctx = await createContext(config, { logger: silentLogger(), store: new SqliteStore(file, 0) });
    await ctx.readModel.start();
    contexts.push(ctx);
    return ctx;
  };
  const timed = async (ctx: Awaited<ReturnType<typeof createContext>>) => {
    const t = performance.now();
    const report = await updatePools(ctx, 1);
    return { ms: Math.round(performance.now() - t), report };
  };
  try {
    const ctx = await context();
    const first = await timed(ctx);
    process.stdout.write(
      `${line(`first load of ${POOLS} pools`, first.ms, first.report, TARGET_FIRST_MS)}  pages ${first.report.pages}, tokens added ${first.report.tokensAdded}\n`,
    );
    const warm = await timed(ctx);
    process.stdout.write(`${line('no-change re-run, same process', warm.ms, warm.report, TARGET_RERUN_MS)}\n`);
    const cold = await timed(await context());
    process.stdout.write(`${line('no-change re-run, fresh context', cold.ms, cold.report, TARGET_RERUN_MS)}\n`);

    const t = performance.now();
    await new SubgraphClient({ url: fake.url, timeoutMs: 60_000, retries: 0 }).fetchAllPools();
    process.stdout.write(
      `  of which fetching ${POOLS} pools from the in-process fake subgraph: ${Math.round(performance.now() - t)} ms\n`,
    );
    if (first.report.written !== POOLS || warm.report.written !== 0 || cold.report.written !== 0) {
      throw new Error(`unexpected writes: ${first.report.written}, ${warm.report.written}, ${cold.report.written}`);
    }
  } finally {
    for (const c of contexts) {
      c.readModel.stop();
      await c.store.close();
    }
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
