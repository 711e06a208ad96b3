import { decimalToUnits } from '../../../decimal';
import type { StoredPool } from '../../../pool';
import type { V3PoolState } from '../../../protocols/v3/vault/poolState';
import { steadyAmp } from './stableV3Pool';
import type { StableV3State } from './stableV3State';

/** The V3 StablePool's amp precision (`StableMath.AMP_PRECISION`). */
const AMP_PRECISION_DIGITS = 3;

/**
 * The Stable pool's state: its Vault state and the stored amp (already evaluated for the next
 * block, as V2's is), and for the 2026 build its imbalance limit.
 */
export function stableV3StateOf(pool: StoredPool, vaultState: V3PoolState): StableV3State {
  if (pool.amp === null) throw new Error(`stable pool ${pool.id} has no amp`);
  const limit = pool.v3?.maxImbalanceRatio;
  return {
    ...vaultState,
    amp: steadyAmp(decimalToUnits(pool.amp, AMP_PRECISION_DIGITS)),
    ...(limit !== undefined ? { maxImbalanceRatio: BigInt(limit) } : {}),
  };
}
