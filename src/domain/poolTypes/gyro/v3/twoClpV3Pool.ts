import type { PoolSwapParams, Rounding, V3PoolMath } from '../../../protocols/v3/poolMath';
import {
  checkTwoClpParams,
  TWO_CLP_MAX_INVARIANT_RATIO,
  TWO_CLP_MIN_INVARIANT_RATIO,
  twoClpComputeBalance,
  twoClpInvariant,
  twoClpSwap,
  twoClpSwapOffsets,
  type TwoClpParams,
} from './twoClpV3Math';
import type { Gyro2ClpV3State } from './twoClpV3State';

/**
 * The V3 2-CLP's `IBasePool` calls. Every swap recomputes the invariant from the balances (a
 * square root), so the last balances' invariant is kept: a route search prices many amounts on the
 * same balances. No swap ratio cap: past the price range the curve itself refuses.
 */
export function gyro2ClpV3Math(state: Gyro2ClpV3State): V3PoolMath {
  const params: TwoClpParams = { sqrtAlpha: state.sqrtAlpha, sqrtBeta: state.sqrtBeta };
  checkTwoClpParams(params);
  let last: { readonly b0: bigint; readonly b1: bigint; readonly invariant: bigint } | undefined;
  const swapInvariant = (balances: readonly bigint[]): bigint => {
    if (last === undefined || last.b0 !== balances[0] || last.b1 !== balances[1]) {
      last = { b0: balances[0]!, b1: balances[1]!, invariant: twoClpInvariant(params, balances, 'down') };
    }
    return last.invariant;
  };
  return {
    minimumInvariantRatio: TWO_CLP_MIN_INVARIANT_RATIO,
    maximumInvariantRatio: TWO_CLP_MAX_INVARIANT_RATIO,
    onSwap: (p: PoolSwapParams): bigint => {
      const [offsetIn, offsetOut] = twoClpSwapOffsets(params, swapInvariant(p.balancesScaled18), p.indexIn);
      return twoClpSwap(
        p.kind === 'exactIn',
        p.balancesScaled18[p.indexIn]!,
        p.balancesScaled18[p.indexOut]!,
        p.amountGivenScaled18,
        offsetIn,
        offsetOut,
      );
    },
    computeInvariant: (balances: readonly bigint[], rounding: Rounding): bigint =>
      twoClpInvariant(params, balances, rounding),
    computeBalance: (balances: readonly bigint[], tokenIndex: number, invariantRatio: bigint): bigint =>
      twoClpComputeBalance(params, balances, tokenIndex, invariantRatio),
  };
}
