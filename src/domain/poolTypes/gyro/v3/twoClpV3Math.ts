import type { Rounding } from '../../../protocols/v3/poolMath';
import { cmul, csub, divUpRaw } from '../../../protocols/v3/fixedPointV3';
import { inGivenOutVirtual, outGivenInVirtual } from '../gyro2Math';
import { add, divDown, divUp, mulDown, mulUp, ONE, sqrt, sub } from '../gyroFixedPoint';
import { Revert } from '../../../swap/math/revert';

/**
 * The V3 2-CLP (Gyro2CLPPool.sol over Gyro2CLPMath.sol): the constant product (x + a)(y + b) = L^2
 * with a = L / sqrt(beta), b = L sqrt(alpha), on live scaled18 balances, token 0 is x. The swap on
 * virtual reserves is V2's (`gyro/gyro2Math.ts`); V3 differs in how it gets there: the
 * invariant takes a rounding direction and orders one product differently (2 (xy sqrt(alpha)) where
 * V2 has (2xy) sqrt(alpha)), the offsets are rounded against the trader instead of V2's
 * 1e-18 margins, and computeBalance is new.
 */

/** The 2-CLP reports no invariant ratio bounds: 0 and uint256 max. */
export const TWO_CLP_MIN_INVARIANT_RATIO = 0n;
export const TWO_CLP_MAX_INVARIANT_RATIO = (1n << 256n) - 1n;

export interface TwoClpParams {
  readonly sqrtAlpha: bigint;
  readonly sqrtBeta: bigint;
}

/** `AssetBoundsExceeded()`: the swap would take more of the token out than the pool holds. */
export class Gyro2ClpAssetBoundsExceeded extends Revert {
  override readonly name = 'Gyro2ClpAssetBoundsExceeded';
  constructor() {
    super('2-CLP amount out above the balance out (AssetBoundsExceeded)', { code: 'AssetBoundsExceeded' });
  }
}

/** Parameters no deployed 2-CLP can have: its constructor reverts `SqrtParamsWrong` unless sqrtAlpha < sqrtBeta. */
export class Gyro2ClpParamsError extends Error {
  override readonly name = 'Gyro2ClpParamsError';
  constructor(
    readonly sqrtAlpha: bigint,
    readonly sqrtBeta: bigint,
  ) {
    super(`2-CLP needs 0 < sqrtAlpha < sqrtBeta, got sqrtAlpha ${sqrtAlpha}, sqrtBeta ${sqrtBeta} (SqrtParamsWrong)`);
  }
}

export function checkTwoClpParams(p: TwoClpParams): void {
  if (!(p.sqrtAlpha > 0n && p.sqrtAlpha < p.sqrtBeta)) throw new Gyro2ClpParamsError(p.sqrtAlpha, p.sqrtBeta);
}

/**
 * `calculateInvariant`: the larger root of (1 - sqrt(alpha/beta)) L^2 - (y/sqrt(beta) + x sqrt(alpha)) L - xy = 0.
 * Rounding up rounds every numerator term up and the leading coefficient (a denominator) down.
 */
export function twoClpInvariant(p: TwoClpParams, balances: readonly bigint[], rounding: Rounding): bigint {
  const down = rounding === 'down';
  const toward = down ? divDown : divUp;
  const mulToward = down ? mulDown : mulUp;
  const mulAway = down ? mulUp : mulDown;
  const x = balances[0]!;
  const y = balances[1]!;
  const { sqrtAlpha, sqrtBeta } = p;
  const a = sub(ONE, toward(sqrtAlpha, sqrtBeta));
  const mb = add(toward(y, sqrtBeta), mulToward(x, sqrtAlpha));
  const mc = mulToward(x, y);
  // b^2 expanded as x^2 alpha + 2xy sqrt(alpha/beta) + y^2 / beta, for precision.
  const bSq1 = mulToward(mulToward(mulToward(x, x), sqrtAlpha), sqrtAlpha);
  const bSq2 = toward(cmul(2n, mulToward(mulToward(x, y), sqrtAlpha)), sqrtBeta);
  const bSq3 = toward(mulToward(y, y), mulAway(sqrtBeta, sqrtBeta));
  const bSquare = add(add(bSq1, bSq2), bSq3);
  const radicand = add(bSquare, mulToward(cmul(4n, mc), a));
  return toward(add(mb, sqrt(radicand, 5n)), cmul(2n, a));
}

/**
 * The offsets a swap prices with, from the invariant rounded down: the token in's rounded up and
 * the token out's down, both against the trader, for either kind.
 */
export function twoClpSwapOffsets(p: TwoClpParams, invariant: bigint, indexIn: number): [bigint, bigint] {
  return indexIn === 0
    ? [divUp(invariant, p.sqrtBeta), mulDown(invariant, p.sqrtAlpha)]
    : [mulUp(invariant, p.sqrtAlpha), divDown(invariant, p.sqrtBeta)];
}

/** onSwap given the offsets of the token in and out (`twoClpSwapOffsets`); the amount is net of the fee. */
export function twoClpSwap(
  exactIn: boolean,
  balanceIn: bigint,
  balanceOut: bigint,
  amountGiven: bigint,
  offsetIn: bigint,
  offsetOut: bigint,
): bigint {
  if (!exactIn && amountGiven > balanceOut) throw new Gyro2ClpAssetBoundsExceeded();
  const virtIn = add(balanceIn, offsetIn);
  const virtOut = add(balanceOut, offsetOut);
  if (!exactIn) return inGivenOutVirtual(virtIn, virtOut, amountGiven);
  const amountOut = outGivenInVirtual(virtIn, virtOut, amountGiven);
  if (amountOut > balanceOut) throw new Gyro2ClpAssetBoundsExceeded();
  return amountOut;
}

/**
 * computeBalance: with L' = L(up) * ratio (up) and offsets a' = L'/sqrt(beta), b' = L' sqrt(alpha)
 * rounded down, the balance that puts the pool on (x + a')(y + b') = L'^2 with the other balance
 * held, L'^2 over the other virtual reserve rounded up: every step makes the balance larger.
 */
export function twoClpComputeBalance(
  p: TwoClpParams,
  balances: readonly bigint[],
  tokenIndex: number,
  invariantRatio: bigint,
): bigint {
  const invariant = mulUp(twoClpInvariant(p, balances, 'up'), invariantRatio);
  const square = cmul(invariant, invariant);
  const a = divDown(invariant, p.sqrtBeta);
  const b = mulDown(invariant, p.sqrtAlpha);
  return tokenIndex === 0
    ? csub(divUpRaw(square, add(b, balances[1]!)), a)
    : csub(divUpRaw(square, add(a, balances[0]!)), b);
}
