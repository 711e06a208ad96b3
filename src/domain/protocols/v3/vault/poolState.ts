/**
 * What the V3 Vault holds for a pool, as read at a block: the state every V3 pool type shares. The
 * type's own parameters live beside it in the type's state (`poolTypes/<family>/v3/`).
 */
export interface V3PoolState {
  /** The pool's address (V3 pools are keyed by it; hooks receive it). */
  readonly address: string;
  /** Registered tokens, in the Vault's order. */
  readonly tokens: readonly string[];
  /** 10^(18 - decimals) per token. */
  readonly scalingFactors: readonly bigint[];
  /** Each token's rate (1e18 for a token without a rate provider), as the Vault reads it now. */
  readonly tokenRates: readonly bigint[];
  /**
   * Live balances, scaled18 with rates, rounded down and net of the yield fees the Vault would
   * charge now: what `getCurrentLiveBalances` returns. Used when `balancesRaw` is absent.
   */
  readonly balancesLiveScaled18: readonly bigint[];
  /**
   * Raw balances as stored in the Vault. When present, the Vault's operations compute the live balances the
   * way the Vault loads them for each operation (rounded up for adds, down otherwise, yield fees
   * charged), as `vault/poolData.ts` does.
   */
  readonly balancesRaw?: readonly bigint[];
  /** For the yield fee the Vault charges when it loads the pool; absent means none. */
  readonly yieldFee?: V3YieldFeeState;
  /** The static swap fee (18 decimals); a dynamic-fee hook may replace it per swap. */
  readonly staticSwapFee: bigint;
  /** Protocol plus pool creator share of every swap fee (18 decimals). */
  readonly aggregateSwapFee: bigint;
  /** BPT total supply. */
  readonly totalSupply: bigint;
  readonly paused: boolean;
  readonly inRecoveryMode: boolean;
  /** False when the pool was registered with `disableUnbalancedLiquidity`. */
  readonly supportsUnbalancedLiquidity: boolean;
}

export interface V3YieldFeeState {
  /** Aggregate (protocol + creator) yield fee percentage (18 decimals). */
  readonly aggregateYieldFee: bigint;
  /** Live balances stored at the pool's last operation (the packed balance's derived half). */
  readonly lastLiveBalances: readonly bigint[];
  /** Per token: registered `paysYieldFees` with a rate provider (`TokenType.WITH_RATE`). */
  readonly paysYieldFees: readonly boolean[];
}
