import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { ChainState } from '../../src/domain/chainState';
import { routingFeature } from '../../src/routing/routingFeature';
import { SNAPSHOT_FILE } from '../helpers/snapshot';
import { startTestServer } from '../helpers/testServer';
import { movedBuffer, syntheticV3Universe, traded, type SyntheticUniverse } from './v3SyntheticUniverse';

/**
 * Child process of `v3Universe.bench.ts`: the service (routing feature, background work on, so
 * each new version is warmed on the quote threads as in production) on a SQLite store seeded with
 * the V2 mainnet snapshot, the synthetic V3 universe (`v3SyntheticUniverse.ts`) laid over it as
 * the follower lays the chain's state. Prints `READY <url> <pools> <buffers> <buildMs>`, where
 * `buildMs` runs from laying the universe to the first V3 answer. Commands on stdin, each a new
 * block 12 s on with one change, then at once a distinct V3 `/sor` through what changed:
 * `pool <k>` (the k-th two-token pool traded), `buffer <k>` (the k-th buffer moved), `samePool <k>`
 * (a pool traded at the same block: the change alone, no time pass); each prints
 * `NEXT <ms>` from the change to the answer. Stops on SIGTERM.
 */

const sor = async (url: string, body: Record<string, unknown>): Promise<{ status: number; paths: number }> => {
  const res = await fetch(`${url}/sor/1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ gasPrice: '0', protocolVersion: 3, ...body }),
  });
  const answer = (await res.json()) as { paths?: unknown[] };
  return { status: res.status, paths: answer.paths?.length ?? 0 };
};

function nextBlock(state: ChainState, change: Partial<ChainState>): ChainState {
  const b = state.block;
  return {
    ...state,
    ...change,
    block: {
      number: b.number + 1,
      hash: `0x${(b.number + 1).toString(16).padStart(64, '0')}`,
      parentHash: b.hash,
      timestamp: b.timestamp + 12,
    },
  };
}

async function main(): Promise<void> {
  const pools = JSON.parse(readFileSync(SNAPSHOT_FILE, 'utf8')) as unknown[];
  const env: Record<string, string> = {};
  for (const k of ['ROUTER_WORKERS', 'ROUTER_ENGINE'] as const)
    if (process.env[k] !== undefined) env[k] = process.env[k];
  const server = await startTestServer(env, {
    seed: [{ chainId: 1, pools }],
    features: [routingFeature],
    background: true,
  });
  const universe: SyntheticUniverse = syntheticV3Universe();
  const decimals = new Map(universe.tokens.map((t) => [t.address, t.decimals]));
  // Let the threads build the V2 router first: the build measured is the V3 universe's.
  await new Promise((r) => setTimeout(r, 3000));
  let state = universe.state;
  const start = performance.now();
  server.ctx.readModel.setChainState(1, state);
  const [first] = universe.pools;
  await sor(server.url, {
    sellToken: first!.tokens[0]!.address,
    buyToken: first!.tokens[1]!.address,
    orderKind: 'sell',
    amount: (10n ** BigInt(first!.tokens[0]!.decimals)).toString(),
  });
  const buildMs = performance.now() - start;
  process.stdout.write(`READY ${server.url} ${universe.pools.length} ${universe.buffers.size} ${buildMs.toFixed(1)}\n`);

  // Two-token pools a quote can cross both ways (an LBP only sells its project token).
  const crossable = universe.pools.filter((p) => p.tokens.length === 2 && p.poolType !== 'LBP');
  const wrappedIn = (token: string) => universe.pools.find((p) => p.tokens.some((t) => t.address === token));
  let wei = 1n;
  const timed = async (change: Partial<ChainState>, sell: string, buy: string, sameBlock = false): Promise<void> => {
    const t = performance.now();
    state = sameBlock ? { ...state, ...change } : nextBlock(state, change);
    server.ctx.readModel.setChainState(1, state);
    const answer = await sor(server.url, {
      sellToken: sell,
      buyToken: buy,
      orderKind: 'sell',
      amount: (10n ** BigInt(decimals.get(sell) ?? 18) + wei++).toString(),
    });
    process.stdout.write(`NEXT ${(performance.now() - t).toFixed(1)} ${answer.status} ${answer.paths}\n`);
  };
  createInterface({ input: process.stdin }).on('line', (line) => {
    const [command, arg] = line.split(' ');
    const k = Number(arg ?? 0);
    if (command === 'pool' || command === 'samePool') {
      const pool = crossable[k % crossable.length]!;
      const registered = new Map(state.registered);
      const next = traded(registered.get(pool.id) ?? pool, 0.5);
      registered.set(pool.id, next);
      void timed({ registered }, pool.tokens[0]!.address, pool.tokens[1]!.address, command === 'samePool');
    } else if (command === 'buffer') {
      const entries = [...state.buffers!];
      const [key, buffer] = entries[k % entries.length]!;
      const buffers = new Map(entries.map(([w, b]) => [w, w === key ? movedBuffer(b) : b]));
      // Through the buffer: its underlying into a pool holding the ERC-4626 token.
      const pool = wrappedIn(key);
      const other = pool?.tokens.find((t) => t.address !== key)?.address ?? key;
      void timed({ buffers }, buffer.underlyingToken, other);
    }
  });
  process.on('SIGTERM', () => {
    void server.close().then(() => process.exit(0));
  });
}

if (require.main === module) {
  main().catch((e: Error) => {
    process.stderr.write(`V3 universe server failed: ${e.stack ?? e.message}\n`);
    process.exit(1);
  });
}
