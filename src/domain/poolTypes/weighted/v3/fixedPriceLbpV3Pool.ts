import { divDown, mulDown, mulUp } from '../../../swap/math/fixedPoint';
import type { PoolSwapParams, Rounding, V3PoolMath } from '../../../protocols/v3/poolMath';
import { ensureSwapAllowed } from './lbpV3Sale';
import { UnsupportedOperation } from './lbpV3Pool';
import type { FixedPriceLbpState } from './lbpV3State';

/** No bound on an unbalanced operation's invariant ratio (the pool's hooks refuse them anyway). */
const UINT256_MAX = 2n ** 256n - 1n;

/**
 * FixedPriceLBPool's math at one block's timestamp: reserve in, project out at a constant rate
 * (reserve per project token) while the sale is open. Exact in divides the reserve amount by the
 * rate rounding down; exact out multiplies the project amount by the rate rounding up. The
 * invariant is the pool's value in reserve tokens. The pool has no cap of its own: what it cannot
 * pay out the Vault refuses.
 */
export function fixedPriceLbpMath(state: FixedPriceLbpState, timestamp: bigint): V3PoolMath {
  const rate = state.projectTokenRate;
  return {
    minimumInvariantRatio: 0n,
    maximumInvariantRatio: UINT256_MAX,
    onSwap(p: PoolSwapParams): bigint {
      ensureSwapAllowed(state, timestamp, p.indexIn, true);
      return p.kind === 'exactIn' ? divDown(p.amountGivenScaled18, rate) : mulUp(p.amountGivenScaled18, rate);
    },
    computeInvariant(balances: readonly bigint[], rounding: Rounding): bigint {
      const project = balances[state.projectTokenIndex]!;
      const value = rounding === 'up' ? mulUp(project, rate) : mulDown(project, rate);
      return value + balances[state.reserveTokenIndex]!;
    },
    computeBalance(): bigint {
      throw new UnsupportedOperation('computeBalance');
    },
  };
}
