import { decimalToUnits } from '../../decimal';
import { mulDown, ONE } from '../../swap/math/fixedPoint';
import { isRevert, Revert } from '../../swap/math/revert';
import {
  UnsupportedPoolError,
  type PoolModel,
  type PoolSpecCore,
  type PoolState,
  type SwapKind,
} from '../../swap/poolModel';
import { largestValid } from '../../swap/limits';

/**
 * The Balancer V2 Vault's operations, written once: what that Vault does around every V2 pool's swap
 * (V3's Vault scales, charges fees and checks otherwise: `domain/protocols/v3/`): the stored pool's identity
 * (lower-cased), its raw balances and the state built on them, token scaling and rates, the swap
 * fee, the Vault's own checks around a swap (a non-negative amount, no payout beyond the balance,
 * balances within 112 bits), the state change a swap makes, and limits found by asking the pool's
 * own swap. A pool type extends `V2VaultPool` with its curve (`poolSwap`), its state's extra fields,
 * its limit estimates and its marginal price.
 */

/** The V2 Vault keeps each balance in 112 bits; a swap or join that would overflow it reverts. */
export const MAX_BALANCE = 2n ** 112n - 1n;

/** Scaling factor of a token: 10^(18 - decimals) as an 18-decimal number, times its rate (mulDown). */
export function scalingFactor(decimals: number, priceRate: string | null | undefined): bigint {
  return mulDown(ONE * 10n ** BigInt(18 - decimals), decimalToUnits(priceRate ?? '1', 18));
}

/** Raw units -> upscaled human units factor of a token as a float: its rate (1 without one). */
export function floatRate(sf: bigint, decimals: number): number {
  return Number(sf) / 1e18 / 10 ** (18 - decimals);
}

/** The swap fee as an 18-decimal fraction, refused outside [0, 1). */
export function parseFee(spec: PoolSpecCore): bigint {
  const fee = decimalToUnits(spec.swapFee, 18);
  if (fee < 0n || fee >= ONE) throw new UnsupportedPoolError(`pool ${spec.id} has a swap fee outside [0, 1)`);
  return fee;
}

/** Whether `f` runs without the contract reverting (other errors are bugs and propagate). */
export function accepts(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (isRevert(e)) return false;
    throw e;
  }
}

/**
 * Spot price in human units of `i` per human unit of `j` from the pool's upscaled marginal price
 * (fee included): the tokens' rates turn upscaled units back into raw ones.
 */
export function withRates(upscaledPrice: number, rates: readonly number[], i: number, j: number): number {
  return upscaledPrice * (rates[j]! / rates[i]!);
}

export abstract class V2VaultPool<S extends PoolState> implements PoolModel<S> {
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly tokens: readonly string[];
  readonly decimals: readonly number[];
  /** Raw balances as stored; every initial state starts from a copy. */
  protected readonly balances: readonly bigint[];

  protected constructor(spec: PoolSpecCore) {
    this.id = spec.id.toLowerCase();
    this.address = spec.address.toLowerCase();
    this.poolType = spec.poolType;
    this.tokens = spec.tokens.map((t) => t.address.toLowerCase());
    this.decimals = spec.tokens.map((t) => t.decimals);
    this.balances = spec.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
  }

  /** The pool's state at `balances` (a fresh array it may keep) with its stored extra fields. */
  protected abstract stateAt(balances: bigint[]): S;

  /**
   * The pool's own answer for a swap the Vault let through (a pair it swaps, a non-negative
   * amount), scaling and fee included; its reverts propagate. The Vault's balance checks follow.
   */
  protected abstract poolSwap(state: S, kind: SwapKind, i: number, j: number, amount: bigint): bigint;

  abstract maxAmount(state: S, kind: SwapKind, i: number, j: number): bigint;
  abstract spotPrice(state: S, i: number, j: number): number;

  initialState(): S {
    return this.stateAt([...this.balances]);
  }

  cloneState(state: S): S {
    // Extra fields are immutable values or memos of the balances they were made for: shared.
    return { ...state, balances: [...state.balances] };
  }

  canSwap(i: number, j: number): boolean {
    return i !== j && this.isIndex(i) && this.isIndex(j);
  }

  swap(state: S, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    if (!this.canSwap(i, j)) throw this.refusal(i, j);
    if (amount < 0n) throw new Revert('negative amount');
    const result = this.poolSwap(state, kind, i, j, amount);
    const b = state.balances;
    const amountIn = kind === 'givenIn' ? amount : result;
    const amountOut = kind === 'givenIn' ? result : amount;
    if (amountOut > b[j]!) throw new Revert('amount out above the pool balance (BAL#001)');
    if (b[i]! + amountIn > MAX_BALANCE) throw new Revert('balance above 2^112 (BAL#526)');
    return result;
  }

  apply(state: S, i: number, j: number, amountIn: bigint, amountOut: bigint): void {
    state.balances[i] = state.balances[i]! + amountIn;
    state.balances[j] = state.balances[j]! - amountOut;
  }

  /** The revert for a pair `canSwap` refuses. */
  protected refusal(i: number, j: number): Revert {
    return new Revert(`no swap from token ${i} to ${j} in this pool`);
  }

  protected isIndex(k: number): boolean {
    return Number.isInteger(k) && k >= 0 && k < this.tokens.length;
  }

  /** What the Vault answers a join or exit naming a token the pool does not hold. */
  protected checkToken(k: number): void {
    if (!this.isIndex(k)) throw new Revert(`no token ${k} in this pool (BAL#100)`);
  }

  /** Whether the pool takes this swap: what limit searches ask. */
  protected accepts(state: S, kind: SwapKind, i: number, j: number, amount: bigint): boolean {
    return accepts(() => this.swap(state, kind, i, j, amount));
  }

  /** The largest amount up to `candidate` (within 2^-32) the pool takes, by its own answer. */
  protected largestAccepted(state: S, kind: SwapKind, i: number, j: number, candidate: bigint): bigint {
    return largestValid(candidate, (a) => this.accepts(state, kind, i, j, a));
  }
}
