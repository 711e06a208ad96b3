import type { V3PoolState } from '../../../protocols/v3/vault/poolState';

/**
 * A QuantAMM weighted pool's state: the Vault's state and what the pool answers (`getQuantAMMWeightedPoolDynamicData` and
 * `...ImmutableData`). Weights move with time without any event: each token has a weight set at
 * `lastUpdateTime` and a per-second multiplier that applies until `lastInteropTime`, so the
 * weights a swap sees depend on the block's timestamp (`quantAmmV3Weights.ts`).
 */
export interface QuantAmmState extends V3PoolState {
  /**
   * The unpacked first word: with n <= 4 tokens, weights of tokens 0..n-1 then their multipliers
   * (18 decimals, multipliers signed, per second); with more tokens, tokens 0..3 then theirs.
   */
  readonly firstFourWeightsAndMultipliers: readonly bigint[];
  /** The second word for tokens 4..n-1 (weights then multipliers); zeros with 4 tokens or fewer. */
  readonly secondFourWeightsAndMultipliers: readonly bigint[];
  /** When the weights above were set (unix seconds). */
  readonly lastUpdateTime: bigint;
  /** The last second the multipliers move the weights; later the weights stay where they got. */
  readonly lastInteropTime: bigint;
  /** No swap may take in or send out more than this share of that token's balance (18 decimals). */
  readonly maxTradeSizeRatio: bigint;
}
