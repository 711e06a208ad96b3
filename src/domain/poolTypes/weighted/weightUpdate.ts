/**
 * A liquidity bootstrapping pool's gradual weight update, as the pool stores and evaluates it
 * (`LiquidityBootstrappingPool._getNormalizedWeights`): times in unix seconds, weights in the
 * Vault's token order at the precision the pool keeps them in (start weights in 31 bits, end
 * weights in 16), which is what its swaps use. Pure.
 */
export interface WeightUpdate {
  readonly startTime: bigint;
  readonly endTime: bigint;
  readonly startWeights: readonly bigint[];
  readonly endWeights: readonly bigint[];
}

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
