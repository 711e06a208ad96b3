import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppContext } from '../../src/appContext';
import { loadConfig } from '../../src/config/env';
import { planPoolUpdate } from '../../src/jobs/planPoolUpdate';
import { Logger, silentLogger } from '../../src/log/logger';
import { createContext, RunningServer, startServer, StartOptions } from '../../src/server';
import { SqliteStore } from '../../src/store/sqliteStore';
import type { Store } from '../../src/store/Store';

export interface TestServer extends RunningServer {
  readonly dataDir: string;
}

/**
 * The real app on 127.0.0.1 with a throw-away SQLite store. `env` is the process environment the
 * service would see (NETWORKS, upstream URLs ...); nothing from the developer's shell leaks in.
 * `MEMORY_LIMIT_MIB` is 0 unless `env` sets it: the start check would otherwise read the host's
 * cgroup, and a memory-limited machine with many cores would refuse unrelated tests.
 */
export async function startTestServer(
  env: Record<string, string> = {},
  options: StartOptions & {
    seed?: { chainId: number; pools: unknown[] }[];
    now?: () => number;
    store?: Store;
    logger?: Logger;
  } = {},
): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bps-test-'));
  const config = loadConfig({ NETWORKS: '1', DATA_DIR: dataDir, MEMORY_LIMIT_MIB: '0', ...env });
  const store = options.store ?? new SqliteStore(join(dataDir, 'test.sqlite'), 50);
  for (const s of options.seed ?? []) await seedStore(store, s.chainId, s.pools);
  const ctx = await createContext(config, { logger: options.logger ?? silentLogger(), store, now: options.now });
  // The test's requests are answered before it closes: nothing can race an idle connection's close.
  const running = await startServer(ctx, 0, { host: '127.0.0.1', idleCloseMs: 0, ...options });
  return {
    ...running,
    dataDir,
    close: async () => {
      await running.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Loads subgraph-shaped pools through the same planning step as the seed command and the job. */
export async function seedStore(
  store: Store,
  chainId: number,
  pools: unknown[],
  nowSeconds = Math.floor(Date.now() / 1000),
): Promise<void> {
  const [stored, tokens] = await Promise.all([store.listPools(chainId), store.listTokens(chainId)]);
  const plan = planPoolUpdate(pools, stored, new Set(tokens.map((t) => t.address)), {
    nowSeconds,
    removeMissing: false,
  });
  await store.commit(chainId, plan.change);
}

export type { AppContext };
