import { createLinearModel } from './linearModel';
import type { PoolTypeDef } from '../poolTypeDef';
import { LINEAR_CHAIN } from './linearReads';
import { LINEAR_PARAMS } from './linearParams';

/** Every linear variant (Aave, ERC4626, Euler, Gearbox, Yearn, ...) shares LinearPool's arithmetic: `linearModel.ts`. */
export const LINEAR: PoolTypeDef = {
  family: 'linear',
  // The devnet deploys the first name; the suffix covers every other variant.
  names: ['ERC4626Linear'],
  nameSuffix: 'Linear',
  versions: 'all',
  params: LINEAR_PARAMS,
  createModel: createLinearModel,
  timeDependent: false,
  joins: false,
  exits: false,
  pathRole: 'through',
  chain: LINEAR_CHAIN,
  devnetKind: 'linear',
};
