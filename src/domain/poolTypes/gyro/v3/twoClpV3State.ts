import type { V3PoolState } from '../../../protocols/v3/vault/poolState';

/**
 * A V3 Gyro 2-CLP: the Vault's state plus the pool's two immutables as
 * `getGyro2CLPPoolImmutableData` answers them, the square roots of the price range's bounds
 * (18 decimals, sqrtAlpha < sqrtBeta). Nothing moves with time.
 */
export interface Gyro2ClpV3State extends V3PoolState {
  readonly sqrtAlpha: bigint;
  readonly sqrtBeta: bigint;
}
