import type { PoolSwapParams, Rounding, V3PoolMath } from '../../../protocols/v3/poolMath';
import { prepareEclp } from '../../../swap/math/gyroEMath';
import {
  ECLP_MAX_INVARIANT_RATIO,
  ECLP_MIN_INVARIANT_RATIO,
  eclpComputeBalance,
  eclpInvariant,
  eclpSwap,
} from './eclpMath';
import type { GyroEclpV3State } from './eclpState';

/**
 * The V3 E-CLP's `IBasePool` calls. The parameter-only terms of the curve are computed once per
 * pool (`prepareEclp`); the swap's asset bounds are the curve's, so no swap ratio cap is declared.
 */
export function gyroEclpV3Math(state: GyroEclpV3State): V3PoolMath {
  const eclp = prepareEclp(state.eclpParams, state.eclpDerived);
  return {
    minimumInvariantRatio: ECLP_MIN_INVARIANT_RATIO,
    maximumInvariantRatio: ECLP_MAX_INVARIANT_RATIO,
    onSwap: (p: PoolSwapParams): bigint =>
      eclpSwap(eclp, p.balancesScaled18, p.kind === 'exactIn', p.indexIn, p.amountGivenScaled18),
    computeInvariant: (balances: readonly bigint[], rounding: Rounding): bigint =>
      eclpInvariant(eclp, balances, rounding),
    computeBalance: (balances: readonly bigint[], tokenIndex: number, invariantRatio: bigint): bigint =>
      eclpComputeBalance(eclp, balances, tokenIndex, invariantRatio),
  };
}
