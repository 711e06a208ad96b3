import { complement, divDown, divUp, mulDown, mulUp } from '../../../swap/math/fixedPoint';
import { csub, mulDivUp } from '../fixedPointV3';
import type { V3PoolMath } from '../poolMath';
import { v3Revert } from './errors';

/**
 * The V3 Vault's BasePoolMath: liquidity operations of any pool type, through the type's
 * `computeInvariant` and `computeBalance`, on live scaled18 balances. Each returns the swap fee
 * it charged per token (scaled18): the part of a non-proportional operation that is a swap pays
 * the pool's static swap fee.
 */

export interface LiquidityResult {
  /** BPT out (add) or in (remove), or the single token's amount in or out (scaled18). */
  readonly amount: bigint;
  readonly swapFeeAmountsScaled18: readonly bigint[];
}

/** balance * bptOut / supply, rounded up. */
export const computeProportionalAmountsIn = (
  balances: readonly bigint[],
  totalSupply: bigint,
  bptAmountOut: bigint,
): bigint[] => balances.map((b) => mulDivUp(b, bptAmountOut, totalSupply));

/** balance * bptIn / supply, rounded down. */
export const computeProportionalAmountsOut = (
  balances: readonly bigint[],
  totalSupply: bigint,
  bptAmountIn: bigint,
): bigint[] => balances.map((b) => (b * bptAmountIn) / totalSupply);

function ensureBelowMaximum(pool: V3PoolMath, invariantRatio: bigint): void {
  if (invariantRatio > pool.maximumInvariantRatio) {
    throw v3Revert('InvariantRatioAboveMax', `invariant ratio ${invariantRatio} above ${pool.maximumInvariantRatio}`);
  }
}

function ensureAboveMinimum(pool: V3PoolMath, invariantRatio: bigint): void {
  if (invariantRatio < pool.minimumInvariantRatio) {
    throw v3Revert('InvariantRatioBelowMin', `invariant ratio ${invariantRatio} below ${pool.minimumInvariantRatio}`);
  }
}

/** BPT out for exact amounts in: the invariant's growth with the fee charged on the non-proportional part. */
export function computeAddLiquidityUnbalanced(
  balances: readonly bigint[],
  exactAmounts: readonly bigint[],
  totalSupply: bigint,
  swapFee: bigint,
  pool: V3PoolMath,
): LiquidityResult {
  // The Vault loaded the balances rounded up; the new balances undo that wei.
  const newBalances = balances.map((b, i) => csub(b + exactAmounts[i]!, 1n));
  const swapFeeAmounts = balances.map(() => 0n);
  const currentInvariant = pool.computeInvariant(balances, 'up');
  const invariantRatio = divDown(pool.computeInvariant(newBalances, 'down'), currentInvariant);
  ensureBelowMaximum(pool, invariantRatio);
  for (let i = 0; i < balances.length; i++) {
    const proportional = mulDown(invariantRatio, balances[i]!);
    if (newBalances[i]! > proportional) {
      swapFeeAmounts[i] = mulUp(newBalances[i]! - proportional, swapFee);
      newBalances[i] = csub(newBalances[i]!, swapFeeAmounts[i]!);
    }
  }
  const invariantWithFees = pool.computeInvariant(newBalances, 'down');
  const amount = (totalSupply * csub(invariantWithFees, currentInvariant)) / currentInvariant;
  return { amount, swapFeeAmountsScaled18: swapFeeAmounts };
}

/** The one token's amount in (fee included) for exact BPT out. */
export function computeAddLiquiditySingleTokenExactOut(
  balances: readonly bigint[],
  tokenIndex: number,
  exactBptAmountOut: bigint,
  totalSupply: bigint,
  swapFee: bigint,
  pool: V3PoolMath,
): LiquidityResult {
  const newSupply = exactBptAmountOut + totalSupply;
  const invariantRatio = divUp(newSupply, totalSupply);
  ensureBelowMaximum(pool, invariantRatio);
  const balance = balances[tokenIndex]!;
  const newBalance = pool.computeBalance(balances, tokenIndex, invariantRatio);
  const amountIn = csub(newBalance, balance);
  const nonTaxableBalance = (newSupply * balance) / totalSupply;
  const taxableAmount = csub(newBalance, nonTaxableBalance);
  const fee = csub(divUp(taxableAmount, complement(swapFee)), taxableAmount);
  return { amount: amountIn + fee, swapFeeAmountsScaled18: balances.map((_, i) => (i === tokenIndex ? fee : 0n)) };
}

/** BPT in for an exact amount of one token out. */
export function computeRemoveLiquiditySingleTokenExactOut(
  balances: readonly bigint[],
  tokenIndex: number,
  exactAmountOut: bigint,
  totalSupply: bigint,
  swapFee: bigint,
  pool: V3PoolMath,
): LiquidityResult {
  const newBalances = balances.map((b) => csub(b, 1n));
  newBalances[tokenIndex] = csub(newBalances[tokenIndex]!, exactAmountOut);
  const currentInvariant = pool.computeInvariant(balances, 'up');
  const invariantRatio = divUp(pool.computeInvariant(newBalances, 'up'), currentInvariant);
  ensureAboveMinimum(pool, invariantRatio);
  const taxableAmount = csub(mulUp(invariantRatio, balances[tokenIndex]!), newBalances[tokenIndex]!);
  const fee = csub(divUp(taxableAmount, complement(swapFee)), taxableAmount);
  newBalances[tokenIndex] = csub(newBalances[tokenIndex]!, fee);
  const invariantWithFees = pool.computeInvariant(newBalances, 'down');
  return {
    amount: mulDivUp(totalSupply, csub(currentInvariant, invariantWithFees), currentInvariant),
    swapFeeAmountsScaled18: balances.map((_, i) => (i === tokenIndex ? fee : 0n)),
  };
}

/** The one token's amount out (fee taken) for exact BPT in. */
export function computeRemoveLiquiditySingleTokenExactIn(
  balances: readonly bigint[],
  tokenIndex: number,
  exactBptAmountIn: bigint,
  totalSupply: bigint,
  swapFee: bigint,
  pool: V3PoolMath,
): LiquidityResult {
  const newSupply = csub(totalSupply, exactBptAmountIn);
  const invariantRatio = divUp(newSupply, totalSupply);
  ensureAboveMinimum(pool, invariantRatio);
  const balance = balances[tokenIndex]!;
  const newBalance = pool.computeBalance(balances, tokenIndex, invariantRatio);
  const amountOut = csub(balance, newBalance);
  const newBalanceBeforeTax = mulDivUp(newSupply, balance, totalSupply);
  const fee = mulUp(csub(newBalanceBeforeTax, newBalance), swapFee);
  return {
    amount: csub(amountOut, fee),
    swapFeeAmountsScaled18: balances.map((_, i) => (i === tokenIndex ? fee : 0n)),
  };
}
