import { divDown, mulDown, ONE, powDown, sub } from '../../../swap/math/fixedPoint';
import { Revert } from '../../../swap/math/revert';
import { floorSqrt, reClammCenteredness, reClammPriceRatio, sqrtScaled18 } from './reClammV3Math';
import type { ReClammPriceRatioState, ReClammState } from './reClammV3State';

/**
 * What moves with time in a ReClamm pool: the virtual balances a swap in a block with timestamp
 * `now` prices against (computeCurrentVirtualBalances), from the stored ones, the pool's real
 * balances and the seconds since they were stored. Two movements, in this order:
 *
 * - while a price ratio update runs, the range widens or narrows (the fourth root of the price
 *   ratio interpolated geometrically), keeping the centeredness;
 * - while the pool is out of its target range (centeredness below the margin), the range slides
 *   toward the market price: the overvalued virtual balance decays by dailyPriceShiftBase per second.
 */

const THIRTY_DAYS = 30n * 24n * 3600n;

export interface CurrentVirtualBalances {
  readonly virtualA: bigint;
  readonly virtualB: bigint;
  /** Whether the pool would store new virtual balances in this block (it does on its first swap). */
  readonly changed: boolean;
}

/**
 * A timestamp before the pool's last update: the state and the timestamp come from different
 * blocks (no block can precede what the pool stored), so nothing is priced on them.
 */
export class ReClammTimestampBeforeLastUpdate extends Revert {
  override readonly name = 'ReClammTimestampBeforeLastUpdate';
  constructor(now: bigint, last: bigint) {
    super(`ReClamm timestamp ${now} precedes the pool's last update at ${last}`);
  }
}

export function currentVirtualBalances(
  state: ReClammState,
  balances: readonly bigint[],
  now: bigint,
): CurrentVirtualBalances {
  const [lastA, lastB] = state.lastVirtualBalances;
  if (now === state.lastTimestamp) return { virtualA: lastA, virtualB: lastB, changed: false };
  if (now < state.lastTimestamp) throw new ReClammTimestampBeforeLastUpdate(now, state.lastTimestamp);
  let virtualA = lastA;
  let virtualB = lastB;
  let changed = false;
  const range = state.priceRatio;
  if (now > range.priceRatioUpdateStartTime && state.lastTimestamp < range.priceRatioUpdateEndTime) {
    [virtualA, virtualB] = updatingPriceRatio(fourthRootPriceRatio(range, now), balances, lastA, lastB);
    changed = true;
  }
  const { centeredness, aboveCenter } = reClammCenteredness(balances, virtualA, virtualB);
  if (centeredness < state.centerednessMargin) {
    [virtualA, virtualB] = updatingPriceRange(state, balances, virtualA, virtualB, aboveCenter, now);
    changed = true;
  }
  return { virtualA, virtualB, changed };
}

/**
 * The earliest time whose virtual balances at `balances` are those at `now`: the pool's last
 * update when neither movement runs by `now` (no price ratio update after it, the pool within its
 * margin), else `now`. A pool priced at its last update also prices the block's later operations
 * as the chain does: the block's first one stores the virtual balances unmoved and its timestamp,
 * so nothing moves them within the block.
 */
export function restingSince(state: ReClammState, balances: readonly bigint[], now: bigint): bigint {
  if (now <= state.lastTimestamp) return now;
  const range = state.priceRatio;
  if (now > range.priceRatioUpdateStartTime && state.lastTimestamp < range.priceRatioUpdateEndTime) return now;
  const [lastA, lastB] = state.lastVirtualBalances;
  return reClammCenteredness(balances, lastA, lastB).centeredness < state.centerednessMargin
    ? now
    : state.lastTimestamp;
}

/** computeFourthRootPriceRatio: start * (end / start)^(elapsed share), floored at the smaller end. */
export function fourthRootPriceRatio(range: ReClammPriceRatioState, now: bigint): bigint {
  const { startFourthRootPriceRatio: start, endFourthRootPriceRatio: end } = range;
  if (now >= range.priceRatioUpdateEndTime) return end;
  if (now <= range.priceRatioUpdateStartTime) return start;
  const exponent = divDown(
    now - range.priceRatioUpdateStartTime,
    range.priceRatioUpdateEndTime - range.priceRatioUpdateStartTime,
  );
  const current = mulDown(start, powDown(divDown(end, start), exponent, true));
  const minimum = start < end ? start : end;
  return current > minimum ? current : minimum;
}

/**
 * computeVirtualBalancesUpdatingPriceRatio: the undervalued virtual balance solves the quadratic
 * that keeps the centeredness at the new price ratio; the overvalued one keeps its ratio to it.
 */
function updatingPriceRatio(
  fourthRoot: bigint,
  balances: readonly bigint[],
  lastA: bigint,
  lastB: bigint,
): [bigint, bigint] {
  const { centeredness: c, aboveCenter } = reClammCenteredness(balances, lastA, lastB);
  const [balanceUnder, lastUnder, lastOver] = aboveCenter ? [balances[0]!, lastA, lastB] : [balances[1]!, lastB, lastA];
  const sqrtPriceRatio = mulDown(fourthRoot, fourthRoot);
  const under =
    (balanceUnder * (ONE + c + floorSqrt(c * sub(c + 4n * sqrtPriceRatio, 2n * ONE) + ONE * ONE))) /
    (2n * sub(sqrtPriceRatio, ONE));
  const over = (under * lastOver) / lastUnder;
  return aboveCenter ? [under, over] : [over, under];
}

/**
 * computeVirtualBalancesUpdatingPriceRange: the overvalued virtual balance decays with the seconds
 * out of range, the undervalued one follows so the price ratio stays.
 */
function updatingPriceRange(
  state: ReClammState,
  balances: readonly bigint[],
  virtualA: bigint,
  virtualB: bigint,
  aboveCenter: boolean,
  now: bigint,
): [bigint, bigint] {
  const sqrtPriceRatio = sqrtScaled18(reClammPriceRatio(balances, virtualA, virtualB));
  const [balanceUnder, balanceOver] = aboveCenter ? [balances[0]!, balances[1]!] : [balances[1]!, balances[0]!];
  let over = aboveCenter ? virtualB : virtualA;
  let elapsed = now - state.lastTimestamp;
  if (state.version === 2 && elapsed > THIRTY_DAYS) elapsed = THIRTY_DAYS;
  over = mulDown(over, powDown(state.dailyPriceShiftBase, elapsed * ONE, true));
  if (state.version === 2) {
    // The value at which the pool would be centred: the range stops shifting there.
    const floor = divDown(balanceOver, sub(sqrtScaled18(sqrtPriceRatio), ONE));
    if (floor > over) over = floor;
  }
  const under = (balanceUnder * (over + balanceOver)) / sub(mulDown(sub(sqrtPriceRatio, ONE), over), balanceOver);
  return aboveCenter ? [under, over] : [over, under];
}
