import type { PathRole } from '../../../poolTypes/poolTypeDef';
import { justBelow, largestValid } from '../../../swap/limits';
import { isRevert, type PoolModel, type PoolState, type SwapKind } from '../../../swap/poolModel';
import { mulDown } from '../../../swap/math/fixedPoint';
import { v3Revert } from '../vault/errors';
import { DEPLOYED_VAULT_LIMITS, type V3VaultLimits } from '../vault/limits';
import type { V3PoolState } from '../vault/poolState';
import { toRawUndoRateRoundDown } from '../vault/scaling';
import { vaultSwap, type V3SwapResult } from '../vault/swap';
import type { V3Pool } from '../vault/v3Pool';
import { SwapResults } from './swapResults';
import { v3SwapKindOf } from './swapKind';

/**
 * A Balancer V3 pool as the routing engine sees it (`PoolModel`, domain/swap/poolModel.ts): every
 * swap goes through the V3 Vault's operations (`vault/swap.ts`) over the type's math and hook, so the
 * engine's candidates, search and split route V3 pools with the same code as V2 ones, and the
 * amounts are the Vault's to the wei. Any V3 type whose `V3PoolMath` exists is routable this way.
 */

/** The Vault's balances are 128-bit halves of a packed slot (`PackedTokenBalance`): no balance goes beyond. */
const MAX_BALANCE = 2n ** 128n - 1n;

export interface V3ModelState extends PoolState {
  /** The pool's state as the Vault holds it now: live (and raw) balances move with each applied swap. */
  vaultState: V3PoolState;
}

export interface V3PoolModelInput {
  /** The pool at the quote's state and timestamp: the Vault state, its type's math, its hook. */
  readonly pool: V3Pool;
  /** Token decimals in the Vault's order. */
  readonly decimals: readonly number[];
  /** The stored pool type (e.g. 'Weighted', 'Stable'), which the path graph reads for the type's path role. */
  readonly poolType: string;
  /** Its type's path role (an LBP: only on a hop that buys or sells its own tokens). */
  readonly pathRole?: PathRole;
  /** What a quote through it assumes (its hook priced for a case the chain may not be in). */
  readonly assumption?: string;
  /** The Vault's minimums, where a devnet Vault was deployed with others. */
  readonly limits?: V3VaultLimits;
}

/** The last swap a state was asked, so `apply` records the Vault's own balances after it. */
interface Priced {
  readonly i: number;
  readonly j: number;
  readonly result: V3SwapResult;
}

export class V3PoolModel implements PoolModel<V3ModelState> {
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly pathRole?: PathRole;
  readonly assumption?: string;
  readonly tokens: readonly string[];
  readonly decimals: readonly number[];
  private readonly pool: V3Pool;
  private readonly limits: V3VaultLimits;
  private readonly priced = new WeakMap<V3ModelState, Priced>();
  private readonly results = new SwapResults();

  constructor(input: V3PoolModelInput) {
    this.pool = input.pool;
    this.address = input.pool.state.address.toLowerCase();
    // V3 pools are keyed by their address: it is what a BatchRouter step names.
    this.id = this.address;
    this.poolType = input.poolType;
    if (input.pathRole !== undefined) this.pathRole = input.pathRole;
    if (input.assumption !== undefined) this.assumption = input.assumption;
    this.tokens = input.pool.state.tokens.map((t) => t.toLowerCase());
    this.decimals = input.decimals;
    this.limits = input.limits ?? DEPLOYED_VAULT_LIMITS;
    if (this.decimals.length !== this.tokens.length) {
      throw new Error(`pool ${this.address}: ${this.decimals.length} decimals for ${this.tokens.length} tokens`);
    }
  }

  initialState(): V3ModelState {
    const vaultState = this.pool.state;
    return { balances: rawBalances(vaultState), vaultState };
  }

  cloneState(state: V3ModelState): V3ModelState {
    // The Vault state is replaced, never mutated, so sharing it is a copy.
    return { balances: [...state.balances], vaultState: state.vaultState };
  }

  canSwap(i: number, j: number): boolean {
    const vaultState = this.pool.state;
    return (
      i !== j &&
      i >= 0 &&
      j >= 0 &&
      i < this.tokens.length &&
      j < this.tokens.length &&
      !vaultState.paused &&
      !vaultState.inRecoveryMode
    );
  }

  swap(state: V3ModelState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    const result = this.run(state, kind, i, j, amount);
    this.priced.set(state, { i, j, result });
    return result.amountCalculatedRaw;
  }

  apply(state: V3ModelState, i: number, j: number, amountIn: bigint, amountOut: bigint): void {
    const result = this.resultOf(state, i, j, amountIn, amountOut);
    const vaultState = state.vaultState;
    const live = result.balancesLiveScaled18After;
    state.vaultState = {
      ...vaultState,
      balancesLiveScaled18: live,
      ...(result.balancesRawAfter ? { balancesRaw: result.balancesRawAfter } : {}),
      // The Vault stores the live balances after each operation: yield is measured from them next.
      ...(vaultState.yieldFee ? { yieldFee: { ...vaultState.yieldFee, lastLiveBalances: live } } : {}),
    };
    state.balances.splice(0, state.balances.length, ...rawBalances(state.vaultState));
    this.priced.delete(state);
  }

