import type { GyroEclpV3State } from '../../src/domain/poolTypes/gyro/v3/eclpV3State';
import { gyroEclpV3Math } from '../../src/domain/poolTypes/gyro/v3/eclpV3Pool';
import type { V3Pool } from '../../src/domain/protocols/v3/vault/v3Pool';
import type { V3PoolState } from '../../src/domain/protocols/v3/vault/poolState';
import { vectorVaultState, type V3VectorPool } from './v3Vectors';

/** A Gyro E-CLP vector's `getECLPParams` over a Vault state (the vector's own by default). */
export function eclpVectorState(pool: V3VectorPool, vaultState: V3PoolState = vectorVaultState(pool)): GyroEclpV3State {
  return {
    ...vaultState,
    eclpParams: {
      alpha: pool.big('paramsAlpha'),
      beta: pool.big('paramsBeta'),
      c: pool.big('paramsC'),
      s: pool.big('paramsS'),
      lambda: pool.big('paramsLambda'),
    },
    eclpDerived: {
      tauAlpha: { x: pool.big('tauAlphaX'), y: pool.big('tauAlphaY') },
      tauBeta: { x: pool.big('tauBetaX'), y: pool.big('tauBetaY') },
      u: pool.big('u'),
      v: pool.big('v'),
      w: pool.big('w'),
      z: pool.big('z'),
      dSq: pool.big('dSq'),
    },
  };
}

/** A Gyro E-CLP vector's pool as the Vault operations run it: the Vault's state plus `getECLPParams`. */
export function eclpVectorPool(pool: V3VectorPool): V3Pool {
  const state = eclpVectorState(pool);
  return { state, math: gyroEclpV3Math(state) };
}
