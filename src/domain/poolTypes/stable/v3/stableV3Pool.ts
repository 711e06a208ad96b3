import { ampAt, type AmpRamp } from '../stableAmp';
import { mulUp } from '../../../swap/math/fixedPoint';
import type { PoolSwapParams, Rounding, V3PoolMath } from '../../../protocols/v3/poolMath';
import { v3Revert } from '../../../protocols/v3/vault/errors';
import {
  computeInGivenExactOut,
  computeOutGivenExactIn,
  computeStableBalance,
  computeStableInvariant,
  MAX_INVARIANT_RATIO,
  MIN_INVARIANT_RATIO,
} from './stableV3Math';
import type { StableV3State } from './stableV3State';

/** An amp with no ramp (start and end equal). */
export const steadyAmp = (value: bigint): AmpRamp => ({
  startValue: value,
  endValue: value,
  startTime: 0n,
  endTime: 0n,
});

/** The pool as it prices in a block at `timestamp` (the amp ramp evaluated as `_getAmplificationParameter`). */
export function stableV3Math(pool: StableV3State, timestamp: bigint): V3PoolMath {
  const amp = ampAt(pool.amp, timestamp);
  const limit = pool.maxImbalanceRatio;
  const ensureBalanced = (min: bigint, max: bigint): void => {
    if (limit === undefined) return;
    if (min === 0n) throw v3Revert('ZeroDivision', 'a stable balance is zero');
    if (max / min >= limit) throw v3Revert('MaxImbalanceRatioExceeded', `balances ${max} and ${min} too far apart`);
  };
  // The last balances' invariant (a Newton iteration) is kept: a route search prices many amounts on the same balances.
  let last: { readonly balances: readonly bigint[]; readonly invariant: bigint } | undefined;
  const invariantOf = (balances: readonly bigint[], rounding: Rounding): bigint => {
    if (last === undefined || !sameBalances(last.balances, balances)) {
      last = { balances: [...balances], invariant: computeStableInvariant(amp, balances) };
    }
    const invariant = last.invariant;
    return invariant > 0n && rounding === 'up' ? invariant + 1n : invariant;
  };
  return {
    minimumInvariantRatio: MIN_INVARIANT_RATIO,
    maximumInvariantRatio: MAX_INVARIANT_RATIO,
    onSwap(p: PoolSwapParams): bigint {
      let [min, max] = extremes(p.balancesScaled18);
      const invariant = invariantOf(p.balancesScaled18, 'down');
      const { indexIn, indexOut, amountGivenScaled18: given } = p;
      const exactIn = p.kind === 'exactIn';
      const calculated = exactIn
        ? computeOutGivenExactIn(amp, p.balancesScaled18, indexIn, indexOut, given, invariant)
        : computeInGivenExactOut(amp, p.balancesScaled18, indexIn, indexOut, given, invariant);
      const newIn = p.balancesScaled18[indexIn]! + (exactIn ? given : calculated);
      const newOut = p.balancesScaled18[indexOut]! - (exactIn ? calculated : given);
      if (newIn > max) max = newIn;
      if (newOut < min) min = newOut;
      ensureBalanced(min, max);
      return calculated;
    },
    computeInvariant(balances: readonly bigint[], rounding: Rounding): bigint {
      ensureBalanced(...extremes(balances));
      return invariantOf(balances, rounding);
    },
    computeBalance(balances: readonly bigint[], tokenIndex: number, invariantRatio: bigint): bigint {
      let [min, max] = extremes(balances);
      const balance = computeStableBalance(
        amp,
        balances,
        mulUp(invariantOf(balances, 'up'), invariantRatio),
        tokenIndex,
      );
      if (balance < min) min = balance;
      else if (balance > max) max = balance;
      ensureBalanced(min, max);
      return balance;
    },
  };
}

function extremes(balances: readonly bigint[]): [bigint, bigint] {
  let min = balances[0]!;
  let max = min;
  for (const b of balances) {
    if (b < min) min = b;
    if (b > max) max = b;
  }
  return [min, max];
}

function sameBalances(a: readonly bigint[], b: readonly bigint[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}
