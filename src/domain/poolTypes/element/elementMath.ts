import { divDown, mulDown, ONE, sub } from '../../swap/math/fixedPoint';
import { pow } from '../../swap/math/logExpMath';
import { Revert } from '../../swap/math/revert';

/**
 * Element's ConvergentCurvePool arithmetic (element-fi/elf-contracts, contracts/ConvergentCurvePool.sol;
 * the same in every deployed version), in 18-decimal fixed point. The curve is x^a + y^a = k with
 * a = 1 - t, t the fraction of `unitSeconds` left until expiry; the principal token's reserve
 * counts the pool's LP supply on top of its balance. The fee is a share of the trade's implied
 * yield, and the contract reverts (underflow) where that yield would be negative, i.e. where the
 * principal token would cost more than one base token. Throws `Revert` where
 * the contract reverts.
 */

/** _getYieldExponent: 1 - timeTillExpiry / unitSeconds. Throws where the contract reverts. */
export function yieldExponent(expiration: bigint, unitSeconds: bigint, timestamp: bigint): bigint {
  const timeTillExpiry = timestamp < expiration ? expiration - timestamp : 0n;
  const t = divDown(timeTillExpiry * ONE, unitSeconds * ONE);
  const a = sub(ONE, t);
  if (a === 0n) throw new Revert('yield exponent is zero');
  return a;
}

/**
 * solveTradeInvariant: with `out` the amount of Y the pool pays for `amountX` of X received; else
 * the amount of Y the pool must receive to pay `amountX` of X.
 */
export function solveTradeInvariant(
  a: bigint,
  amountX: bigint,
  reserveX: bigint,
  reserveY: bigint,
  out: boolean,
): bigint {
  const xBefore = pow(reserveX, a);
  const yBefore = pow(reserveY, a);
  const xAfter = out ? pow(reserveX + amountX, a) : pow(sub(reserveX, amountX), a);
  const yAfter = pow(sub(xBefore + yBefore, xAfter), divDown(ONE, a));
  return out ? sub(reserveY, yAfter) : sub(yAfter, reserveY);
}

/**
 * _assignTradeFee. `inputTrade`: the quote is the amount in (given out), the fee is added to it;
 * otherwise the quote is the amount out (given in) and the fee comes off it.
 */
export function assignTradeFee(
  percentFee: bigint,
  amountIn: bigint,
  amountOut: bigint,
  outIsBond: boolean,
  inputTrade: boolean,
): bigint {
  const impliedYield = outIsBond ? sub(amountOut, amountIn) : sub(amountIn, amountOut);
  const fee = mulDown(percentFee, impliedYield);
  return inputTrade ? amountIn + fee : sub(amountOut, fee);
}
