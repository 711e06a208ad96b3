import type { StoredPool } from '../pool';
import { v3HookOf } from '../protocols/v3/stored/v3HookOf';
import { v3PoolStateOf } from '../protocols/v3/stored/v3PoolState';
import type { V3Pool } from '../protocols/v3/vault/v3Pool';
import { poolTypeDef } from './registry';

/**
 * A stored V3 pool as the V3 Vault's frame runs it at `timestamp` (its Vault state, its type's
 * math, its hook), or undefined when the service does not carry its type. Throws when the pool
 * lacks what its type or hook needs (an `UnmodelledHookError` for a hook it does not model): such
 * a pool is not quoted.
 */
export function v3PoolOf(pool: StoredPool, timestamp: bigint): V3Pool | undefined {
  const typeMath = poolTypeDef(pool.poolType, 3)?.v3;
  const state = v3PoolStateOf(pool);
  if (typeMath === undefined || state === undefined) return undefined;
  const math = typeMath.math(pool, state, timestamp);
  const stored = typeMath.ownHook?.(pool) === true ? null : (pool.v3?.hook ?? null);
  const hook =
    stored !== null && typeMath.selfHook !== undefined && stored.address === pool.address.toLowerCase()
      ? typeMath.selfHook(pool, state, timestamp)
      : v3HookOf(stored, math, typeMath.weights?.(pool, timestamp) ?? []);
  return hook === undefined ? { state, math } : { state, math, hook };
}
