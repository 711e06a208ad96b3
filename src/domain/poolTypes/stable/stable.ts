import { createStableModel } from './stableModel';
import type { PoolTypeDef } from '../poolTypeDef';
import { LEGACY_FEE_BASIS_PARAMS } from '../legacyFeeBasis';
import { META_STABLE_CHAIN, STABLE_CHAIN } from './chain';

/**
 * Stable pools without their BPT among their tokens (2021 and 2022 StableMath; MetaStable with
 * rates): `stableModel.ts`. Their amplification is the pool-wide `amp` every stable family reads.
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
} as const;

export const STABLE: PoolTypeDef = {
  ...frame,
  names: ['Stable'],
  versions: [1, 2],
  chain: STABLE_CHAIN,
  devnetKind: 'stable',
};

export const META_STABLE: PoolTypeDef = {
  ...frame,
  names: ['MetaStable'],
  versions: [1],
  chain: META_STABLE_CHAIN,
};
