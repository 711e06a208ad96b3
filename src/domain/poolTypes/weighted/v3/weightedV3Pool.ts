import type { PoolSwapParams, Rounding, V3PoolMath } from '../../../protocols/v3/poolMath';
import { v3Revert } from '../../../protocols/v3/vault/errors';
import {
  computeBalanceOutGivenInvariant,
  computeInGivenExactOut,
  computeInvariantDown,
  computeInvariantUp,
  computeOutGivenExactIn,
  MAX_IN_RATIO,
  MAX_INVARIANT_RATIO,
  MAX_OUT_RATIO,
  MIN_INVARIANT_RATIO,
} from './weightedV3Math';
import type { WeightedV3State } from './weightedV3State';

export function weightedV3Math(pool: WeightedV3State): V3PoolMath {
  const { weights, minTokenBalances } = pool;
  // The launch build's solidity-utils rounds 1/weight up for removes too; the 2026 build down.
  const exponentRounding = minTokenBalances === undefined ? 'alwaysUp' : 'byDirection';
  const ensureMinimum = (index: number, balance: bigint): void => {
    if (minTokenBalances !== undefined && balance < minTokenBalances[index]!) {
      throw v3Revert('TokenBalanceBelowMin', `token ${index} balance ${balance} below its minimum`);
    }
  };
  return {
    minimumInvariantRatio: MIN_INVARIANT_RATIO,
    maximumInvariantRatio: MAX_INVARIANT_RATIO,
    maxSwapRatio: { in: MAX_IN_RATIO, out: MAX_OUT_RATIO },
    onSwap(p: PoolSwapParams): bigint {
      const balanceIn = p.balancesScaled18[p.indexIn]! + (minTokenBalances === undefined ? 0n : 1n);
      const balanceOut = p.balancesScaled18[p.indexOut]!;
      ensureMinimum(p.indexIn, balanceIn);
      const wIn = weights[p.indexIn]!;
      const wOut = weights[p.indexOut]!;
      if (p.kind === 'exactIn') {
        const out = computeOutGivenExactIn(balanceIn, wIn, balanceOut, wOut, p.amountGivenScaled18);
        ensureMinimum(p.indexOut, balanceOut - out);
        return out;
      }
      const amountIn = computeInGivenExactOut(balanceIn, wIn, balanceOut, wOut, p.amountGivenScaled18);
      ensureMinimum(p.indexOut, balanceOut - p.amountGivenScaled18);
      return amountIn;
    },
    computeInvariant(balances: readonly bigint[], rounding: Rounding): bigint {
      balances.forEach((b, i) => ensureMinimum(i, b));
      return rounding === 'up' ? computeInvariantUp(weights, balances) : computeInvariantDown(weights, balances);
    },
    computeBalance(balances: readonly bigint[], tokenIndex: number, invariantRatio: bigint): bigint {
      const original = balances[tokenIndex]!;
      const balance = computeBalanceOutGivenInvariant(original, weights[tokenIndex]!, invariantRatio, exponentRounding);
      // An add is checked on the balance before, a remove on the balance after.
      ensureMinimum(tokenIndex, original <= balance ? original : balance);
      return balance;
    },
  };
}
