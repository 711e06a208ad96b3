import type { EclpDerived, EclpParams } from '../../../swap/math/gyroEMath';

/**
 * A V3 Gyro E-CLP's own state: the pool's immutables as `getECLPParams` answers them (alpha, beta,
 * c, s, lambda with 18 decimals; tau, u, v, w, z, dSq with 38). Nothing moves with time; balances,
 * rates and fees are the Vault's.
 */
export interface GyroEclpV3State {
  readonly params: EclpParams;
  readonly derived: EclpDerived;
}
