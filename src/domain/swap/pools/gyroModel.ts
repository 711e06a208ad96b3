import { decimalToUnits } from '../../decimal';
import { ONE } from '../math/gyroFixedPoint';
import {
  Revert,
  UnsupportedPoolError,
  type PoolModel,
  type PoolSpec,
  type PoolState,
  type SwapKind,
} from '../poolModel';
import { accepts, floatRate, framedSwap, gyroFrame, type GyroFrame } from './gyroCommon';
import { largestValid } from './limits';
import { MAX_BALANCE } from './stable';

/**
 * What a Gyroscope pool model (2-CLP, 3-CLP, E-CLP) does around its curve, once: the stored
 * pool's identity and balances, the Vault's balance checks around a swap, the fee-and-scaling
 * frame (`framedSwap`), state bookkeeping, limits found by the pool's own reverts, and the spot
 * price's fee and rates. A pool type supplies its curve on upscaled units, the upscaled marginal
 * price and an estimate of the largest amount in.
 */
export abstract class GyroPoolModel<S extends PoolState> implements PoolModel<S> {
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly tokens: readonly string[];
  readonly decimals: readonly number[];
  readonly frame: GyroFrame;
  protected readonly swapEnabled: boolean;
  private readonly balances: readonly bigint[];
  private readonly rates: readonly number[];

  protected constructor(spec: PoolSpec, tokenCount: number, withRates: boolean) {
    this.id = spec.id.toLowerCase();
    this.address = spec.address.toLowerCase();
    this.poolType = spec.poolType;
    this.tokens = spec.tokens.map((t) => t.address.toLowerCase());
    this.decimals = spec.tokens.map((t) => t.decimals);
    if (this.tokens.length !== tokenCount)
      throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has ${this.tokens.length} tokens`);
    this.frame = gyroFrame(spec, withRates);
    this.swapEnabled = spec.swapEnabled !== false;
    this.balances = spec.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
    this.rates = this.frame.scalingFactors.map((sf, k) => floatRate(sf, this.decimals[k]!));
  }

  /** The pool's curve for this swap: upscaled amount given -> upscaled amount out (given in) or in before the fee (given out). */
  protected abstract curve(state: S, kind: SwapKind, i: number, j: number): (upscaled: bigint) => bigint;
  /** Upscaled token in per upscaled token out at the margin, before the fee; undefined where the math reverts. */
  protected abstract marginalPrice(state: S, i: number, j: number): number | undefined;
  /** Upscaled amount in past which the swap leaves the curve's range; undefined when unknown. */
  protected abstract upscaledInLimit(state: S, i: number, j: number): bigint | undefined;
  /** Appended to the "no swap" message (the E-CLP names its own revert code). */
  protected readonly noSwapCode: string = '';

  initialState(): S {
    return { balances: [...this.balances] } as S;
  }

  cloneState(state: S): S {
    // Memos are pure functions of the balances they were made for, so a clone may share them.
    return { ...state, balances: [...state.balances] };
  }

  canSwap(i: number, j: number): boolean {
    return this.swapEnabled && i !== j && [i, j].every((k) => Number.isInteger(k) && k >= 0 && k < this.tokens.length);
  }

  swap(state: S, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    if (!this.canSwap(i, j))
      throw new Revert(
        this.swapEnabled
          ? `no swap from token ${i} to ${j} in this pool${this.noSwapCode}`
          : 'pool is paused (BAL#211)',
      );
    if (amount < 0n) throw new Revert('negative amount');
    if (amount === 0n) return 0n;
    const b = state.balances;
    if (kind === 'givenIn' && b[i]! + amount > MAX_BALANCE) throw new Revert('balance above 2^112 (BAL#526)');
    const result = framedSwap(this.frame, kind, i, j, amount, this.curve(state, kind, i, j));
    if (kind === 'givenOut' && amount > b[j]!) throw new Revert('amount out above the pool balance (BAL#001)');
    if (kind === 'givenOut' && b[i]! + result > MAX_BALANCE) throw new Revert('balance above 2^112 (BAL#526)');
    return result;
  }

  apply(state: S, i: number, j: number, amountIn: bigint, amountOut: bigint): void {
    state.balances[i] = state.balances[i]! + amountIn;
    state.balances[j] = state.balances[j]! - amountOut;
  }

  maxAmount(state: S, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    const ok =
      (k: SwapKind) =>
      (a: bigint): boolean =>
        accepts(() => this.swap(state, k, i, j, a));
    if (kind === 'givenOut') return largestValid(state.balances[j]!, ok('givenOut'));
    const cap = MAX_BALANCE - state.balances[i]!;
    const estimate = this.inEstimate(state, i, j);
    return largestValid(estimate !== undefined && estimate < cap ? estimate : cap, ok('givenIn'));
  }

  spotPrice(state: S, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    const price = this.marginalPrice(state, i, j);
    if (price === undefined || !(price > 0)) return Infinity;
    const fee = Number(this.frame.fee) / 1e18;
    return (price / (1 - fee)) * (this.rates[j]! / this.rates[i]!);
  }

  /** The raw amount in (fee included, rounded up) whose upscaled part reaches the curve's limit. */
  private inEstimate(state: S, i: number, j: number): bigint | undefined {
    let upscaledIn: bigint | undefined;
    try {
      upscaledIn = this.upscaledInLimit(state, i, j);
    } catch {
      return undefined;
    }
    if (upscaledIn === undefined || upscaledIn <= 0n) return undefined;
    const rawAfterFee = (upscaledIn * ONE) / this.frame.scalingFactors[i]! + 1n;
    return (rawAfterFee * ONE) / (ONE - this.frame.fee) + 1n;
  }
}
