import { decimalToUnits } from '../../../decimal';
import type { StoredPool } from '../../../pool';
import type { V3PoolState } from '../../../protocols/v3/vault/poolState';
import type { GyroParamName } from '../gyroParams';
import type { GyroEclpV3State } from './eclpV3State';
import type { Gyro2ClpV3State } from './twoClpV3State';

/** A stored Gyro parameter as the contract's integer; throws when the pool lacks it (not quoted). */
function param(pool: StoredPool, name: GyroParamName, decimals: number): bigint {
  const value = pool.gyro?.[name];
  if (value === undefined || value === '') throw new Error(`${pool.poolType} pool ${pool.id} has no ${name}`);
  return decimalToUnits(value, decimals);
}

/** A stored V3 E-CLP's state: its Vault state and its parameters (18 decimals, the derived ones 38). */
export function eclpV3StateOf(pool: StoredPool, vaultState: V3PoolState): GyroEclpV3State {
  const p = (name: GyroParamName) => param(pool, name, 18);
  const d = (name: GyroParamName) => param(pool, name, 38);
  return {
    ...vaultState,
    eclpParams: { alpha: p('alpha'), beta: p('beta'), c: p('c'), s: p('s'), lambda: p('lambda') },
    eclpDerived: {
      tauAlpha: { x: d('tauAlphaX'), y: d('tauAlphaY') },
      tauBeta: { x: d('tauBetaX'), y: d('tauBetaY') },
      u: d('u'),
      v: d('v'),
      w: d('w'),
      z: d('z'),
      dSq: d('dSq'),
    },
  };
}

/** A stored V3 2-CLP's state: its Vault state and the square roots of its price bounds. */
export function twoClpV3StateOf(pool: StoredPool, vaultState: V3PoolState): Gyro2ClpV3State {
  return { ...vaultState, sqrtAlpha: param(pool, 'sqrtAlpha', 18), sqrtBeta: param(pool, 'sqrtBeta', 18) };
}
