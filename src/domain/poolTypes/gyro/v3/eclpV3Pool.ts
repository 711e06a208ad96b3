import type { PoolSwapParams, Rounding, V3PoolMath } from '../../../protocols/v3/poolMath';
import { prepareEclp, type EclpCurve } from '../gyroEMath';
import {
  ECLP_MAX_INVARIANT_RATIO,
  ECLP_MIN_INVARIANT_RATIO,
  eclpComputeBalance,
  eclpInvariant,
  eclpSwap,
  eclpSwapCurve,
} from './eclpV3Math';
import type { GyroEclpV3State } from './eclpV3State';

/**
 * The V3 E-CLP's `IBasePool` calls. The parameter-only terms of the curve are computed once per
 * pool (`prepareEclp`), the invariant-only ones once per balances (a route search prices many
 * amounts on the same balances); the swap's asset bounds are the curve's, so no swap ratio cap is
 * declared.
 */
export function gyroEclpV3Math(state: GyroEclpV3State): V3PoolMath {
  const eclp = prepareEclp(state.eclpParams, state.eclpDerived);
  let last: { readonly b0: bigint; readonly b1: bigint; readonly curve: EclpCurve } | undefined;
  const curveOf = (balances: readonly bigint[]): EclpCurve => {
    if (last === undefined || last.b0 !== balances[0] || last.b1 !== balances[1]) {
      last = { b0: balances[0]!, b1: balances[1]!, curve: eclpSwapCurve(eclp, balances) };
    }
    return last.curve;
  };
  return {
    minimumInvariantRatio: ECLP_MIN_INVARIANT_RATIO,
    maximumInvariantRatio: ECLP_MAX_INVARIANT_RATIO,
    onSwap: (p: PoolSwapParams): bigint =>
      eclpSwap(
        eclp,
        curveOf(p.balancesScaled18),
        p.balancesScaled18,
        p.kind === 'exactIn',
        p.indexIn,
        p.amountGivenScaled18,
      ),
    computeInvariant: (balances: readonly bigint[], rounding: Rounding): bigint =>
      eclpInvariant(eclp, balances, rounding),
    computeBalance: (balances: readonly bigint[], tokenIndex: number, invariantRatio: bigint): bigint =>
      eclpComputeBalance(eclp, balances, tokenIndex, invariantRatio),
  };
}
