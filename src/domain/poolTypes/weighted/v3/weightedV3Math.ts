import { complement, divDown, divUp, mulDown, mulUp, ONE, powDown, powUp } from '../../../swap/math/fixedPoint';
import { v3Revert } from '../../../protocols/v3/vault/errors';

/**
 * The V3 WeightedMath library (solidity-utils), on scaled18 balances. Its FixedPoint pow is V2's
 * with the 1, 2 and 4 exponent shortcuts (`powDown`/`powUp(..., true)` here).
 */

/** A swap may bring in at most 30% of the balance in, or take out 30% of the balance out. */
export const MAX_IN_RATIO = 300_000_000_000_000_000n;
export const MAX_OUT_RATIO = 300_000_000_000_000_000n;
/** Single-token and unbalanced liquidity may move the invariant between 70% and 300%. */
export const MIN_INVARIANT_RATIO = 700_000_000_000_000_000n;
export const MAX_INVARIANT_RATIO = 3_000_000_000_000_000_000n;

export function computeInvariantDown(weights: readonly bigint[], balances: readonly bigint[]): bigint {
  let invariant = ONE;
  for (let i = 0; i < weights.length; i++) invariant = mulDown(invariant, powDown(balances[i]!, weights[i]!, true));
  if (invariant === 0n) throw v3Revert('ZeroInvariant', 'weighted invariant is zero');
  return invariant;
}

export function computeInvariantUp(weights: readonly bigint[], balances: readonly bigint[]): bigint {
  let invariant = ONE;
  for (let i = 0; i < weights.length; i++) invariant = mulUp(invariant, powUp(balances[i]!, weights[i]!, true));
  if (invariant === 0n) throw v3Revert('ZeroInvariant', 'weighted invariant is zero');
  return invariant;
}

/**
 * How `computeBalanceOutGivenInvariant` rounds the exponent 1/weight. solidity-utils before
 * November 2025 tested `invariantRatio > 1` (raw 1, so it always rounded up); later builds round
 * down for a remove (`invariantRatio <= FixedPoint.ONE`).
 */
export type BalanceExponentRounding = 'alwaysUp' | 'byDirection';

/** The balance that scales the invariant by `invariantRatio`: balance * ratio^(1/weight), rounded up. */
export function computeBalanceOutGivenInvariant(
  balance: bigint,
  weight: bigint,
  invariantRatio: bigint,
  exponentRounding: BalanceExponentRounding = 'byDirection',
): bigint {
  const roundUp = exponentRounding === 'alwaysUp' || invariantRatio > ONE;
  const exponent = roundUp ? divUp(ONE, weight) : divDown(ONE, weight);
  return mulUp(balance, powUp(invariantRatio, exponent, true));
}

export function computeOutGivenExactIn(
  balanceIn: bigint,
  weightIn: bigint,
  balanceOut: bigint,
  weightOut: bigint,
  amountIn: bigint,
): bigint {
  if (amountIn > mulDown(balanceIn, MAX_IN_RATIO)) throw v3Revert('MaxInRatio', 'amount in above 30% of the balance');
  const base = divUp(balanceIn, balanceIn + amountIn);
  const power = powUp(base, divDown(weightIn, weightOut), true);
  return mulDown(balanceOut, complement(power));
}

export function computeInGivenExactOut(
  balanceIn: bigint,
  weightIn: bigint,
  balanceOut: bigint,
  weightOut: bigint,
  amountOut: bigint,
): bigint {
  if (amountOut > mulDown(balanceOut, MAX_OUT_RATIO)) {
    throw v3Revert('MaxOutRatio', 'amount out above 30% of the balance');
  }
  const base = divUp(balanceOut, balanceOut - amountOut);
  const power = powUp(base, divUp(weightOut, weightIn), true);
  return mulUp(balanceIn, power - ONE);
}
