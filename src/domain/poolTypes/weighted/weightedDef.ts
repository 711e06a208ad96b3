import { weightedModelFactory } from './weightedModel';
import { LEGACY_FEE_BASIS_PARAMS } from '../legacyFeeBasis';
import type { PoolTypeDef } from '../poolTypeDef';
import { PROTOCOL_YIELD_FEE_PARAMS } from '../protocolYieldFee';
import { LBP_CHAIN, WEIGHTED_CHAIN, WEIGHTS_ONLY_CHAIN } from './weightedReads';
import { MANAGED_PARAMS, WEIGHTED_FEE_PARAMS } from './weightedParams';

/** Weighted-math pools; their math and model: `weightedModel.ts`, `weightedMath.ts`, `weightedFees.ts`. */
const familyDefaults = {
  family: 'weighted',
  timeDependent: false,
  pathRole: 'through',
  chain: WEIGHTS_ONLY_CHAIN,
} as const;

export const WEIGHTED: PoolTypeDef = {
  ...familyDefaults,
  names: ['Weighted'],
  versions: [1, 2, 3, 4],
  // 2022 on: exact powDown shortcuts, the v2 join/exit rounding, protocol fee BPT.
  createModel: weightedModelFactory({
    swapSwitch: false,
    shortcuts: (v) => v >= 2,
    joinExit: (v) => (v <= 1 ? 'v1' : 'v2'),
    feeBasis: true,
  }),
  // v2+ mint protocol fee BPT (WEIGHTED_FEE_PARAMS), v1 pays in tokens (LEGACY_FEE_BASIS_PARAMS).
  params: [...WEIGHTED_FEE_PARAMS, ...LEGACY_FEE_BASIS_PARAMS],
  // v2+ charge yield fees at the cache ComposableStable declares too.
  sharedParams: PROTOCOL_YIELD_FEE_PARAMS,
  chain: WEIGHTED_CHAIN,
  joins: true,
  exits: true,
  userData: 'weighted',
  devnetKind: 'weighted',
};

/** Joins from its owner only; its prices are meant to move, so routes use it only at their ends. */
export const LIQUIDITY_BOOTSTRAPPING: PoolTypeDef = {
  ...familyDefaults,
  names: ['LiquidityBootstrapping'],
  versions: [1],
  createModel: weightedModelFactory({
    swapSwitch: true,
    shortcuts: () => false,
    joinExit: () => 'v1',
    ownerJoinsOnly: true,
  }),
  params: [],
  chain: LBP_CHAIN,
  joins: false,
  exits: true,
  userData: 'weighted',
  pathRole: 'ends',
  devnetKind: 'liquidityBootstrapping',
};

export const INVESTMENT: PoolTypeDef = {
  ...familyDefaults,
  names: ['Investment'],
  versions: [1],
  createModel: weightedModelFactory({ swapSwitch: true, shortcuts: () => false, joinExit: () => 'investment' }),
  params: MANAGED_PARAMS,
  joins: false,
  exits: false,
  userData: 'weighted',
};

export const MANAGED: PoolTypeDef = {
  ...familyDefaults,
  names: ['Managed'],
  versions: [1, 2],
  // Its own BPT among its tokens, the fee on upscaled amounts; no join or exit modelled.
  createModel: weightedModelFactory({ swapSwitch: true, shortcuts: () => true, feeOnUpscaled: true, ownBpt: true }),
  params: MANAGED_PARAMS,
  // ManagedPoolSettings: up to 95 %.
  swapFeeBounds: { min: '0.000001', max: '0.95' },
  joins: false,
  exits: false,
};
