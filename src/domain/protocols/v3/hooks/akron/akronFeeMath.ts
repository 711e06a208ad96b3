import { divUp, ONE, powUp } from '../../../../swap/math/fixedPoint';
import { mulDivUp } from '../../fixedPointV3';

/**
 * AkronWeightedMath: the swap fee percentage equal to the swap's expected loss-versus-rebalancing
 * on a weighted pool, rounded up throughout. `exponent` is weightIn / weightOut rounded down (exact
 * in) or weightOut / weightIn rounded up (exact out).
 */
export function akronFeeGivenExactIn(balanceIn: bigint, exponent: bigint, amountIn: bigint): bigint {
  const powerWithFees = powUp(divUp(balanceIn + amountIn, balanceIn + amountIn * 2n), exponent, true);
  const powerWithoutFees = powUp(divUp(balanceIn, balanceIn + amountIn), exponent, true);
  return mulDivUp(exponent, mulDivUp(balanceIn + amountIn, powerWithFees - powerWithoutFees, powerWithFees), amountIn);
}

export function akronFeeGivenExactOut(balanceOut: bigint, exponent: bigint, amountOut: bigint): bigint {
  const powerWithFees = powUp(divUp(balanceOut - amountOut, balanceOut - amountOut * 2n), exponent, true);
  const powerWithoutFees = powUp(divUp(balanceOut, balanceOut - amountOut), exponent, true);
  return divUp(powerWithFees - powerWithoutFees, powerWithFees - ONE);
}
