import { createStableModel } from '../../swap/pools/stable';
import type { PoolTypeDef } from '../poolTypeDef';
import { LEGACY_FEE_BASIS_PARAMS } from '../legacyFeeBasis';

/**
 * Stable pools without their BPT among their tokens (2021 and 2022 StableMath; MetaStable with
 * rates): `swap/pools/stable.ts`. Their amplification is the pool-wide `amp` every stable family reads.
 */
const frame = {
  family: 'stable',
  createModel: createStableModel,
  params: LEGACY_FEE_BASIS_PARAMS,
  timeDependent: false,
  joins: true,
  exits: true,
  userData: 'legacyStable',
  pathRole: 'through',
  chainReads: [{ group: 'amp' }],
} as const;

export const STABLE: PoolTypeDef = {
  ...frame,
  names: ['Stable'],
  versions: [1, 2],
  // The 2021 (v1) contract keeps the same basis but has no getter for it.
  chainReads: [{ group: 'amp' }, { group: 'legacyStableFeeBasis', since: 2 }],
  devnetKind: 'stable',
};

export const META_STABLE: PoolTypeDef = {
  ...frame,
  names: ['MetaStable'],
  versions: [1],
  chainReads: [{ group: 'amp' }, { group: 'legacyStableFeeBasis' }, { group: 'priceRateCaches' }],
};
