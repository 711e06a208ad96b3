import type { ReClammState } from './reClammV3State';
import { currentVirtualBalances } from './reClammV3VirtualBalances';

/**
 * What a ReClamm pool writes when an operation runs in a block with timestamp `now`, so a second
 * operation in the same block (a path through the pool twice, or the head's state between logs)
 * prices as the chain does: on the stored virtual balances, with no time left to move them.
 * `balancesBefore` are the live scaled18 balances the Vault gave the pool for the operation.
 */

/** onSwap: the moved virtual balances where they moved, and the timestamp in every case. */
export function reClammStateAfterSwap(
  state: ReClammState,
  balancesBefore: readonly bigint[],
  now: bigint,
): ReClammState {
  const { virtualA, virtualB, changed } = currentVirtualBalances(state, balancesBefore, now);
  return {
    ...state,
    lastVirtualBalances: changed ? [virtualA, virtualB] : state.lastVirtualBalances,
    lastTimestamp: now,
  };
}

/**
 * onBeforeAddLiquidity / onBeforeRemoveLiquidity (proportional, the only liquidity the pool takes):
 * the moved virtual balances scaled by the BPT supply after over before, rounded down, so the
 * centeredness and price ratio stay.
 */
export function reClammStateAfterLiquidity(
  state: ReClammState,
  balancesBefore: readonly bigint[],
  now: bigint,
  totalSupplyBefore: bigint,
  totalSupplyAfter: bigint,
): ReClammState {
  const { virtualA, virtualB } = currentVirtualBalances(state, balancesBefore, now);
  return {
    ...state,
    lastVirtualBalances: [
      (virtualA * totalSupplyAfter) / totalSupplyBefore,
      (virtualB * totalSupplyAfter) / totalSupplyBefore,
    ],
    lastTimestamp: now,
  };
}
