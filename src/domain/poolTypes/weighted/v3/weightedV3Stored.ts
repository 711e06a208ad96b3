import { decimalToUnits } from '../../../decimal';
import type { StoredPool } from '../../../pool';
import type { V3PoolState } from '../../../protocols/v3/vault/poolState';
import type { WeightedV3State } from './weightedV3State';

/** A stored V3 Weighted pool's normalized weights (the tokens' `weight`, 18 decimals). */
export function storedWeights(pool: StoredPool): bigint[] {
  return pool.tokens.map((t, i) => {
    if (t.weight === null) throw new Error(`weighted pool ${pool.id} has no weight for token ${i}`);
    return decimalToUnits(t.weight, 18);
  });
}

/** The Weighted pool's state: its Vault state, weights and, for the 2026 build, minimum balances. */
export function weightedV3StateOf(pool: StoredPool, vaultState: V3PoolState): WeightedV3State {
  const min = pool.v3?.minTokenBalances;
  return {
    ...vaultState,
    weights: storedWeights(pool),
    ...(min !== undefined ? { minTokenBalances: min.map((b) => decimalToUnits(b, 18)) } : {}),
  };
}
