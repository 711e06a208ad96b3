import type { PoolSwapParams, Rounding, V3PoolMath } from '../../protocols/v3/poolMath';
import { Revert } from '../../swap/math/revert';
import { reClammInGivenOut, reClammInvariant, reClammOutGivenIn } from './reClammMath';
import type { ReClammState } from './reClammState';
import { currentVirtualBalances } from './reClammVirtualBalances';

/**
 * The pool registers with unbalanced liquidity disabled, so the Vault never calls computeBalance;
 * the contract answers `NotImplemented()` if asked.
 */
export class ReClammComputeBalanceUnsupported extends Revert {
  override readonly name = 'ReClammComputeBalanceUnsupported';
  constructor() {
    super('ReClamm pools take proportional adds and removes only (NotImplemented)', { code: 'NotImplemented' });
  }
}

/**
 * A ReClamm pool's `IBasePool` calls in a block with timestamp `timestamp` (unix seconds): each call
 * first moves the virtual balances to that time from the balances it is given, as the pool's own
 * onSwap and computeInvariant do (reClammVirtualBalances.ts). The invariant ratio bounds are the
 * contract's zeros: only proportional liquidity, which does not read them.
 */
export function reClammV3Math(state: ReClammState, timestamp: bigint): V3PoolMath {
  return {
    minimumInvariantRatio: 0n,
    maximumInvariantRatio: 0n,
    onSwap(p: PoolSwapParams): bigint {
      const { virtualA, virtualB } = currentVirtualBalances(state, p.balancesScaled18, timestamp);
      return p.kind === 'exactIn'
        ? reClammOutGivenIn(p.balancesScaled18, virtualA, virtualB, p.indexIn, p.indexOut, p.amountGivenScaled18)
        : reClammInGivenOut(p.balancesScaled18, virtualA, virtualB, p.indexIn, p.indexOut, p.amountGivenScaled18);
    },
    computeInvariant(balances: readonly bigint[], rounding: Rounding): bigint {
      const { virtualA, virtualB } = currentVirtualBalances(state, balances, timestamp);
      return reClammInvariant(balances, virtualA, virtualB, rounding);
    },
    computeBalance(): bigint {
      throw new ReClammComputeBalanceUnsupported();
    },
  };
}
