import type { V3PoolState } from '../../../protocols/v3/vault/poolState';

/**
 * The Vault's state of a V3 liquidity bootstrapping pool and what the pool fixes at deployment (`getLBPoolImmutableData`,
 * `getFixedPriceLBPoolImmutableData`): a sale of the project token against a reserve token between
 * two timestamps. Both kinds share LBPCommon's rules (`lbpV3Sale.ts`).
 */
export interface LbpSaleState extends V3PoolState {
  readonly projectTokenIndex: number;
  /** The other of the pool's two tokens. */
  readonly reserveTokenIndex: number;
  /** Sale window, unix seconds, both ends included. */
  readonly startTime: bigint;
  readonly endTime: bigint;
  /**
   * Weighted LBPs from June 2025 may name a migration router (`getMigrationRouter`); such a pool
   * takes removes only through it. Absent or the zero address: removes through any router.
   */
  readonly migrationRouter?: string;
}

/** The weighted LBP: the project token's weight moves linearly from start to end over the sale. */
export interface LbpState extends LbpSaleState {
  /** Whether the project token may only leave the pool (a buy-only sale). */
  readonly isProjectTokenSwapInBlocked: boolean;
  /** Per token index, summing to 1e18 (the reserve's is the complement of the project's). */
  readonly startWeights: readonly bigint[];
  readonly endWeights: readonly bigint[];
  /**
   * Seedless LBPs (builds from December 2025): a reserve balance the pool prices with but does not
   * hold, 18 decimals; zero (or absent) for a seeded pool.
   */
  readonly reserveTokenVirtualBalanceScaled18?: bigint;
  /**
   * The seedless build of the npm 1.0.0 sources checks the swap's calculated amount against the real
   * reserve when the reserve goes out, which for an exact-out swap is the project amount in; builds
   * from February 2026 check the reserve amount out. True for the former.
   */
  readonly checksCalculatedAmountAgainstReserve?: boolean;
  /** Builds from January 2026 (npm 1.0.0): the weighted pool's minimum balances (see `WeightedV3State`). */
  readonly minTokenBalances?: readonly bigint[];
}

/**
 * The fixed-price LBP: the project token sells at a constant rate, reserve per project (18
 * decimals), and is never taken in.
 */
export interface FixedPriceLbpState extends LbpSaleState {
  readonly projectTokenRate: bigint;
}
