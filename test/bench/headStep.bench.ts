import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHAINS } from '../../src/config/chains';
import { loadConfig } from '../../src/config/env';
import { HeadFollower } from '../../src/jobs/headFollower';
import { silentLogger } from '../../src/log/logger';
import { createContext } from '../../src/server';
import { SqliteStore } from '../../src/store/sqliteStore';
import { FakeChainRpc } from '../fakes/chainRpcServer';
import { syntheticChainPool } from '../fakes/syntheticChain';
import { syntheticPools } from '../fakes/syntheticPools';
import { seedStore } from '../helpers/testServer';
import { figure } from './lib/report';

/**
 * One head follower step in isolation, over a fake node (test/fakes/chainRpcServer.ts, loopback
 * HTTP, answers without an EVM) with 2,000 synthetic pools and no quote load: the first full read,
 * an idle poll, and a block that moves 5 pools (logs, the pools' reads pinned to the block, the
 * read model's new snapshot), in ms per poll, and the `eth_call`s each costs (Multicall3's
 * aggregates on chain 1). The pools answer every getter their type has (`syntheticChain.ts`), as
 * real ones do, so nothing reverts and nothing is sent again. The fake node runs on the bench's
 * thread: its own time answering is shown beside the first read, which pays it too. The
 * follower's own cost, apart from the router's; `follow.bench.ts` measures the whole on a real
 * devnet. `BENCH_POOLS=11000 BENCH_RPC_LATENCY_MS=100`: a cold start at mainnet scale against a
 * node 100 ms away.
 */
const POOLS = Number(process.env.BENCH_POOLS ?? 2_000);
/** `BENCH_RPC_LATENCY_MS`: the fake node answers each HTTP request this long after it came (a node far away). */
const LATENCY_MS = Number(process.env.BENCH_RPC_LATENCY_MS ?? 0);
const BLOCKS = 100;
const MOVED = 5;

export async function run(): Promise<void> {
  const chain = CHAINS.find((c) => c.id === 1)!;
  const raw = syntheticPools(POOLS);
  const node = await FakeChainRpc.start(chain.vault, raw.map(syntheticChainPool));
  // The Vault's fees collector, which the Stable v2 pools' protocol fee basis names.
  node.feesCollector = `0x${'fe'.repeat(20)}`;
  node.delayMs = LATENCY_MS;
  const dir = mkdtempSync(join(tmpdir(), 'bps-bench-follow-'));
  const store = new SqliteStore(join(dir, 'bench.sqlite'), 0);
  try {
    await seedStore(store, 1, raw);
    // No slow re-read: a block's step reads the pools it moved and nothing else.
    const env = { NETWORKS: '1', DATA_DIR: dir, RPC_URL_1: node.url, FOLLOW_RECHECK_CALLS_PER_SECOND: '0' };
    const ctx = await createContext(loadConfig(env), {
      logger: silentLogger(),
      store,
    });
    await ctx.readModel.start();
    const follower = new HeadFollower(ctx, chain, node.url);

    let t = performance.now();
    const calls = () => node.methodCounts.get('eth_call') ?? 0;
    const first = await follower.step();
    figure(`first read of ${POOLS} pools (${first.kind}), ${LATENCY_MS} ms a request`, performance.now() - t, 'ms', {
      op: '<',
      value: 10_000,
    });
    figure('  of which the fake node answering (same thread)', node.busyMs, 'ms');
    figure('eth_calls of the first read', calls(), 'calls');
    figure('  getters inside them', node.ethCalls.length, 'calls');

    t = performance.now();
    for (let i = 0; i < BLOCKS; i++) await follower.step();
    figure('idle poll (no new block)', (performance.now() - t) / BLOCKS, 'ms');

    let total = 0;
    const before = calls();
    for (let b = 0; b < BLOCKS; b++) {
      const moved = Array.from({ length: MOVED }, (_, k) => raw[(b * 37 + k * 401) % POOLS]!.id);
      for (const id of moved) {
        const p = node.pools.get(id)!;
        p.balances = p.balances.map((x) => x + 1n);
      }
      node.mine(moved);
      t = performance.now();
      const r = await follower.step();
      total += performance.now() - t;
      if (r.kind !== 'blocks' || r.poolsRead !== MOVED) throw new Error(`unexpected step ${JSON.stringify(r)}`);
    }
    figure(`block moving ${MOVED} of ${POOLS} pools`, total / BLOCKS, 'ms', { op: '<', value: 100 + LATENCY_MS * 3 });
    figure('eth_calls a block', (calls() - before) / BLOCKS, 'calls');
    ctx.readModel.stop();
  } finally {
    await store.close();
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
