import type { AmpRamp, PoolChainState, WeightUpdate } from './chainState';

/**
 * Chain state that moves with time and no event: an amp ramp in progress, rate caches that
 * expire, a liquidity bootstrapping pool's weights during a gradual update. The chain's getters
 * answer at the block they were read at; a quote is executed in a later block, so the follower
 * evaluates them at that block's timestamp exactly as the pools do
 * (`StablePoolAmplification._getAmplificationParameter`, `ComposableStablePoolRates
 * ._cacheTokenRateIfNecessary`, `MetaStablePool._cachePriceRatesIfNecessary`: both refresh an
 * expired cache before the swap scales its amounts; `LiquidityBootstrappingPool
 * ._getNormalizedWeights`). StablePhantom pools refresh after scaling, so the reader gives them no
 * rate caches: their swap uses the cached rate. Pure.
 */

const ONE = 10n ** 18n;
const UINT31_MAX = 2n ** 31n - 1n;
const UINT16_MAX = 2n ** 16n - 1n;

/** FixedPoint.divUp of non-negative integers. */
const divUp = (a: bigint, b: bigint) => (a === 0n ? 0n : (a * ONE - 1n) / b + 1n);
/** FixedPoint.mulUp. */
const mulUp = (a: bigint, b: bigint) => (a * b === 0n ? 0n : (a * b - 1n) / ONE + 1n);

/** WeightCompression: `compress` (mulUp then divUp by ONE) and `uncompress` into `max` steps. */
function compressed(weight: bigint, max: bigint): bigint {
  return divUp(mulUp(weight, max), ONE);
}
function uncompressed(value: bigint, max: bigint): bigint {
  return divUp(mulUp(value, ONE), max);
}

/**
 * A start weight as the pool keeps it (31 bits): what `GradualWeightUpdateScheduled` announced
 * is stored compressed, and its swaps use the stored value uncompressed.
 */
export function storedStartWeight(weight: bigint): bigint {
  return uncompressed(compressed(weight, UINT31_MAX), UINT31_MAX);
}

/** An end weight as the pool keeps it (16 bits), as `getGradualWeightUpdateParams()` returns it. */
export function storedEndWeight(weight: bigint): bigint {
  return uncompressed(compressed(weight, UINT16_MAX), UINT16_MAX);
}

/**
 * How far along `update` is at `timestamp`, 1e18 = done, rounded down
 * (`_calculateWeightChangeProgress`; a zero-length update is done).
 */
function weightProgress(update: WeightUpdate, timestamp: bigint): bigint {
  if (timestamp > update.endTime) return ONE;
  if (timestamp < update.startTime) return 0n;
  const total = update.endTime - update.startTime;
  return total === 0n ? ONE : ((timestamp - update.startTime) * ONE) / total;
}

/**
 * The normalized weights a swap at `timestamp` uses during `update` (`_getNormalizedWeights`):
 * each moves from its start to its end weight by the progress times the distance, rounded down.
 * Their sum may differ from 1e18 by a few wei, as on chain.
 */
export function weightsAt(update: WeightUpdate, timestamp: bigint): bigint[] {
  const progress = weightProgress(update, timestamp);
  return update.startWeights.map((start, i) => {
    const end = update.endWeights[i] ?? start;
    if (progress === 0n || start === end) return start;
    if (progress >= ONE) return end;
    return start > end ? start - (progress * (start - end)) / ONE : start + (progress * (end - start)) / ONE;
  });
}

/** The amp a pool's swap uses at `timestamp` during `ramp` (integer arithmetic, as the contract). */
export function ampAt(ramp: AmpRamp, timestamp: bigint): bigint {
  if (timestamp >= ramp.endTime) return ramp.endValue;
  const elapsed = timestamp > ramp.startTime ? timestamp - ramp.startTime : 0n;
  const duration = ramp.endTime - ramp.startTime;
  return ramp.endValue > ramp.startValue
    ? ramp.startValue + ((ramp.endValue - ramp.startValue) * elapsed) / duration
    : ramp.startValue - ((ramp.startValue - ramp.endValue) * elapsed) / duration;
}

/**
 * `s` with `amp`, `rates` and `weights` as a swap at `timestamp` sees them: the ramp's amp, for
 * each rate cache expired by then (`timestamp > expires`) the provider's rate, which the swap
 * caches first (the old rates stay: only joins and exits move them, so the protocol yield fee
 * still counts the growth since then), and the weight update's weights. Returns `s` itself when
 * nothing differs, so unchanged pools keep their objects.
 */
export function stateAt(s: PoolChainState, timestamp: number): PoolChainState {
  const ts = BigInt(timestamp);
  const amp = s.ampRamp && s.amp ? { ...s.amp, value: ampAt(s.ampRamp, ts) } : s.amp;
  let rates = s.rates;
  if (s.rateCaches) {
    const next = new Map(s.rates);
    for (const [token, c] of s.rateCaches)
      next.set(token, ts > c.expires && c.providerRate !== undefined ? c.providerRate : c.rate);
    if (!rates || next.size !== rates.size || [...next].some(([t, r]) => rates!.get(t) !== r)) rates = next;
  }
  let weights = s.weights;
  if (s.weightUpdate) {
    const next = weightsAt(s.weightUpdate, ts);
    if (!weights || next.length !== weights.length || next.some((w, i) => weights![i] !== w)) weights = next;
  }
  if (amp?.value === s.amp?.value && rates === s.rates && weights === s.weights) return s;
  return { ...s, ...(amp ? { amp } : {}), ...(rates ? { rates } : {}), ...(weights ? { weights } : {}) };
}

/**
 * Whether `s` holds a schedule that moves its state with time alone (an amp ramp, a weight
 * update): the follower evaluates it again at each new head, with no read.
 */
export function movesWithTime(s: PoolChainState): boolean {
  return s.ampRamp !== undefined || s.weightUpdate !== undefined;
}

/**
 * Whether a pool's state at `timestamp` may differ from what was read with no Vault event: a rate
 * provider behind an expired cache (its rate moves freely), a linear pool's wrapped rate, or a
 * weighted pool's rate providers (asked at every join or exit, no cache). Such a pool is read again
 * at each new head; a ramp or a weight update alone only needs `stateAt` again.
 */
export function needsReread(s: PoolChainState, timestamp: number): boolean {
  if (s.targets || s.weightedYield || s.timeUnknown) return true;
  const ts = BigInt(timestamp);
  for (const c of s.rateCaches?.values() ?? []) if (ts > c.expires && c.providerRate !== undefined) return true;
  return false;
}
