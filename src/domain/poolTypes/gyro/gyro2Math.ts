import { add, divDown, divUp, mulDown, mulUp, ONE, sqrt, sub } from './gyroFixedPoint';
import { Revert } from '../../swap/math/revert';

/**
 * Gyro2CLPMath (the 2-CLP, a constant product on virtual reserves (x + a)(y + b) = L^2 within the
 * price range [alpha, beta]) in bigint, rounding as the contract does. Amounts and balances are
 * upscaled (18 decimals, token rates applied); x is token 0, y token 1.
 */

const TWO = 2n * ONE;
const FOUR = 4n * ONE;

/** The invariant L from the quadratic (1 - sqrt(alpha/beta)) L^2 - (y/sqrt(beta) + x sqrt(alpha)) L - xy = 0, rounded down. */
export function calculateInvariant(x: bigint, y: bigint, sqrtAlpha: bigint, sqrtBeta: bigint): bigint {
  const a = sub(ONE, divDown(sqrtAlpha, sqrtBeta));
  const mb = add(divDown(y, sqrtBeta), mulDown(x, sqrtAlpha));
  const mc = mulDown(x, y);
  // b^2 expanded as x^2 alpha + 2xy sqrt(alpha/beta) + y^2 / beta, in the contract's order.
  let bSquare = mulDown(mulDown(mulDown(x, x), sqrtAlpha), sqrtAlpha);
  const bSq2 = divDown(mulDown(mulDown(mulDown(x, y), TWO), sqrtAlpha), sqrtBeta);
  const bSq3 = divDown(mulDown(y, y), mulUp(sqrtBeta, sqrtBeta));
  bSquare = add(add(bSquare, bSq2), bSq3);
  const denominator = mulUp(a, TWO);
  const radicand = add(bSquare, mulDown(mulDown(mc, FOUR), a));
  return divDown(add(mb, sqrt(radicand, 5n)), denominator);
}

/** Virtual offsets: a = L / sqrt(beta) for token 0, b = L sqrt(alpha) for token 1. */
export function virtualOffsets(invariant: bigint, sqrtAlpha: bigint, sqrtBeta: bigint): [bigint, bigint] {
  return [divDown(invariant, sqrtBeta), mulDown(invariant, sqrtAlpha)];
}

/**
 * The swap on virtual reserves (balance plus offset) already formed: out = virtOut dx / (virtIn + dx),
 * rounded down. V2 and V3 pools run this same arithmetic and differ only in how they form the
 * offsets and in the revert they raise past the balance out, which is the caller's to check.
 */
export const outGivenInVirtual = (virtIn: bigint, virtOut: bigint, amountIn: bigint): bigint =>
  divDown(mulDown(virtOut, amountIn), add(virtIn, amountIn));

/** in = virtIn dy / (virtOut - dy), rounded up; the caller checks dy against the balance out first. */
export const inGivenOutVirtual = (virtIn: bigint, virtOut: bigint, amountOut: bigint): bigint =>
  divUp(mulUp(virtIn, amountOut), sub(virtOut, amountOut));

/**
 * Amount out for `amountIn` (fee already off), with the contract's safety margin: the offset of
 * the token in is taken 2e-18 larger, that of the token out 1e-18 smaller.
 */
export function calcOutGivenIn(
  balanceIn: bigint,
  balanceOut: bigint,
  amountIn: bigint,
  offsetIn: bigint,
  offsetOut: bigint,
): bigint {
  const virtInOver = add(balanceIn, mulUp(offsetIn, ONE + 2n));
  const virtOutUnder = add(balanceOut, mulDown(offsetOut, ONE - 1n));
  const amountOut = outGivenInVirtual(virtInOver, virtOutUnder, amountIn);
  if (amountOut > balanceOut) throw new Revert('asset bounds exceeded (GYR#357)');
  return amountOut;
}

/** Amount in (before the fee) for `amountOut`. */
export function calcInGivenOut(
  balanceIn: bigint,
  balanceOut: bigint,
  amountOut: bigint,
  offsetIn: bigint,
  offsetOut: bigint,
): bigint {
  if (amountOut > balanceOut) throw new Revert('asset bounds exceeded (GYR#357)');
  const virtInOver = add(balanceIn, mulUp(offsetIn, ONE + 2n));
  const virtOutUnder = add(balanceOut, mulDown(offsetOut, ONE - 1n));
  return inGivenOutVirtual(virtInOver, virtOutUnder, amountOut);
}
