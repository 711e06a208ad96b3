import type { PoolTypeDef } from '../../poolTypeDef';
import { WEIGHTED_V3_CHAIN } from './weightedV3Reads';
import { storedWeights, weightedV3StateOf } from './weightedV3Stored';
import { weightedV3Math } from './weightedV3Pool';

/** The V3 Vault's WeightedPool. */
export const WEIGHTED_V3: PoolTypeDef = {
  protocol: 3,
  names: ['Weighted'],
  versions: 'all',
  family: 'weighted',
  params: [],
  timeDependent: false,
  joins: false,
  exits: false,
  pathRole: 'through',
  // `getNormalizedWeights()`, as V2's weighted pools.
  chain: WEIGHTED_V3_CHAIN,
  v3: {
    math: (pool, vaultState) => weightedV3Math(weightedV3StateOf(pool, vaultState)),
    weights: (pool) => storedWeights(pool),
  },
};
