import { mulUp } from '../../../swap/math/fixedPoint';
import {
  balanceGivenOther,
  calcInGivenOut,
  calcOutGivenIn,
  calculateInvariantWithError,
  eclpCurve,
  eclpCurveAt,
  MAX_INVARIANT,
  type EclpCurve,
  type EclpPool,
} from '../gyroEMath';
import { toUint256 } from '../gyroSignedFixedPoint';
import { Revert } from '../../../swap/math/revert';

/**
 * What the V3 E-CLP pool (GyroECLPPool.sol) adds around the E-CLP curve, which is the same library
 * arithmetic as the V2 pools' (`gyro/gyroEMath.ts`, shared): the invariant the Vault asks for with
 * a rounding direction, and computeBalance for single-token adds and removes. Balances are live
 * scaled18, token 0 is x.
 */

/** `GyroECLPMath.MIN_INVARIANT_RATIO` / `MAX_INVARIANT_RATIO`: 60% and 500%. */
export const ECLP_MIN_INVARIANT_RATIO = 60n * 10n ** 16n;
export const ECLP_MAX_INVARIANT_RATIO = 500n * 10n ** 16n;

/** `MaxInvariantExceeded()`: an add would take the invariant past the library's anti-overflow bound. */
export class EclpMaxInvariantExceeded extends Revert {
  override readonly name = 'EclpMaxInvariantExceeded';
  constructor() {
    super('E-CLP invariant above its maximum (MaxInvariantExceeded)', { code: 'MaxInvariantExceeded' });
  }
}

const pair = (balances: readonly bigint[]): readonly [bigint, bigint] => [balances[0]!, balances[1]!];

/** computeInvariant: the underestimate less its error bound (down) or plus it (up). */
export function eclpInvariant(e: EclpPool, balances: readonly bigint[], rounding: 'up' | 'down'): bigint {
  const [invariant, err] = calculateInvariantWithError(e, balances[0]!, balances[1]!);
  return toUint256(rounding === 'down' ? invariant - err : invariant + err);
}

/** The curve a swap prices against, (L + 2 err, L) from the balances, as in V2. */
export function eclpSwapCurve(e: EclpPool, balances: readonly bigint[]): EclpCurve {
  const [invariant, err] = calculateInvariantWithError(e, balances[0]!, balances[1]!);
  return eclpCurve(e, invariant, err);
}

/**
 * onSwap on the curve of `balances` (eclpSwapCurve): the amount given is already net of the swap
 * fee (the Vault takes it), so this is the bare curve.
 */
export function eclpSwap(
  e: EclpPool,
  curve: EclpCurve,
  balances: readonly bigint[],
  exactIn: boolean,
  indexIn: number,
  amountGiven: bigint,
): bigint {
  return exactIn
    ? calcOutGivenIn(e, curve, pair(balances), amountGiven, indexIn === 0)
    : calcInGivenOut(e, curve, pair(balances), amountGiven, indexIn === 0);
}

/**
 * computeBalance: the balance of `tokenIndex` at `invariantRatio` times today's invariant, the other
 * balance held. The contract scales both bounds (L + err, L - err) by the ratio, rounding up, and
 * solves the curve without the swaps' asset bound check.
 */
export function eclpComputeBalance(
  e: EclpPool,
  balances: readonly bigint[],
  tokenIndex: number,
  invariantRatio: bigint,
): bigint {
  const [invariant, err] = calculateInvariantWithError(e, balances[0]!, balances[1]!);
  const r = {
    x: mulUp(toUint256(invariant + err), invariantRatio),
    y: mulUp(toUint256(invariant - err), invariantRatio),
  };
  if (r.x > MAX_INVARIANT) throw new EclpMaxInvariantExceeded();
  const givenIndex = tokenIndex === 0 ? 1 : 0;
  return toUint256(balanceGivenOther(e, eclpCurveAt(e, r), givenIndex, balances[givenIndex]!));
}
