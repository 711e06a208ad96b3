import type { PoolTypeDef } from '../../poolTypeDef';
import { lbpHook } from './lbpV3Sale';
import { LBP_V3_CHAIN } from './lbpV3Reads';
import { lbpMath } from './lbpV3Pool';
import { lbpStateOf } from './lbpV3Stored';
import { lbpPricingTime } from './lbpV3Weights';

/**
 * The V3 Vault's LBPool (`@balancer-labs/v3-pool-weighted` lbp/): a weighted sale whose weights
 * move over its window, evaluated at the quote block's timestamp; swaps only inside the window and,
 * for a buy-only sale, never with the project token in. A route uses it only on a hop that buys
 * or sells its tokens for the order, as V2's liquidity bootstrapping pools.
 */
export const LBP_V3: PoolTypeDef = {
  protocol: 3,
  names: ['LBP'],
  versions: 'all',
  family: 'weighted',
  params: [],
  timeDependent: true,
  joins: false,
  exits: false,
  pathRole: 'ends',
  // The devnet's kind for its sale of this type (`devnet/v3/universe.ts` V3_LBPS).
  devnetKind: 'lbp',
  chain: LBP_V3_CHAIN,
  v3: {
    math: (pool, vaultState, timestamp) => lbpMath(lbpStateOf(pool, vaultState), timestamp),
    pricingTime: (pool, vaultState, timestamp) => lbpPricingTime(lbpStateOf(pool, vaultState), timestamp),
    selfHook: (pool, vaultState, timestamp) => lbpHook(lbpStateOf(pool, vaultState), timestamp),
  },
};
