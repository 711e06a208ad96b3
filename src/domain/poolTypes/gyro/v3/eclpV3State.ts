import type { V3PoolState } from '../../../protocols/v3/vault/poolState';
import type { EclpDerived, EclpParams } from '../gyroEMath';

/**
 * A V3 Gyro E-CLP: the Vault's state plus the pool's immutables as `getECLPParams` answers them
 * (alpha, beta, c, s, lambda with 18 decimals; tau, u, v, w, z, dSq with 38). Nothing moves with
 * time.
 */
export interface GyroEclpV3State extends V3PoolState {
  readonly eclpParams: EclpParams;
  readonly eclpDerived: EclpDerived;
}
