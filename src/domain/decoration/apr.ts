import type { AprBreakdown, PoolHistoryPoint } from '../pool';
import type { Exact } from './exact';

/**
 * APR parts in basis points, in the old API's shape. Staking and reward APRs come from the pool's
 * gauge (gaugeApr.ts).
 */
export const YEAR_SECONDS = 365 * 86_400;
/** Rate growth over less than a day is mostly the step of a single rate update: not annualized. */
export const MIN_RATE_SPAN_SECONDS = 86_400;

/**
 * round(365 x 10000 x fees24h x (1 - protocolSwapFee) / totalLiquidity); 0 without liquidity.
 * A ratio of two USD figures rounded to whole bps: float precision is ample, and an exact division
 * by an 18-decimal liquidity was most of the cost of decorating 10,000 pools.
 */
export function swapFeeApr(fees24h: Exact, totalLiquidity: Exact | undefined, protocolSwapFee: number): number {
  if (!totalLiquidity || !totalLiquidity.gt(0)) return 0;
  const bps = Math.round((365 * 10_000 * fees24h.toNumber() * (1 - protocolSwapFee)) / totalLiquidity.toNumber());
  return Number.isFinite(bps) ? bps : 0;
}

/**
 * Annualized growth of a token's priceRate (simple, not compounded), in bps, measured from the
 * oldest point of our own history that is at least a day old. Falling rates count as 0. Rates and
 * shares are ratios, not token amounts, so plain numbers are precise enough for a bps result.
 */
export function rateGrowthApr(
  token: string,
  currentRate: string,
  history: readonly PoolHistoryPoint[],
  nowSeconds: number,
): number {
  let from: PoolHistoryPoint | undefined;
  for (const p of history) {
    if (nowSeconds - p.timestamp < MIN_RATE_SPAN_SECONDS || p.priceRates[token] === undefined) continue;
    if (!from || p.timestamp < from.timestamp) from = p;
  }
  if (!from) return 0;
  const then = Number(from.priceRates[token]);
  const growth = Number(currentRate) / then - 1;
  if (!(then > 0) || !(growth > 0) || !Number.isFinite(growth)) return 0;
  return (growth * YEAR_SECONDS * 10_000) / (nowSeconds - from.timestamp);
}

export interface TokenAprInput {
  readonly address: string;
  /** The token's own yield in bps (rate growth, or a nested pool's swap-fee + token APR). */
  readonly aprBps: number;
  /** The token's USD value in the pool. */
  readonly value: Exact;
}

/** Each token's yield weighted by its share of the pool's liquidity. */
export function tokenAprs(
  tokens: readonly TokenAprInput[],
  totalLiquidity: Exact | undefined,
): AprBreakdown['tokenAprs'] {
  const breakdown: Record<string, number> = {};
  let total = 0;
  if (!totalLiquidity || !totalLiquidity.gt(0)) return { total, breakdown };
  const liquidity = totalLiquidity.toNumber();
  for (const t of tokens) {
    if (!(t.aprBps > 0) || !t.value.gt(0)) continue;
    const bps = Math.round((t.aprBps * t.value.toNumber()) / liquidity);
    if (!Number.isFinite(bps) || bps === 0) continue;
    breakdown[t.address] = bps;
    total += bps;
  }
  return { total, breakdown };
}

export function aprBreakdown(
  swapFees: number,
  tokens: AprBreakdown['tokenAprs'],
  gauge: Pick<AprBreakdown, 'stakingApr' | 'rewardAprs'> = {
    stakingApr: { min: 0, max: 0 },
    rewardAprs: { total: 0, breakdown: {} },
  },
): AprBreakdown {
  const { stakingApr, rewardAprs } = gauge;
  const base = swapFees + tokens.total + rewardAprs.total;
  return {
    swapFees,
    tokenAprs: tokens,
    stakingApr,
    rewardAprs,
    protocolApr: 0,
    min: base + stakingApr.min,
    max: base + stakingApr.max,
  };
}
