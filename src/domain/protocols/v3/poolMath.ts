/**
 * What a Balancer V3 pool type's math implements: the calls the V3 Vault makes on a pool (`IBasePool`),
 * all on live balances scaled to 18 decimals with the token rates applied. The Vault's operations
 * (`vault/`) does the scaling, fees and limits around them; a type only prices.
 *
 * A type whose state moves with time (interpolated weights, ReClamm's virtual balances) is built
 * for one timestamp: the object answers as the pool would in a block with that timestamp.
 */

/** V3 `IVault`'s `SwapKind.EXACT_IN` / `EXACT_OUT`: which side of the swap the caller fixes. */
export type V3SwapKind = 'exactIn' | 'exactOut';

/** `Rounding.ROUND_UP` / `ROUND_DOWN`, as the Vault asks a pool to round its invariant. */
export type Rounding = 'up' | 'down';

/** `PoolSwapParams` without the router and user data no pool type here reads. */
export interface PoolSwapParams {
  readonly kind: V3SwapKind;
  /** The amount the caller fixes, scaled18; for exact in, after the Vault took the swap fee off. */
  readonly amountGivenScaled18: bigint;
  readonly balancesScaled18: readonly bigint[];
  readonly indexIn: number;
  readonly indexOut: number;
}

export interface V3PoolMath {
  /** Amount out (exact in) or in (exact out), scaled18, before the Vault's swap fee on exact out. */
  onSwap(params: PoolSwapParams): bigint;
  computeInvariant(balancesLiveScaled18: readonly bigint[], rounding: Rounding): bigint;
  /** The balance of `tokenIndex` that makes the invariant `invariantRatio` times today's. */
  computeBalance(balancesLiveScaled18: readonly bigint[], tokenIndex: number, invariantRatio: bigint): bigint;
  /** Bounds on the invariant ratio of a single-token or unbalanced add (max) and remove (min). */
  readonly minimumInvariantRatio: bigint;
  readonly maximumInvariantRatio: bigint;
  /**
   * Where the type caps a swap's size as a share of a balance (weighted pools: 30% of the balance in
   * for exact in, of the balance out for exact out): routes use it to size trades. `onSwap` enforces
   * the cap itself.
   */
  readonly maxSwapRatio?: { readonly in: bigint; readonly out: bigint };
}
