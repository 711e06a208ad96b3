import { divDown } from '../../../../swap/math/fixedPoint';
import { Revert } from '../../../../swap/math/revert';
import type { PoolSwapParams } from '../../poolMath';
import type { V3PoolState } from '../../vault/poolState';
import type { V3Hook } from '../hook';

/**
 * DirectionalFeeHookExample (stable pools): a swap that leaves the two tokens' balances further
 * apart pays (balance in after - balance out after) / their sum, if that is above the static fee.
 * Both balances move by the amount given, whichever the swap kind. The hook reads the pool's last
 * stored live balances from the Vault (`getPoolTokenInfo`), which are the state's
 * `yieldFee.lastLiveBalances` where the state carries them and otherwise the balances the swap
 * sees (equal unless a rate moved since the pool's last operation).
 */
export function directionalFeeHook(): V3Hook {
  return {
    enableHookAdjustedAmounts: false,
    computeDynamicSwapFee(swap: PoolSwapParams, pool: V3PoolState, staticSwapFee: bigint): bigint {
      const balances = pool.yieldFee?.lastLiveBalances ?? swap.balancesScaled18;
      const fee = directionalFee(balances, swap.amountGivenScaled18, swap.indexIn, swap.indexOut);
      return fee > staticSwapFee ? fee : staticSwapFee;
    },
  };
}

export function directionalFee(balances: readonly bigint[], amount: bigint, indexIn: number, indexOut: number): bigint {
  const finalIn = balances[indexIn]! + amount;
  const finalOut = balances[indexOut]! - amount;
  if (finalOut < 0n) throw new Revert('directional fee: amount above the balance out (checked arithmetic)');
  return finalIn > finalOut ? divDown(finalIn - finalOut, finalIn + finalOut) : 0n;
}