  maxAmount(state: V3ModelState, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    const ratio = this.pool.math.maxSwapRatio;
    const balances = state.balances;
    const maxIn = ratio ? mulDown(balances[i]!, ratio.in) : MAX_BALANCE - balances[i]!;
    const maxOut = ratio ? mulDown(balances[j]!, ratio.out) : balances[j]! - 1n;
    const ok = (amount: bigint) => this.accepts(state, kind, i, j, amount);
    // Where the other side's cap binds first (QuantAMM's trade-size cap on the amount out of an
    // exact in; a ReClamm or Gyro pool running out of the token out), the swap at that cap names
    // the limit on this side.
    const other: SwapKind = kind === 'givenIn' ? 'givenOut' : 'givenIn';
    const guess = () => this.calculated(state, other, i, j, kind === 'givenIn' ? maxOut : maxIn);
    return largestValid(kind === 'givenIn' ? maxIn : maxOut, ok, guess);
  }

  /** The other amount of a swap of `amount` or, when it is refused, of just below it; a limit search's, not kept. */
  private calculated(state: V3ModelState, kind: SwapKind, i: number, j: number, amount: bigint): bigint | undefined {
    for (const a of [amount, justBelow(amount)]) {
      if (a <= 0n) return undefined;
      try {
        return this.run(state, kind, i, j, a, false).amountCalculatedRaw;
      } catch (e) {
        if (!isRevert(e)) throw e;
      }
    }
    return undefined;
  }

  spotPrice(state: V3ModelState, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    // A trade small against the pool, priced exactly: its ratio is the marginal price with the fee.
    // Sized from the token in, or from the token out when the pool holds none of the token in yet
    // (a token sale's reserve starts at zero: its first buyers' trades are priced all the same).
    for (const share of [1_000_000n, 10_000n]) {
      const amountIn = state.balances[i]! / share;
      const amountOut = state.balances[j]! / share;
      const probe =
        amountIn > 0n ? this.probe(state, 'givenIn', i, j, amountIn) : this.probe(state, 'givenOut', i, j, amountOut);
      if (!probe) continue;
      return Number(probe.in) / 10 ** this.decimals[i]! / (Number(probe.out) / 10 ** this.decimals[j]!);
    }
    return Infinity;
  }

  /** Both amounts of a swap of `amount`, or undefined when the pool refuses it or it moves nothing. */
  private probe(
    state: V3ModelState,
    kind: SwapKind,
    i: number,
    j: number,
    amount: bigint,
  ): { in: bigint; out: bigint } | undefined {
    if (amount <= 0n) return undefined;
    let calculated: bigint;
    try {
      calculated = this.run(state, kind, i, j, amount).amountCalculatedRaw;
    } catch (e) {
      if (isRevert(e)) return undefined;
      throw e;
    }
    if (calculated <= 0n) return undefined;
    return kind === 'givenIn' ? { in: amount, out: calculated } : { in: calculated, out: amount };
  }

  /** The Vault's swap; kept for the state unless `keep` is false (a limit search's amounts are asked once). */
  private run(state: V3ModelState, kind: SwapKind, i: number, j: number, amount: bigint, keep = true): V3SwapResult {
    if (kind === 'givenIn' && amount > MAX_BALANCE - state.balances[i]!) {
      throw v3Revert('BalanceOverflow', `balance of token ${i} would exceed 128 bits`);
    }
    const kept = keep ? this.results.get(state.vaultState, kind, i, j, amount) : undefined;
    if (kept) return kept;
    const result = vaultSwap(
      { ...this.pool, state: state.vaultState },
      {
        kind: v3SwapKindOf(kind),
        tokenIn: this.tokens[i]!,
        tokenOut: this.tokens[j]!,
        amountGivenRaw: amount,
      },
      this.limits,
    );
    if (keep) this.results.keep(state.vaultState, kind, i, j, amount, result);
    return result;
  }

  private accepts(state: V3ModelState, kind: SwapKind, i: number, j: number, amount: bigint): boolean {
    try {
      this.run(state, kind, i, j, amount, false);
      return true;
    } catch (e) {
      if (isRevert(e)) return false;
      throw e;
    }
  }

  /**
   * The Vault's result of the swap that moved these amounts: the one just priced on this state, or
   * priced again from the side that reproduces both amounts (the Vault's balances after an exact-in
   * and an exact-out swap of the same amounts can differ by the fee's rounding).
   */
  private resultOf(state: V3ModelState, i: number, j: number, amountIn: bigint, amountOut: bigint): V3SwapResult {
    const last = this.priced.get(state);
    const matches = (r: V3SwapResult) => r.amountInRaw === amountIn && r.amountOutRaw === amountOut;
    if (last && last.i === i && last.j === j && matches(last.result)) return last.result;
    // A side already asked of this Vault state costs nothing, so it goes first; else exact out first.
    const keptOut = this.results.get(state.vaultState, 'givenOut', i, j, amountOut);
    const keptIn = this.results.get(state.vaultState, 'givenIn', i, j, amountIn);
    for (const kept of [keptOut, keptIn]) if (kept && matches(kept)) return kept;
    const exactOut = keptOut ?? this.run(state, 'givenOut', i, j, amountOut);
    if (matches(exactOut)) return exactOut;
    const exactIn = keptIn ?? this.run(state, 'givenIn', i, j, amountIn);
    if (matches(exactIn)) return exactIn;
    throw new Error(`pool ${this.address}: no swap of ${amountIn} in for ${amountOut} out to record`);
  }
}

/** Raw balances in the Vault's order: as stored where known, else undone from the live ones. */
function rawBalances(vaultState: V3PoolState): bigint[] {
  if (vaultState.balancesRaw) return [...vaultState.balancesRaw];
  return vaultState.balancesLiveScaled18.map((b, k) =>
    toRawUndoRateRoundDown(b, vaultState.scalingFactors[k]!, vaultState.tokenRates[k]!),
  );
}
