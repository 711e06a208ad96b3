import type { SubgraphPoolBase, SwapInfo } from '@balancer-labs/sor';
import { buildModels } from '../../../src/domain/swap/models';
import { replayBatchSwap } from '../../../src/domain/swap/replay';
import type { PoolModel, PoolSpec } from '../../../src/domain/swap/poolModel';
import { normalizePool } from '../../../src/domain/normalizePool';
import { specFromStoredPool } from '../../../src/domain/poolTypes/poolSpec';

/** Raw subgraph pools (the SOR's input in these tests) as the engine reads them once stored. */
export function specsOf(pools: readonly SubgraphPoolBase[]): PoolSpec[] {
  return pools.flatMap((p) => {
    const n = normalizePool(p);
    return n.ok ? [specFromStoredPool(n.pool)] : [];
  });
}

/**
 * What the Vault pays for a route the SOR proposed, replayed over the engine's pool models;
 * undefined when the route touches a pool the models do not carry (the SOR's figure then stands).
 */
const built = new WeakMap<readonly SubgraphPoolBase[], { timestamp: number; models: Map<string, PoolModel> }>();

export function exactOfSorRoute(
  kind: 'sell' | 'buy',
  info: SwapInfo,
  pools: readonly SubgraphPoolBase[],
  wrappedNative: string,
  timestamp: number,
): bigint | undefined {
  let entry = built.get(pools);
  if (entry?.timestamp !== timestamp) {
    entry = {
      timestamp,
      models: new Map(buildModels(specsOf(pools), { timestamp }).models.map((m) => [m.id, m])),
    };
    built.set(pools, entry);
  }
  const models = entry.models;
  const assets = info.tokenAddresses.map((a) => (/^0x0{40}$/.test(a) ? wrappedNative : a.toLowerCase()));
  const steps = info.swaps.map((s) => ({
    poolId: s.poolId.toLowerCase(),
    assetInIndex: s.assetInIndex,
    assetOutIndex: s.assetOutIndex,
    amount: BigInt(s.amount),
  }));
  const r = replayBatchSwap(kind, steps, assets, (id) => models.get(id));
  if (!r.ok) return undefined;
  const index = info.tokenAddresses.findIndex(
    (a) => a.toLowerCase() === (kind === 'sell' ? info.tokenOut : info.tokenIn).toLowerCase(),
  );
  const delta = r.deltas[index];
  return delta === undefined ? undefined : kind === 'sell' ? -delta : delta;
}

/** The Vault's deltas for wire-shaped swaps over stored pools (e2e: compare with queryBatchSwap). */
export function replayWireSwaps(
  kind: 'sell' | 'buy',
  swaps: readonly { poolId: string; assetInIndex: number; assetOutIndex: number; amount: string }[],
  tokenAddresses: readonly string[],
  pools: Iterable<PoolSpec>,
  wrappedNative: string,
  timestamp = Math.floor(Date.now() / 1000),
): ReturnType<typeof replayBatchSwap> {
  const models = new Map(buildModels([...pools], { timestamp }).models.map((m) => [m.id, m]));
  const assets = tokenAddresses.map((a) => (/^0x0{40}$/.test(a) ? wrappedNative.toLowerCase() : a.toLowerCase()));
  const steps = swaps.map((s) => ({
    poolId: s.poolId.toLowerCase(),
    assetInIndex: s.assetInIndex,
    assetOutIndex: s.assetOutIndex,
    amount: BigInt(s.amount),
  }));
  return replayBatchSwap(kind, steps, assets, (id) => models.get(id));
}
