import { stableModelFactory } from './stableModel';
import type { PoolTypeDef } from '../poolTypeDef';
import { LEGACY_FEE_BASIS_PARAMS } from '../legacyFeeBasis';
import { META_STABLE_CHAIN, STABLE_CHAIN } from './stableReads';

/**
 * Stable pools without their BPT among their tokens (2021 and 2022 StableMath; MetaStable with
 * rates): `stableModel.ts`. Their amplification is the pool-wide `amp` every stable family reads.
 */
const familyDefaults = {
  family: 'stable',
  params: LEGACY_FEE_BASIS_PARAMS,
  timeDependent: false,
  joins: true,
  exits: true,
  userData: 'legacyStable',
  pathRole: 'through',
} as const;

export const STABLE: PoolTypeDef = {
  ...familyDefaults,
  names: ['Stable'],
  versions: [1, 2],
  // v2 (2022) has the 2022 StableMath; no rates.
  createModel: stableModelFactory({ withRates: false, generation: (v) => (v >= 2 ? '2022' : '2021') }),
  chain: STABLE_CHAIN,
  devnetKind: 'stable',
};

export const META_STABLE: PoolTypeDef = {
  ...familyDefaults,
  names: ['MetaStable'],
  versions: [1],
  // The 2021 StableMath on balances scaled by each token's rate.
  createModel: stableModelFactory({ withRates: true, generation: () => '2021' }),
  chain: META_STABLE_CHAIN,
};
