import { createComposableStableModel, createStablePhantomModel } from './composableStableModel';
import type { PoolTypeDef } from '../poolTypeDef';
import { COMPOSABLE_STABLE_CHAIN, STABLE_PHANTOM_CHAIN } from './composableStableReads';
import {
  COMPOSABLE_STABLE_PARAMS,
  COMPOSABLE_STABLE_TOKEN_PARAMS,
  STABLE_PHANTOM_PARAMS,
} from './composableStableParams';

/**
 * Stable pools holding their own BPT (StablePhantom, ComposableStable v1-v6): `composableStableModel.ts`.
 * Their BPT is one of their tokens, so joins and exits are plain swaps, not relayer hops; the
 * relayer still encodes them for `/order` when a route asks.
 */
const familyDefaults = {
  family: 'composableStable',
  params: COMPOSABLE_STABLE_PARAMS,
  tokenParams: COMPOSABLE_STABLE_TOKEN_PARAMS,
  timeDependent: false,
  joins: false,
  exits: false,
  pathRole: 'through',
} as const;

export const STABLE_PHANTOM: PoolTypeDef = {
  ...familyDefaults,
  names: ['StablePhantom'],
  versions: [1],
  createModel: createStablePhantomModel,
  params: STABLE_PHANTOM_PARAMS,
  chain: STABLE_PHANTOM_CHAIN,
};

export const COMPOSABLE_STABLE: PoolTypeDef = {
  ...familyDefaults,
  names: ['ComposableStable'],
  versions: [1, 2, 3, 4, 5, 6],
  createModel: createComposableStableModel,
  chain: COMPOSABLE_STABLE_CHAIN,
  userData: 'composableStable',
  devnetKind: 'composableStable',
};
