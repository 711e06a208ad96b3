export { isRevert, Revert } from './math/revert';

/**
 * One interface for every pool type the engine routes through. A model is built once per pool
 * version from the stored pool (`PoolSpec`) and holds the pool's parameters as bigint; the changing
 * part (balances, supply) lives in a `PoolState` the caller owns, so one model serves every quote
 * and a batch replay can thread one state through several swaps of the same pool.
 *
 * Amounts are raw token units (bigint). `swap` is the Vault's own arithmetic for the pool's
 * `onSwap`, rounding included: what it returns is what the chain pays, to the wei, while the pool
 * holds the state's balances. Where the contract reverts, it throws `Revert` (math/revert.ts).
 */

/** V2 `IVault.SwapKind.GIVEN_IN` / `GIVEN_OUT`: the engine's kind for every pool (V3 models convert it, `v3SwapKindOf`). */
export type SwapKind = 'givenIn' | 'givenOut';

/**
 * A stored pool no model is built for: a type or version whose arithmetic this engine does not
 * carry, or parameters the pool's contract would not have been deployed with.
 */
export class UnsupportedPoolError extends Error {
  override readonly name = 'UnsupportedPoolError';
}

/** What the models read of a stored pool: decimal strings as the store keeps them. */
export interface PoolSpecToken {
  readonly address: string;
  /** Human units (at most `decimals` fraction digits). */
  readonly balance: string;
  readonly decimals: number;
  readonly weight?: string | null;
  readonly priceRate?: string | null;
  // A pool type's own token fields (`tokenParams`) ride along; its spec (`SpecOf`) types them.
}

/** What every pool type's model reads. */
export interface PoolSpecCore {
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly poolTypeVersion?: number | null;
  /** 18-decimal fraction, e.g. "0.003". */
  readonly swapFee: string;
  /** Human BPT units; for pools whose BPT is one of their tokens this is the virtual supply. */
  readonly totalShares: string;
  readonly amp?: string | null;
  readonly swapEnabled?: boolean;
  readonly tokens: readonly PoolSpecToken[];
}

/**
 * The engine's input: the core fields every pool has, which is all the engine reads. Each pool's type
 * parameters travel with it (`poolTypes/poolSpec.ts` writes every one the registry stores, null
 * where the pool lacks it), and only its type's model reads them, through its own spec type
 * (`SpecOf` in `poolTypes/paramField.ts`: the core fields plus the fields its definition declares), so
 * a model cannot read a field its type does not declare.
 */
export type PoolSpec = PoolSpecCore;

/** What a model may depend on beyond the pool itself. */
export interface ModelContext {
  /** Unix seconds the quote is priced at (Element pools' time to maturity). */
  readonly timestamp: number;
}

/**
 * The mutable part of a pool: the Vault's raw balances in the pool's token order, plus whatever
 * the model keeps beside them (e.g. a BPT total supply). Only the model that created a state reads
 * or writes its extra fields.
 */
export interface PoolState {
  readonly balances: bigint[];
}

export interface PoolModel<S extends PoolState = PoolState> {
  /** Lower-case pool id and address (the BPT). */
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  /**
   * Where a route may use it, when its type's protocol is not V2's (the path graph asks the
   * registry by `poolType` otherwise, `graph.ts`): a `PathRole` (`poolTypes/poolTypeDef.ts`, which
   * imports this file).
   */
  readonly pathRole?: 'through' | 'ends';
  /** What a quote through it assumes of the transaction, where it assumes anything (a V3 hook priced for one case). */
  readonly assumption?: string;
  /** Lower-case token addresses in the Vault's order (the BPT included where the pool holds it). */
  readonly tokens: readonly string[];
  readonly decimals: readonly number[];

  /** A fresh state at the stored balances; every call returns an independent copy. */
  initialState(): S;
  /** Copy of a state, so a search can try a swap without touching the original. */
  cloneState(state: S): S;

  /** Whether the Vault accepts a swap from token index `i` to `j` in this pool. */
  canSwap(i: number, j: number): boolean;
  /**
   * The pool's exact answer to one swap: amount out for `givenIn`, amount in for `givenOut`
   * (fees included, Vault rounding). Does not change `state`. Throws `Revert` where the
   * contract reverts.
   */
  swap(state: S, kind: SwapKind, i: number, j: number, amount: bigint): bigint;
  /** Records a swap that happened (the Vault's balance change and the pool's own bookkeeping). */
  apply(state: S, i: number, j: number, amountIn: bigint, amountOut: bigint): void;
  /**
   * The largest amount `swap` accepts for `i -> j`: raw amount in for `givenIn`, raw amount out
   * for `givenOut`. Used to bound searches; a swap at exactly this amount must not revert.
   */
  maxAmount(state: S, kind: SwapKind, i: number, j: number): bigint;
  /**
   * Marginal price, fees included: human units of token `i` paid per human unit of token `j`
   * received, at the state's balances. A float: for search and price impact, never for amounts.
   */
  spotPrice(state: S, i: number, j: number): number;
}

/**
 * Pools whose BPT is not one of their own tokens (weighted, stable v1/v2, metastable) enter and
 * leave a route through `Vault.joinPool` / `exitPool` (sent by the batch relayer), single-token
 * forms only. The state of such a model carries the BPT total supply.
 */
export interface JoinExitModel<S extends PoolState = PoolState> {
  /** BPT minted for `amountIn` of token `i` (EXACT_TOKENS_IN_FOR_BPT_OUT with one non-zero amount). */
  joinGivenIn(state: S, i: number, amountIn: bigint): bigint;
  /** Token `i` paid out for `bptIn` (EXACT_BPT_IN_FOR_ONE_TOKEN_OUT). */
  exitGivenIn(state: S, i: number, bptIn: bigint): bigint;
  applyJoin(state: S, i: number, amountIn: bigint, bptOut: bigint): void;
  applyExit(state: S, i: number, bptIn: bigint, amountOut: bigint): void;
  /** Largest raw amount of token `i` a single-token join accepts. */
  maxJoin(state: S, i: number): bigint;
  /** Largest BPT amount a single-token exit to `i` accepts. */
  maxExit(state: S, i: number): bigint;
}

export function canJoinExit<S extends PoolState>(model: PoolModel<S>): model is PoolModel<S> & JoinExitModel<S> {
  return typeof (model as Partial<JoinExitModel<S>>).joinGivenIn === 'function';
}

/**
 * Builds a pool type's model from its spec (`S`: the core fields and the fields its type declares);
 * throws `UnsupportedPoolError` for a pool whose parameters its contract would not take.
 */
export type ModelFactory<S extends PoolSpecCore = PoolSpec> = (spec: S, ctx: ModelContext) => PoolModel;
