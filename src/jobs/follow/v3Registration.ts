import type { PoolChainState } from '../../domain/chainState';
import type { StoredPool } from '../../domain/pool';
import { registeredV3Pool } from '../../domain/protocols/v3/stored/registeredPool';
import { protocolOf } from '../../sources/chainState/chainStateSource';

/**
 * Pools the V3 Vault registered that no one has catalogued yet, quotable from the block that
 * registered them: the pools of `named` (address -> factory) the served pools do not have, each
 * typed like the catalogue's pools of its factory (a factory the catalogue has no pool of is not
 * known to make a type the service carries: left out), read by `readPools`.
 */
export async function readRegisteredPools(
  named: ReadonlyMap<string, string>,
  pools: readonly StoredPool[],
  readPools: (pools: readonly StoredPool[]) => Promise<Map<string, PoolChainState>>,
): Promise<{ registered: Map<string, StoredPool>; read: Map<string, PoolChainState> }> {
  const registered = new Map<string, StoredPool>();
  if (named.size === 0) return { registered, read: new Map() };
  const known = new Set(pools.map((p) => p.id));
  const byFactory = new Map<string, StoredPool>();
  for (const p of pools) if (protocolOf(p) === 3 && p.factory !== null) byFactory.set(p.factory, p);
  const skeletons: StoredPool[] = [];
  for (const [address, factory] of named) {
    const sibling = byFactory.get(factory);
    if (!known.has(address) && sibling !== undefined) skeletons.push(registeredV3Pool(address, factory, sibling));
  }
  if (skeletons.length === 0) return { registered, read: new Map() };
  const read = await readPools(skeletons);
  for (const skeleton of skeletons) {
    const s = read.get(skeleton.id);
    const factory = skeleton.factory!;
    if (s) registered.set(skeleton.id, registeredV3Pool(skeleton.id, factory, byFactory.get(factory)!, s));
  }
  return { registered, read };
}
