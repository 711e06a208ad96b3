import type { PoolSwapParams, V3SwapKind } from '../poolMath';
import type { V3PoolState } from '../vault/poolState';

/**
 * A V3 hook as the Vault calls it (`IHooks`), for a pool whose hooks contract the service models.
 * Each callback is optional: absent means the pool's hook flags leave it out. A hook that would
 * answer `success = false` on chain throws `Revert` (the Vault reverts with the matching
 * `...HookFailed`).
 *
 * Balances passed in are live scaled18; amounts returned are what the hook contract returns. Amounts
 * a hook adjusts (`after...` returns) count only when `enableHookAdjustedAmounts` is set, as in the
 * Vault; otherwise they are ignored.
 */
export interface V3Hook {
  /** `HooksConfig.enableHookAdjustedAmounts`. */
  readonly enableHookAdjustedAmounts: boolean;
  /** `onComputeDynamicSwapFeePercentage`: the fee this swap pays instead of the static one. */
  computeDynamicSwapFee?(params: PoolSwapParams, pool: V3PoolState, staticSwapFee: bigint): bigint;
  /** `onBeforeSwap`; returns the live balances the swap continues with when the hook moved them. */
  beforeSwap?(params: PoolSwapParams, pool: V3PoolState): readonly bigint[] | undefined;
  /** `onAfterSwap`: the hook-adjusted raw amount calculated. */
  afterSwap?(params: AfterSwapParams, pool: V3PoolState): bigint;
  /** `onBeforeAddLiquidity`; returns the live balances the add continues with when the hook moved them. */
  beforeAddLiquidity?(params: LiquidityHookParams, pool: V3PoolState): readonly bigint[] | undefined;
  /** `onAfterAddLiquidity`: hook-adjusted raw amounts in. */
  afterAddLiquidity?(params: AfterAddLiquidityParams, pool: V3PoolState): readonly bigint[];
  /** `onBeforeRemoveLiquidity`; returns the live balances the remove continues with when the hook moved them. */
  beforeRemoveLiquidity?(params: LiquidityHookParams, pool: V3PoolState): readonly bigint[] | undefined;
  /** `onAfterRemoveLiquidity`: hook-adjusted raw amounts out. */
  afterRemoveLiquidity?(params: AfterRemoveLiquidityParams, pool: V3PoolState): readonly bigint[];
}

/** `AfterSwapParams`: token balances are the pool's after the swap. */
export interface AfterSwapParams {
  readonly kind: V3SwapKind;
  readonly indexIn: number;
  readonly indexOut: number;
  readonly amountInScaled18: bigint;
  readonly amountOutScaled18: bigint;
  readonly tokenInBalanceScaled18: bigint;
  readonly tokenOutBalanceScaled18: bigint;
  readonly amountCalculatedScaled18: bigint;
  readonly amountCalculatedRaw: bigint;
}

export type AddLiquidityKind = 'proportional' | 'unbalanced' | 'singleTokenExactOut';
export type RemoveLiquidityKind = 'proportional' | 'singleTokenExactIn' | 'singleTokenExactOut';

/** What `onBefore{Add,Remove}Liquidity` receive: the caller's limits scaled18 and the live balances. */
export interface LiquidityHookParams {
  readonly kind: AddLiquidityKind | RemoveLiquidityKind;
  /** Max amounts in (add) or min amounts out (remove), scaled18. */
  readonly amountsScaled18: readonly bigint[];
  /** Min BPT out (add) or max BPT in (remove). */
  readonly bptAmount: bigint;
  readonly balancesScaled18: readonly bigint[];
}

export interface AfterAddLiquidityParams {
  readonly kind: AddLiquidityKind;
  readonly amountsInScaled18: readonly bigint[];
  readonly amountsInRaw: readonly bigint[];
  readonly bptAmountOut: bigint;
  /** The pool's live balances after the add. */
  readonly balancesScaled18: readonly bigint[];
}

export interface AfterRemoveLiquidityParams {
  readonly kind: RemoveLiquidityKind;
  readonly bptAmountIn: bigint;
  readonly amountsOutScaled18: readonly bigint[];
  readonly amountsOutRaw: readonly bigint[];
  /** The pool's live balances after the remove. */
  readonly balancesScaled18: readonly bigint[];
}
