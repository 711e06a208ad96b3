import type { PoolTypeDef } from '../../poolTypeDef';
import { STABLE_V3_BUILD_CHAIN } from './chain';
import { stableV3StateOf } from './stored';
import { stableV3Math } from './stableV3Pool';

/** The V3 Vault's StablePool. */
export const STABLE_V3: PoolTypeDef = {
  protocol: 3,
  names: ['Stable'],
  versions: 'all',
  family: 'stable',
  params: [],
  // An amp ramp prices at the quote's timestamp (`stableV3Math`): the model is rebuilt when it moves.
  timeDependent: true,
  joins: false,
  exits: false,
  pathRole: 'through',
  chain: STABLE_V3_BUILD_CHAIN,
  v3: { math: (pool, frame, timestamp) => stableV3Math(stableV3StateOf(pool, frame), timestamp) },
};
