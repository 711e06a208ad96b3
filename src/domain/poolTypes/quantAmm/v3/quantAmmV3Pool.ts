import { mulDown } from '../../../swap/math/fixedPoint';
import { Revert } from '../../../swap/math/revert';
import type { PoolSwapParams, Rounding, V3PoolMath } from '../../../protocols/v3/poolMath';
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
} from '../../weighted/v3/weightedV3Math';
import { quantAmmWeights } from './quantAmmV3Weights';
import type { QuantAmmState } from './quantAmmV3State';

export class MaxTradeSizeRatioExceeded extends Revert {
  override readonly name = 'MaxTradeSizeRatioExceeded';
  constructor(side: 'in' | 'out') {
    super(`amount ${side} above the pool's max trade size ratio (maxTradeSizeRatioExceeded)`, {
      code: 'maxTradeSizeRatioExceeded',
    });
  }
}

/**
 * QuantAMMWeightedPool's math at one block's timestamp: V3 weighted math at the interpolated
 * weights (`quantAmmV3Weights.ts`), with the pool's own trade size cap on both sides of a swap,
 * checked before and after the weighted formula as the contract does. Single-token adds and
 * removes go through `computeBalance`, which has no cap. The pools were built from solidity-utils
 * of before November 2025, whose `computeBalance` rounds the exponent 1/weight up for a remove too.
 */
export function quantAmmMath(state: QuantAmmState, timestamp: bigint): V3PoolMath {
  const weights = quantAmmWeights(state, state.tokens.length, timestamp);
  const cap = state.maxTradeSizeRatio;
  const ensureWithinCap = (amount: bigint, balance: bigint, side: 'in' | 'out'): void => {
    if (amount > mulDown(balance, cap)) throw new MaxTradeSizeRatioExceeded(side);
  };
  return {
    minimumInvariantRatio: MIN_INVARIANT_RATIO,
    maximumInvariantRatio: MAX_INVARIANT_RATIO,
    maxSwapRatio: { in: min(MAX_IN_RATIO, cap), out: min(MAX_OUT_RATIO, cap) },
    onSwap(p: PoolSwapParams): bigint {
      const balanceIn = p.balancesScaled18[p.indexIn]!;
      const balanceOut = p.balancesScaled18[p.indexOut]!;
      const wIn = weights[p.indexIn]!;
      const wOut = weights[p.indexOut]!;
      if (p.kind === 'exactIn') {
        ensureWithinCap(p.amountGivenScaled18, balanceIn, 'in');
        const out = computeOutGivenExactIn(balanceIn, wIn, balanceOut, wOut, p.amountGivenScaled18);
        ensureWithinCap(out, balanceOut, 'out');
        return out;
      }
      ensureWithinCap(p.amountGivenScaled18, balanceOut, 'out');
      const amountIn = computeInGivenExactOut(balanceIn, wIn, balanceOut, wOut, p.amountGivenScaled18);
      ensureWithinCap(amountIn, balanceIn, 'in');
      return amountIn;
    },
    computeInvariant(balances: readonly bigint[], rounding: Rounding): bigint {
      return rounding === 'up' ? computeInvariantUp(weights, balances) : computeInvariantDown(weights, balances);
    },
    computeBalance(balances: readonly bigint[], tokenIndex: number, invariantRatio: bigint): bigint {
      return computeBalanceOutGivenInvariant(balances[tokenIndex]!, weights[tokenIndex]!, invariantRatio, 'alwaysUp');
    },
  };
}

const min = (a: bigint, b: bigint): bigint => (a < b ? a : b);
