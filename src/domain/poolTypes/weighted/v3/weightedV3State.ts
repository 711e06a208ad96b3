import type { V3PoolState } from '../../../protocols/v3/vault/poolState';

/**
 * A V3 WeightedPool: the Vault's state plus normalized weights (18 decimals, summing to 1e18).
 *
 * Two builds are deployed. The launch pools (factory task 20241205-v3-weighted-pool, what every
 * chain has served since December 2024) price on the balances as given. The rebuilt pool of the
 * npm 1.0.0 sources (2026) also keeps a minimum balance per token (`getMinTokenBalances`), prices
 * a swap on the balance in plus 1 wei and, for a single-token remove, rounds the exponent 1/weight
 * down where the launch pools round it up; `minTokenBalances` is set for those pools only.
 */
export interface WeightedV3State extends V3PoolState {
  readonly weights: readonly bigint[];
  readonly minTokenBalances?: readonly bigint[];
}
