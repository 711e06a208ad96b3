import { createElementModel } from './elementModel';
import type { PoolTypeDef } from '../poolTypeDef';
import { ELEMENT_PARAMS } from './elementParams';

/** Element principal-token pools: `elementModel.ts`; they price by time to maturity. */
export const ELEMENT: PoolTypeDef = {
  family: 'element',
  names: ['Element'],
  versions: 'all',
  params: ELEMENT_PARAMS,
  createModel: createElementModel,
  timeDependent: true,
  joins: false,
  exits: false,
  pathRole: 'through',
  // Its fee is a share of the yield its curve trades, not the Vault's swap fee: any fraction.
  swapFeeBounds: { min: '0', max: '1' },
};
