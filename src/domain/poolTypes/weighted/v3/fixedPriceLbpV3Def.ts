import type { PoolTypeDef } from '../../poolTypeDef';
import { lbpHook } from './lbpV3Sale';
import { FIXED_PRICE_LBP_V3_CHAIN } from './lbpV3Reads';
import { fixedPriceLbpMath } from './fixedPriceLbpV3Pool';
import { fixedPriceLbpStateOf } from './lbpV3Stored';

/**
 * The V3 Vault's FixedPriceLBPool: the project token sold for the reserve token at a constant
 * rate inside the sale window, never bought back. Routed as the weighted LBP (`lbpV3Def.ts`).
 */
export const FIXED_PRICE_LBP_V3: PoolTypeDef = {
  protocol: 3,
  names: ['FixedLBP'],
  versions: 'all',
  family: 'weighted',
  params: [],
  timeDependent: true,
  joins: false,
  exits: false,
  pathRole: 'ends',
  // The devnet's kind for its sale of this type (`devnet/v3/universe.ts` V3_LBPS).
  devnetKind: 'fixedPriceLbp',
  chain: FIXED_PRICE_LBP_V3_CHAIN,
  v3: {
    math: (pool, vaultState, timestamp) => fixedPriceLbpMath(fixedPriceLbpStateOf(pool, vaultState), timestamp),
    // Time opens and closes the sale, nothing else: one pricing time before, one during, one after.
    pricingTime(pool, vaultState, timestamp) {
      const { startTime, endTime } = fixedPriceLbpStateOf(pool, vaultState);
      return timestamp < startTime ? startTime - 1n : timestamp > endTime ? endTime + 1n : startTime;
    },
    selfHook: (pool, vaultState, timestamp) => lbpHook(fixedPriceLbpStateOf(pool, vaultState), timestamp),
  },
};
