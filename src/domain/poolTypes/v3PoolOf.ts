import type { StoredPool } from '../pool';
import { v3HookOf } from '../protocols/v3/stored/v3HookOf';
import { v3PoolStateOf } from '../protocols/v3/stored/v3PoolState';
import type { V3PoolState } from '../protocols/v3/vault/poolState';
import type { V3Pool } from '../protocols/v3/vault/v3Pool';
import { poolTypeDef } from './registry';

/**
 * A stored V3 pool as the V3 Vault's operations run it at `timestamp` (its Vault state, its type's
 * math, its hook), or undefined when the service does not carry its type. Throws when the pool
 * lacks what its type or hook needs (an `UnmodelledHookError` for a hook it does not model): such
 * a pool is not quoted.
 */
export function v3PoolOf(pool: StoredPool, timestamp: bigint): V3Pool | undefined {
  const typeMath = poolTypeDef(pool.poolType, 3)?.v3;
  const state = v3PoolStateOf(pool);
  if (typeMath === undefined || state === undefined) return undefined;
  const at = typeMath.pricingTime?.(pool, state, timestamp) ?? timestamp;
  const math = typeMath.math(pool, state, at);
  const stored = typeMath.ownHook?.(pool) === true ? null : (pool.v3?.hook ?? null);
  const hook =
    stored !== null && typeMath.selfHook !== undefined && stored.address === pool.address.toLowerCase()
      ? typeMath.selfHook(pool, state, at)
      : v3HookOf(stored, math, typeMath.weights?.(pool, at) ?? []);
  return hook === undefined ? { state, math } : { state, math, hook };
}

/**
 * The time a V3 pool's math is built at for a block at `timestamp` (`V3TypeMath.pricingTime`):
 * `timestamp` for a type that names none, undefined for a type that does not take the time at all
 * or a pool the service does not carry. Throws as `v3PoolOf` does on a pool lacking a parameter.
 */
export function v3PricingTime(
  pool: StoredPool,
  timestamp: bigint,
  vaultState: V3PoolState | undefined = v3PoolStateOf(pool),
): bigint | undefined {
  const def = poolTypeDef(pool.poolType, 3);
  if (def?.v3 === undefined || !def.timeDependent || vaultState === undefined) return undefined;
  return def.v3.pricingTime?.(pool, vaultState, timestamp) ?? timestamp;
}
