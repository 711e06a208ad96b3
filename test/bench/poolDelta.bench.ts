import { chainById } from '../../src/config/chains';
import { normalizePool } from '../../src/domain/normalizePool';
import type { StoredPool } from '../../src/domain/pool';
import { PoolVersions, type PoolsInput } from '../../src/routing/poolVersions';
import { RouterHost, type QuoteTask } from '../../src/routing/routerHost';
import { encodeShared } from '../../src/routing/sharedJson';
import { syntheticPools, syntheticTokens } from '../fakes/syntheticPools';
import { figure } from './lib/report';

/**
 * One pool changed in an 11,000-pool synthetic universe, on the quote side: the main thread's
 * input for the new version (a delta) and the next quote in a thread that held the previous
 * version (router built from the previous one), against the same new version sent whole to a
 * thread that builds from nothing (what every version cost before deltas). The read model's
 * reload from the store is in `storeDelta.bench.ts`.
 */
const POOLS = 11_000;
const ROUNDS = 5;

export async function run(): Promise<void> {
  const chain = chainById(1)!;
  const tokens = syntheticTokens({ tokenCount: 64 });
  let pools: StoredPool[] = syntheticPools(POOLS, { tokenCount: 64 })
    .flatMap((p) => {
      const n = normalizePool(p as never);
      return n.ok ? [n.pool] : [];
    })
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const task = (input: PoolsInput, round: number): QuoteTask => ({
    chain: { id: chain.id, vault: chain.vault, wrappedNative: chain.wrappedNative },
    pools: input,
    pricesKey: 'none',
    prices: encodeShared({}),
    minLiquidityUsd: 0,
    engine: 'own',
    sellToken: tokens[round % 8]!.address,
    buyToken: tokens[8 + (round % 8)]!.address,
    orderKind: 'sell',
    amount: (10n ** BigInt(tokens[round % 8]!.decimals)).toString(),
    gasPrice: '0',
    timestamp: 1_700_000_000,
  });
  const versions = new PoolVersions();
  const host = new RouterHost();
  let t = performance.now();
  await host.quote(task(versions.input(1, 1, pools), 0));
  figure(`first version of ${pools.length} pools: input + quote`, performance.now() - t, 'ms');
  let update = 0;
  let quote = 0;
  let whole = 0;
  for (let r = 1; r <= ROUNDS; r++) {
    const at = (r * 2_111) % pools.length;
    const p = pools[at]!;
    pools = [...pools];
    pools[at] = {
      ...p,
      tokens: p.tokens.map((x) => ({ ...x, balance: x.balance.replace(/^(\d)/, (d) => String((Number(d) % 9) + 1)) })),
    };
    t = performance.now();
    const input = versions.input(1, r + 1, pools);
    update += performance.now() - t;
    t = performance.now();
    await host.quote(task(input, r));
    quote += performance.now() - t;
    t = performance.now();
    await new RouterHost().quote(task(new PoolVersions().input(1, r + 1, pools), r));
    whole += performance.now() - t;
  }
  figure('one pool changed: main-thread input (delta)', update / ROUNDS, 'ms', { op: '<', value: 50 });
  figure('one pool changed: next quote (incremental router)', quote / ROUNDS, 'ms', { op: '<', value: 50 });
  figure('same version sent whole, router from nothing', whole / ROUNDS, 'ms');
}
