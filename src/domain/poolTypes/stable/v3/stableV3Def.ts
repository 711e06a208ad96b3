import type { PoolTypeDef } from '../../poolTypeDef';
import { STABLE_V3_BUILD_CHAIN } from './stableV3Reads';
import { stableV3StateOf } from './stableV3Stored';
import { stableV3Math } from './stableV3Pool';

/** Any time: a steady amp (`stableV3StateOf`) is the same at every timestamp. */
const STEADY = 0n;

/** The V3 Vault's StablePool. */
export const STABLE_V3: PoolTypeDef = {
  protocol: 3,
  names: ['Stable'],
  versions: 'all',
  family: 'stable',
  params: [],
  // Its stored amp is the one the next block uses: the follower evaluates a ramp at each head
  // (`stableV3Reads.ts` `at`, as for V2's stable pools), so the state is a steady amp that prices alike at
  // any timestamp, and only a pool whose ramp moved gets a new object and a new model.
  timeDependent: false,
  joins: false,
  exits: false,
  pathRole: 'through',
  chain: STABLE_V3_BUILD_CHAIN,
  v3: { math: (pool, vaultState) => stableV3Math(stableV3StateOf(pool, vaultState), STEADY) },
};
