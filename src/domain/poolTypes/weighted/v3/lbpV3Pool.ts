import { Revert } from '../../../swap/math/revert';
import type { PoolSwapParams, Rounding, V3PoolMath } from '../../../protocols/v3/poolMath';
import { ensureSwapAllowed } from './lbpV3Sale';
import type { LbpState } from './lbpV3State';
import { lbpWeights } from './lbpV3Weights';
import { weightedV3Math } from './weightedV3Pool';

export class InsufficientRealReserveBalance extends Revert {
  override readonly name = 'InsufficientRealReserveBalance';
  constructor() {
    super('a seedless LBP cannot pay out more reserve than it holds (InsufficientRealReserveBalance)', {
      code: 'InsufficientRealReserveBalance',
    });
  }
}

export class UnsupportedOperation extends Revert {
  override readonly name = 'UnsupportedOperation';
  constructor(what: string) {
    super(`${what} is not supported by this pool (UnsupportedOperation)`, { code: 'UnsupportedOperation' });
  }
}

/**
 * LBPool's math at one block's timestamp: the V3 weighted pool's (of the pool's build) at the
 * weights of that second (`lbpV3Weights.ts`), inside the sale's rules (`lbpV3Sale.ts`). A seedless
 * pool prices with its virtual reserve added to the reserve balance and may not pay out more
 * reserve than it really holds. `computeBalance` reverts, so single-token adds and removes fail;
 * proportional removes (after the sale) need only the Vault.
 */
export function lbpMath(state: LbpState, timestamp: bigint): V3PoolMath {
  const weighted = weightedV3Math({ ...state, weights: lbpWeights(state, timestamp) });
  const virtual = state.reserveTokenVirtualBalanceScaled18 ?? 0n;
  const reserve = state.reserveTokenIndex;
  const priced = (balances: readonly bigint[]): readonly bigint[] =>
    virtual === 0n ? balances : balances.map((b, k) => (k === reserve ? b + virtual : b));
  return {
    minimumInvariantRatio: weighted.minimumInvariantRatio,
    maximumInvariantRatio: weighted.maximumInvariantRatio,
    ...(weighted.maxSwapRatio === undefined ? {} : { maxSwapRatio: weighted.maxSwapRatio }),
    onSwap(p: PoolSwapParams): bigint {
      ensureSwapAllowed(state, timestamp, p.indexIn, state.isProjectTokenSwapInBlocked);
      const calculated = weighted.onSwap({ ...p, balancesScaled18: priced(p.balancesScaled18) });
      if (virtual > 0n && p.indexOut === reserve) {
        const checked =
          p.kind === 'exactIn' || state.checksCalculatedAmountAgainstReserve === true
            ? calculated
            : p.amountGivenScaled18;
        if (checked > p.balancesScaled18[reserve]!) throw new InsufficientRealReserveBalance();
      }
      return calculated;
    },
    computeInvariant(balances: readonly bigint[], rounding: Rounding): bigint {
      return weighted.computeInvariant(priced(balances), rounding);
    },
    computeBalance(): bigint {
      throw new UnsupportedOperation('computeBalance');
    },
  };
}
