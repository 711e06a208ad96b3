import type { SubgraphPoolBase } from '@balancer-labs/sor';
import { isZeroDecimal, toPlainDecimal } from '../domain/decimal';
import type { StoredPool } from '../domain/pool';

/**
 * Stored pools -> the pool shape `@balancer-labs/sor` reads, keeping only pools a swap can go
 * through. Pure: the router host calls it once per pool version.
 */

/** A pool ready for the SOR plus the liquidity figure the floor filter needs (USD; null = unknown). */
export interface RoutingPool {
  readonly pool: SubgraphPoolBase;
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

/** The SOR parses balances with `parseFixed(balance, decimals)`: plain decimals, no excess digits. */
function balanceFor(balance: string, decimals: number): string {
  return toPlainDecimal(balance, decimals);
}

function optionalString(v: string | null): string | undefined {
  return v === null ? undefined : v;
}

function optionalNumber(v: number | null): number | undefined {
  return v === null ? undefined : v;
}

/** The ComposableStable protocol fee basis the engine reads (extra fields the SOR ignores). */
export interface RoutingFeeBasis {
  readonly protocolSwapFeeCache?: string;
  readonly protocolYieldFeeCache?: string;
  readonly lastJoinExitAmp?: string;
  readonly lastPostJoinExitInvariant?: string;
}

function feeBasis(p: StoredPool): RoutingFeeBasis {
  return {
    protocolSwapFeeCache: p.protocolSwapFeeCache,
    protocolYieldFeeCache: optionalString(p.protocolYieldFeeCache ?? null),
    lastJoinExitAmp: p.lastJoinExitAmp,
    lastPostJoinExitInvariant: p.lastPostJoinExitInvariant,
  };
}

export function toSorPool(p: StoredPool): SubgraphPoolBase {
  const pool: SubgraphPoolBase = {
    id: p.id,
    address: p.address,
    poolType: p.poolType,
    poolTypeVersion: p.poolTypeVersion,
    swapFee: p.swapFee,
    swapEnabled: p.swapEnabled,
    totalShares: toPlainDecimal(p.totalShares, 18),
    tokens: p.tokens.map((t) => ({
      address: t.address,
      balance: balanceFor(t.balance, t.decimals),
      decimals: t.decimals,
      priceRate: t.priceRate,
      weight: t.weight,
      // ComposableStable protocol fee basis (read by the engine, ignored by the SOR).
      oldPriceRate: t.oldPriceRate,
      isExemptFromYieldProtocolFee: t.isExemptFromYieldProtocolFee,
    })),
    tokensList: [...p.tokensList],
    totalWeight: p.totalWeight,
    amp: optionalString(p.amp),
    expiryTime: optionalNumber(p.expiryTime),
    unitSeconds: optionalNumber(p.unitSeconds),
    principalToken: optionalString(p.principalToken),
    baseToken: optionalString(p.baseToken),
    mainIndex: optionalNumber(p.mainIndex),
    wrappedIndex: optionalNumber(p.wrappedIndex),
    lowerTarget: optionalString(p.lowerTarget),
    upperTarget: optionalString(p.upperTarget),
    ...(p.gyro ?? {}),
    ...feeBasis(p),
  };
  for (const t of pool.tokens as unknown as Record<string, unknown>[])
    for (const k of Object.keys(t)) if (t[k] === undefined) delete t[k];
  // JSON transport (worker threads) drops undefined anyway; dropping here keeps both paths equal.
  for (const k of Object.keys(pool) as (keyof SubgraphPoolBase)[]) if (pool[k] === undefined) delete pool[k];
  return pool;
}

/** Liquidity the floor compares against: decoration's figure only (pools without one are kept). */
function liquidityOf(p: StoredPool): number | null {
  if (p.totalLiquidity === undefined) return null;
  const n = Number(p.totalLiquidity);
  return Number.isFinite(n) ? n : null;
}

export function toRoutingPools(pools: readonly StoredPool[]): RoutingPool[] {
  return pools.filter(isRoutable).map((p) => ({ pool: toSorPool(p), liquidityUsd: liquidityOf(p) }));
}

/** Pools at or above the liquidity floor, plus every pool whose liquidity is not known yet. */
export function aboveLiquidityFloor(pools: readonly RoutingPool[], minLiquidityUsd: number): SubgraphPoolBase[] {
  return pools.filter((p) => p.liquidityUsd === null || p.liquidityUsd >= minLiquidityUsd).map((p) => p.pool);
}
