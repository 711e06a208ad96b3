import { Revert } from '../../../swap/math/revert';

/**
 * The V3 Vault's refusals, as the contract names its custom errors. A V3 revert is a `Revert`
 * (routing tells pool limits from bugs with `isRevert`) whose `code` is the Solidity error's name.
 */
export function v3Revert(errorName: string, what: string): Revert {
  return new Revert(`${what} (${errorName})`, { code: errorName });
}

/** `PoolPaused`: the Vault refuses every swap, add and remove of a paused pool. */
export class PoolPausedError extends Revert {
  override readonly name = 'PoolPausedError';
  constructor(readonly pool: string) {
    super(`pool ${pool} is paused (PoolPaused)`, { code: 'PoolPaused' });
  }
}

/**
 * A pool in recovery mode. The Vault itself still swaps such a pool (without aggregate or yield
 * fees), but recovery mode is how a pool's governance says the pool is unsafe (a broken rate
 * provider, a hook that fails), so the service quotes nothing through it.
 */
export class PoolInRecoveryModeError extends Revert {
  override readonly name = 'PoolInRecoveryModeError';
  constructor(readonly pool: string) {
    super(`pool ${pool} is in recovery mode (PoolInRecoveryMode)`, { code: 'PoolInRecoveryMode' });
  }
}
