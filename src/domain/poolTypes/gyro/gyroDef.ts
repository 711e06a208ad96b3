import { gyro2ModelFactory } from './gyro2Model';
import { createGyro3Model } from './gyro3Model';
import { gyroEModelFactory } from './gyroEModel';
import type { PoolTypeDef } from '../poolTypeDef';
import { GYRO_GROUP, GYRO_PARAMS } from './gyroParams';

/** Gyroscope concentrated-liquidity pools: `gyro*Model.ts` over `gyroModel.ts`. */
const familyDefaults = {
  family: 'gyro',
  params: GYRO_PARAMS,
  paramGroup: GYRO_GROUP,
  timeDependent: false,
  joins: false,
  exits: false,
  pathRole: 'through',
} as const;

/** v2 pools (2023 on) scale their balances by token rates (rate providers); v1 pools have none. */
const ratesFromV2 = (version: number): boolean => version === 2;

export const GYRO2: PoolTypeDef = {
  ...familyDefaults,
  names: ['Gyro2'],
  versions: [1, 2],
  createModel: gyro2ModelFactory(ratesFromV2),
};
export const GYRO3: PoolTypeDef = { ...familyDefaults, names: ['Gyro3'], versions: [1], createModel: createGyro3Model };
export const GYRO_E: PoolTypeDef = {
  ...familyDefaults,
  names: ['GyroE'],
  versions: [1, 2],
  createModel: gyroEModelFactory(ratesFromV2),
};
