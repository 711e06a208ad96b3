import type { PoolTypeDef } from '../../poolTypeDef';
import { ECLP_PARAMS, GYRO_GROUP, TWO_CLP_PARAMS } from '../gyroParams';
import { GYRO_2CLP_V3_CHAIN, GYRO_ECLP_V3_CHAIN } from './gyroV3Reads';
import { gyroEclpV3Math } from './eclpV3Pool';
import { eclpV3StateOf, twoClpV3StateOf } from './gyroV3Stored';
import { gyro2ClpV3Math } from './twoClpV3Pool';

/**
 * The V3 Vault's Gyroscope pools, their parameters stored under `gyro` as V2's are (the V3 pools
 * subgraph names them alike). Proportional liquidity and swaps; nothing moves with time.
 */
const familyDefaults = {
  protocol: 3,
  versions: 'all',
  family: 'gyro',
  paramGroup: GYRO_GROUP,
  timeDependent: false,
  joins: false,
  exits: false,
  pathRole: 'through',
} as const;

export const GYRO_ECLP_V3: PoolTypeDef = {
  ...familyDefaults,
  names: ['GyroE'],
  params: ECLP_PARAMS,
  paramsEntity: 'gyroEParams',
  chain: GYRO_ECLP_V3_CHAIN,
  v3: { math: (pool, state) => gyroEclpV3Math(eclpV3StateOf(pool, state)) },
};

export const GYRO_2CLP_V3: PoolTypeDef = {
  ...familyDefaults,
  names: ['Gyro2'],
  params: TWO_CLP_PARAMS,
  paramsEntity: 'gyro2Params',
  chain: GYRO_2CLP_V3_CHAIN,
  v3: { math: (pool, state) => gyro2ClpV3Math(twoClpV3StateOf(pool, state)) },
};
