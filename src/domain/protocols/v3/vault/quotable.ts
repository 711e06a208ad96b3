import { PoolInRecoveryModeError, PoolPausedError } from './errors';
import type { V3PoolState } from './poolState';

/** Paused pools revert in the Vault; recovery-mode pools the service refuses (see `PoolInRecoveryModeError`). */
export function ensureQuotable(pool: V3PoolState): void {
  if (pool.paused) throw new PoolPausedError(pool.address);
  if (pool.inRecoveryMode) throw new PoolInRecoveryModeError(pool.address);
}
