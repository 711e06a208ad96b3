import type { PoolSwapParams, Rounding, V3PoolMath } from '../../../protocols/v3/poolMath';
import { Revert } from '../../../swap/math/revert';
import { reClammInGivenOut, reClammInvariant, reClammOutGivenIn } from './reClammV3Math';
import type { ReClammState } from './reClammV3State';
import { currentVirtualBalances, type CurrentVirtualBalances } from './reClammV3VirtualBalances';

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
 * onSwap and computeInvariant do (reClammV3VirtualBalances.ts). The invariant ratio bounds are the
 * contract's zeros: only proportional liquidity, which does not read them. The moved virtual
 * balances are kept for the last balances seen (a route search prices many amounts on the same).
 */
export function reClammV3Math(state: ReClammState, timestamp: bigint): V3PoolMath {
  let last: { readonly a: bigint; readonly b: bigint; readonly virtual: CurrentVirtualBalances } | undefined;
  const virtualOf = (balances: readonly bigint[]): CurrentVirtualBalances => {
    if (last === undefined || last.a !== balances[0] || last.b !== balances[1]) {
      last = { a: balances[0]!, b: balances[1]!, virtual: currentVirtualBalances(state, balances, timestamp) };
    }
    return last.virtual;
  };
  return {
    minimumInvariantRatio: 0n,
    maximumInvariantRatio: 0n,
    onSwap(p: PoolSwapParams): bigint {
      const { virtualA, virtualB } = virtualOf(p.balancesScaled18);
      return p.kind === 'exactIn'
        ? reClammOutGivenIn(p.balancesScaled18, virtualA, virtualB, p.indexIn, p.indexOut, p.amountGivenScaled18)
        : reClammInGivenOut(p.balancesScaled18, virtualA, virtualB, p.indexIn, p.indexOut, p.amountGivenScaled18);
    },
    computeInvariant(balances: readonly bigint[], rounding: Rounding): bigint {
      const { virtualA, virtualB } = virtualOf(balances);
      return reClammInvariant(balances, virtualA, virtualB, rounding);
    },
    computeBalance(): bigint {
      throw new ReClammComputeBalanceUnsupported();
    },
  };
}
