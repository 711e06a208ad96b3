import { divDown, divUp, mulDown, mulUp, ONE } from '../../../swap/math/fixedPoint';

/**
 * The V3 Vault's ScalingHelpers: raw token amounts to 18 decimals with the token's rate applied and
 * back. `scalingFactor` is the integer 10^(18 - decimals); `scalingFactor * rate` is exact, so only
 * the final multiplication or division rounds, in the direction each call names.
 */

export const toScaled18ApplyRateRoundDown = (amount: bigint, scalingFactor: bigint, rate: bigint): bigint =>
  mulDown(amount * scalingFactor, rate);

export const toScaled18ApplyRateRoundUp = (amount: bigint, scalingFactor: bigint, rate: bigint): bigint =>
  mulUp(amount * scalingFactor, rate);

export const toRawUndoRateRoundDown = (amount: bigint, scalingFactor: bigint, rate: bigint): bigint =>
  divDown(amount, scalingFactor * rate);

export const toRawUndoRateRoundUp = (amount: bigint, scalingFactor: bigint, rate: bigint): bigint =>
  divUp(amount, scalingFactor * rate);

/**
 * `computeRateRoundUp`: a rate provider rounds its rate down, so where a larger rate favours the
 * Vault (the amount out of an exact-in swap, the amount given of an exact-out swap) the Vault adds
 * one wei, unless the rate is a whole number (no rounding happened).
 */
export const computeRateRoundUp = (rate: bigint): bigint => ((rate / ONE) * ONE === rate ? rate : rate + 1n);
