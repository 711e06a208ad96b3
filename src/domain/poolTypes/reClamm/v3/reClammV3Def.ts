import type { StoredPool } from '../../../pool';
import type { PoolTypeDef } from '../../poolTypeDef';
import { RECLAMM_CHAIN } from './reClammV3Reads';
import { RECLAMM_PARAMS } from './reClammV3Params';
import { reClammV3Math } from './reClammV3Pool';
import { restingSince } from './reClammV3VirtualBalances';
import { reClammStateOf } from './reClammV3Stored';

/**
 * The V3 Vault's ReClamm pools, both generations (factory version 1 and 2). Its virtual balances
 * move with time: the math is built for the quote's block timestamp, never before the pool's
 * last write (no block the pool is traded in is older), or at that write while they rest.
 */
export const RECLAMM: PoolTypeDef = {
  protocol: 3,
  names: ['ReClamm'],
  versions: [1, 2],
  family: 'reClamm',
  params: RECLAMM_PARAMS,
  paramsEntity: 'reClammParams',
  timeDependent: true,
  joins: false,
  exits: false,
  pathRole: 'through',
  chain: RECLAMM_CHAIN,
  v3: {
    math(pool, vaultState, timestamp) {
      const state = reClammStateOf(pool, vaultState);
      return reClammV3Math(state, timestamp > state.lastTimestamp ? timestamp : state.lastTimestamp);
    },
    pricingTime(pool, vaultState, timestamp) {
      // A hook before the swap could hand the pool other balances than the Vault's.
      if (!reClammOwnHook(pool) && pool.v3?.hook?.flags.shouldCallBeforeSwap === true) return timestamp;
      const state = reClammStateOf(pool, vaultState);
      return restingSince(state, vaultState.balancesLiveScaled18, timestamp);
    },
    ownHook: reClammOwnHook,
  },
};

/**
 * A ReClamm pool is its own hooks contract: before an initialisation and before proportional
 * liquidity it moves its virtual balances, which its math does from the balances anyway; swaps
 * call no hook. An external hook it forwards to shows in the flags (a swap or after-liquidity
 * callback), and is priced as that hook.
 */
function reClammOwnHook(pool: StoredPool): boolean {
  const hook = pool.v3?.hook;
  if (!hook || hook.address !== pool.address) return false;
  const f = hook.flags;
  return !(
    f.enableHookAdjustedAmounts ||
    f.shouldCallComputeDynamicSwapFee ||
    f.shouldCallBeforeSwap ||
    f.shouldCallAfterSwap ||
    f.shouldCallAfterAddLiquidity ||
    f.shouldCallAfterRemoveLiquidity
  );
}
