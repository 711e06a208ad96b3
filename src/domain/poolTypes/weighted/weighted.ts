import { createWeightedModel } from '../../swap/pools/weighted';
import { LEGACY_FEE_BASIS_PARAMS } from '../legacyFeeBasis';
import type { PoolTypeDef } from '../poolTypeDef';
import { MANAGED_PARAMS, WEIGHTED_FEE_PARAMS } from './params';

/** Weighted-math pools; their math and model: `swap/pools/weighted.ts`, `swap/math/weightedMath.ts`. */
const frame = {
  family: 'weighted',
  createModel: createWeightedModel,
  timeDependent: false,
  pathRole: 'through',
  chainReads: [{ group: 'weights' }],
} as const;

export const WEIGHTED: PoolTypeDef = {
  ...frame,
  names: ['Weighted'],
  versions: [1, 2, 3, 4],
  // v2+ mint protocol fee BPT (WEIGHTED_FEE_PARAMS), v1 pays in tokens (LEGACY_FEE_BASIS_PARAMS).
  params: [...WEIGHTED_FEE_PARAMS, ...LEGACY_FEE_BASIS_PARAMS],
  chainReads: [{ group: 'weights' }, { group: 'legacyFeeBasis', before: 2 }, { group: 'weightedFeeBasis', since: 2 }],
  joins: true,
  exits: true,
  userData: 'weighted',
  devnetKind: 'weighted',
};

/** Joins from its owner only; its prices are meant to move, so routes use it only at their ends. */
export const LIQUIDITY_BOOTSTRAPPING: PoolTypeDef = {
  ...frame,
  names: ['LiquidityBootstrapping'],
  versions: [1],
  params: [],
  chainReads: [{ group: 'weights' }, { group: 'lbpSchedule' }],
  joins: false,
  exits: true,
  userData: 'weighted',
  pathRole: 'ends',
  devnetKind: 'liquidityBootstrapping',
};

export const INVESTMENT: PoolTypeDef = {
  ...frame,
  names: ['Investment'],
  versions: [1],
  params: MANAGED_PARAMS,
  joins: false,
  exits: false,
  userData: 'weighted',
};

export const MANAGED: PoolTypeDef = {
  ...frame,
  names: ['Managed'],
  versions: [1, 2],
  params: MANAGED_PARAMS,
  // ManagedPoolSettings: up to 95 %.
  swapFeeBounds: { min: '0.000001', max: '0.95' },
  joins: false,
  exits: false,
};
