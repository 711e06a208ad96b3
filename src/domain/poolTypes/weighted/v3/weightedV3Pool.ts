import type { PoolSwapParams, Rounding, V3PoolMath } from '../../../protocols/v3/poolMath';
import { v3Revert } from '../../../protocols/v3/vault/errors';
import type { V3PoolState } from '../../../protocols/v3/vault/poolState';
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

/**
 * A V3 WeightedPool: the Vault's state plus normalized weights (18 decimals, summing to 1e18).
 *
 * Two builds are deployed. The launch pools (factory task 20241205-v3-weighted-pool, what every
 * chain has served since December 2024) price on the balances as given. The rebuilt pool of the
 * npm 1.0.0 sources (2026) also keeps a minimum balance per token (`getMinTokenBalances`), prices
 * a swap on the balance in plus 1 wei and, for a single-token remove, rounds the exponent 1/weight
 * down where the launch pools round it up; `minTokenBalances` is set for those pools only.
 */
export interface WeightedV3State extends V3PoolState {
  readonly weights: readonly bigint[];
  readonly minTokenBalances?: readonly bigint[];
}

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
