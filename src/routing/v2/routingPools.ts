import { isZeroDecimal } from '../../domain/decimal';
import type { StoredPool } from '../../domain/pool';
import { specFromStoredPool } from '../../domain/poolTypes/poolSpec';
import type { PoolSpec } from '../../domain/swap/poolModel';

/**
 * Stored pools -> what the quote threads route over, keeping only pools a swap can go through:
 * the engine's input (`PoolSpec`, built from the stored pool by `domain/poolTypes/poolSpec.ts`)
 * plus the two stored fields only the `@balancer-labs/sor` fallback reads (its adapter,
 * `sorPools.ts`, converts). Pure: the router host calls it once per pool version.
 */

export interface RoutingPool {
  readonly spec: PoolSpec;
  /** Read by the SOR only. */
  readonly totalWeight: string;
  readonly tokensList: readonly string[];
  /** Liquidity the floor filter compares (USD); null = unknown. */
  readonly liquidityUsd: number | null;
}

/**
 * SOR 4.1.3 only drops pools whose balances parse to zero after its own scaling, so pools whose
 * balances are all "0.0" slip through and yield useless or broken paths: a pool is routable only
 * when it is enabled, not paused, and holds something other than its own BPT.
 */
export function isRoutable(pool: StoredPool): boolean {
  if (!pool.swapEnabled || pool.isPaused || !pool.routable) return false;
  return pool.tokens.some((t) => t.address !== pool.address && !isZeroDecimal(t.balance));
}

/** A routable pool of the V2 Vault: what the V2 engine routes (V3 pools are routed by their own Vault's operations). */
export function isV2Routable(pool: StoredPool): boolean {
  return (pool.protocolVersion ?? 2) === 2 && isRoutable(pool);
}

/** Liquidity the floor compares against: decoration's figure only (pools without one are kept). */
function liquidityOf(p: StoredPool): number | null {
  if (p.totalLiquidity === undefined) return null;
  const n = Number(p.totalLiquidity);
  return Number.isFinite(n) ? n : null;
}

export function toRoutingPool(p: StoredPool): RoutingPool {
  return {
    spec: specFromStoredPool(p),
    totalWeight: p.totalWeight,
    tokensList: [...p.tokensList],
    liquidityUsd: liquidityOf(p),
  };
}

/** The V2 Vault's routable pools. */
export function toRoutingPools(pools: readonly StoredPool[]): RoutingPool[] {
  return pools.filter(isV2Routable).map(toRoutingPool);
}

/** Pools at or above the liquidity floor, plus every pool whose liquidity is not known yet. */
export function aboveLiquidityFloor(pools: readonly RoutingPool[], minLiquidityUsd: number): RoutingPool[] {
  return pools.filter((p) => p.liquidityUsd === null || p.liquidityUsd >= minLiquidityUsd);
}
