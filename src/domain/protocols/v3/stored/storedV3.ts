/**
 * What a stored pool of the V3 Vault carries beyond the fields every stored pool has, and the
 * stored form of the V3 Vault's ERC-4626 buffers. Amounts are canonical plain decimal strings, as
 * everywhere in the stored shape (`domain/pool.ts`), so every value converts back exactly.
 *
 * The fields every pool has keep their meaning for a V3 pool, read as the V3 Vault holds them:
 * `tokens` in the Vault's order (the math indexes by it), each `balance` the raw balance in the
 * token's decimals (`decimals` gives the scaling factor 10^(18 - decimals)), `priceRate` the token
 * rate the Vault applies (1 for a token without a rate provider), `weight` a Weighted pool's
 * normalized weight, `amp` a Stable pool's amplification (without its 1000 precision, evaluated
 * for the next block as for V2), `swapFee` the static swap fee, `totalShares` the BPT supply,
 * `isPaused` and `isInRecoveryMode` the Vault's flags for the pool.
 */
export interface StoredV3VaultState {
  /** Protocol plus pool creator share of each swap fee (1 = 100 %). */
  readonly aggregateSwapFee: string;
  /** Protocol plus pool creator share of yield, charged when the Vault loads the pool. */
  readonly aggregateYieldFee: string;
  /** Per token (the pools' token order): registered to pay yield fees, with a rate provider. */
  readonly paysYieldFees: readonly boolean[];
  /**
   * Per token, the live balances (scaled to 18 decimals with rates, as decimals of 18 places) the
   * Vault stored at the pool's last operation: the yield fee charges their growth. Null while only
   * the subgraph has described the pool (no yield fee is then charged).
   */
  readonly lastLiveBalances: readonly string[] | null;
  /** False when registered with `disableUnbalancedLiquidity`. */
  readonly supportsUnbalancedLiquidity: boolean;
  /** The pool's hooks contract, null without one. */
  readonly hook: StoredV3Hook | null;
  /** 2026 Weighted build only (`getMinTokenBalances`, scaled18 as decimals of 18 places). */
  readonly minTokenBalances?: readonly string[];
  /** 2026 Stable build only (its largest-to-smallest balance limit). */
  readonly maxImbalanceRatio?: string;
  /**
   * A type's own parameters beyond weights and amp, by name, as its folder reads them (an LBP's
   * sale: `poolTypes/weighted/v3/lbpV3Stored.ts`): integers as the contract holds them (1e18 for
   * weights and rates, unix seconds for times), addresses in lower case, flags `true`/`false`.
   * From the catalogue, then replaced by what the type reads from the chain at the head.
   */
  readonly typeParams?: Readonly<Record<string, string>>;
}

/** The hooks the service models (`protocols/v3/hooks/<kind>/`). */
export const V3_HOOK_KINDS = ['stableSurge', 'directionalFee', 'exitFee', 'mevCapture', 'akron'] as const;
export type V3HookKind = (typeof V3_HOOK_KINDS)[number];

export interface StoredV3Hook {
  /** Lower case. */
  readonly address: string;
  /** What the service knows the contract to be; null for a hook it does not model (never quoted). */
  readonly kind: V3HookKind | null;
  /** `HooksConfig`, as the Vault calls the hook. */
  readonly flags: V3HookFlags;
  /**
   * The hook's own settings for the pool, as plain decimals (fractions of 1 for percentages):
   * StableSurge `maxSurgeFeePercentage`, `surgeThresholdPercentage`; exit fee
   * `exitFeePercentage`; Akron `minimumSwapFeePercentage`.
   */
  readonly params: Readonly<Record<string, string>>;
}

export interface V3HookFlags {
  readonly enableHookAdjustedAmounts: boolean;
  readonly shouldCallComputeDynamicSwapFee: boolean;
  readonly shouldCallBeforeSwap: boolean;
  readonly shouldCallAfterSwap: boolean;
  readonly shouldCallBeforeAddLiquidity: boolean;
  readonly shouldCallAfterAddLiquidity: boolean;
  readonly shouldCallBeforeRemoveLiquidity: boolean;
  readonly shouldCallAfterRemoveLiquidity: boolean;
}

/**
 * A V3 Vault buffer for one ERC-4626 token and what the token answers for it. Buffers are not
 * pools: they live beside the pools in a chain's state and snapshot, keyed by the wrapped token
 * (lower case), and are always the chain's values (no subgraph describes them exactly).
 */
export interface StoredBuffer {
  readonly wrappedToken: string;
  readonly underlyingToken: string;
  /** Raw units of each (`getBufferBalance`), as plain integers. */
  readonly underlyingBalance: string;
  readonly wrappedBalance: string;
  /** `areBuffersPaused()`: every wrap and unwrap reverts. */
  readonly buffersPaused: boolean;
  readonly token: StoredErc4626;
}

/**
 * The wrapped token's conversion and limits for the Vault (receiver and owner), raw plain
 * integers. `totals`: an OpenZeppelin ERC4626 (its previews by total assets and supply with the
 * virtual offset), previewed exactly; `rate`: any other token, by `convertToAssets(1e18)`.
 */
export type StoredErc4626 =
  | {
      readonly conversion: 'totals';
      readonly totalAssets: string;
      readonly totalSupply: string;
      readonly decimalsOffset: number;
      /** The Vault's own share balance (what it can redeem). */
      readonly vaultShares: string;
    }
  | {
      readonly conversion: 'rate';
      readonly rate: string;
      readonly maxDeposit: string;
      readonly maxMint: string;
      readonly maxRedeem: string;
      readonly maxWithdraw: string;
    };
