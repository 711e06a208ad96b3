import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/env';
import { DEVNET_CHAIN_ID } from '../../src/devnet/devnet';
import { headFollowFeature } from '../../src/jobs/triggers/headFollowFeature';
import { updatePools } from '../../src/jobs/updatePools';
import { silentLogger } from '../../src/log/logger';
import { routingFeature } from '../../src/routing/routingFeature';
import { createContext, startServer } from '../../src/server';

/**
 * Child process of `follow.bench.ts`: the service on the devnet, with only what the benchmark
 * measures: the catalogue from one pool update against the devnet subgraph (before listening, no
 * pool update afterwards), then the head follower (RPC through the bench's counting proxy) and
 * `/sor`. Env: BENCH_SUBGRAPH_URL, BENCH_RPC_URL, FOLLOW_INTERVAL_MS, ROUTER_WORKERS, UPDATE_POOLS_DEADLINE_SECONDS (a loaded machine). Prints
 * `READY <url> <catalogue ms>`, then `PUBLISHED <block> <unix ms> <ms>` per chain state the
 * follower publishes; stops on SIGTERM.
 */
async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bps-bench-followserver-'));
  const env: Record<string, string> = {
    NETWORKS: String(DEVNET_CHAIN_ID),
    DATA_DIR: dataDir,
    STORE: 'sqlite',
    [`SUBGRAPH_URL_${DEVNET_CHAIN_ID}`]: process.env.BENCH_SUBGRAPH_URL!,
    [`RPC_URL_${DEVNET_CHAIN_ID}`]: process.env.BENCH_RPC_URL!,
    FOLLOW_INTERVAL_MS: process.env.FOLLOW_INTERVAL_MS ?? '50',
  };
  for (const k of ['ROUTER_WORKERS', 'ROUTER_ENGINE', 'UPDATE_POOLS_DEADLINE_SECONDS'] as const)
    if (process.env[k] !== undefined) env[k] = process.env[k];
  const ctx = await createContext(loadConfig(env), { logger: silentLogger() });
  // For the bench's stage times: when the follower publishes a block to the read model (clock
  // comparable across processes) and how long the new snapshot and its listeners took.
  const setChainState = ctx.readModel.setChainState.bind(ctx.readModel);
  ctx.readModel.setChainState = (chainId, state) => {
    const t = performance.now();
    const out = setChainState(chainId, state);
    const ms = performance.now() - t;
    process.stdout.write(
      `PUBLISHED ${state.block.number} ${(performance.timeOrigin + t).toFixed(3)} ${ms.toFixed(3)}\n`,
    );
    return out;
  };
  const t = performance.now();
  await updatePools(ctx, DEVNET_CHAIN_ID);
  const catalogueMs = performance.now() - t;
  const server = await startServer(ctx, 0, {
    host: '127.0.0.1',
    features: [headFollowFeature, routingFeature],
    background: true,
  });
  process.stdout.write(`READY ${server.url} ${catalogueMs.toFixed(0)}\n`);
  process.on('SIGTERM', () => {
    void server.close().then(() => {
      rmSync(dataDir, { recursive: true, force: true });
      process.exit(0);
    });
  });
}

if (require.main === module) {
  main().catch((e: Error) => {
    process.stderr.write(`follow server failed: ${e.stack ?? e.message}\n`);
    process.exit(1);
  });
}
