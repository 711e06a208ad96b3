import type { PoolHistoryPoint } from '../pool';
import { dec, Exact, ZERO } from './exact';

/**
 * 24 h volume and fees: the pool's cumulative `totalSwapVolume` / `totalSwapFee` now minus the
 * history point nearest to 24 h ago. When no point is at least 20 h old, the oldest point is used
 * and the delta scaled to 24 h, and the result is marked extrapolated. No usable point at all gives
 * 0, also marked extrapolated (there was nothing to measure against).
 */
export const DAY_SECONDS = 86_400;
export const MIN_FULL_SPAN_SECONDS = 20 * 3_600;

export interface SwapDeltas {
  readonly volume: Exact;
  readonly fees: Exact;
  readonly extrapolated: boolean;
}

/** A cumulative counter can only grow; a smaller value (subgraph re-index) counts as no change. */
function growth(now: string, then: string): Exact {
  const d = dec(now).minus(dec(then));
  return d.gt(0) ? d : ZERO;
}

/** `history`: points of this pool, any order. */
export function swapDeltas(
  current: { readonly totalSwapVolume: string; readonly totalSwapFee: string },
  history: readonly PoolHistoryPoint[],
  nowSeconds: number,
): SwapDeltas {
  const target = nowSeconds - DAY_SECONDS;
  let nearest: PoolHistoryPoint | undefined;
  let oldest: PoolHistoryPoint | undefined;
  for (const p of history) {
    if (p.timestamp >= nowSeconds) continue;
    if (!oldest || p.timestamp < oldest.timestamp) oldest = p;
    if (nowSeconds - p.timestamp < MIN_FULL_SPAN_SECONDS) continue;
    const d = Math.abs(p.timestamp - target);
    const best = nearest ? Math.abs(nearest.timestamp - target) : Infinity;
    // On a tie the older point wins: it covers the whole day.
    if (d < best || (d === best && nearest && p.timestamp < nearest.timestamp)) nearest = p;
  }
  if (nearest) {
    return {
      volume: growth(current.totalSwapVolume, nearest.totalSwapVolume),
      fees: growth(current.totalSwapFee, nearest.totalSwapFee),
      extrapolated: false,
    };
  }
  if (!oldest) return { volume: ZERO, fees: ZERO, extrapolated: true };
  const scale = dec(DAY_SECONDS).div(nowSeconds - oldest.timestamp);
  return {
    volume: growth(current.totalSwapVolume, oldest.totalSwapVolume).times(scale),
    fees: growth(current.totalSwapFee, oldest.totalSwapFee).times(scale),
    extrapolated: true,
  };
}
