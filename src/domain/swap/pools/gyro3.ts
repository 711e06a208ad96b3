import { decimalToUnits } from '../../decimal';
import * as G3 from '../math/gyro3Math';
import { ONE } from '../math/gyroFixedPoint';
import { PoolMathError, UnsupportedPoolError, type ModelFactory, type PoolModel, type PoolSpec, type PoolState, type SwapKind } from '../poolModel';
import { accepts, floatRate, framedSwap, gyroFrame, gyroMath, gyroParam, upscale, type GyroFrame } from './gyroCommon';
import { largestValid } from './limits';
import { MAX_BALANCE } from './stable';

/**
 * Gyroscope 3-CLPs ('Gyro3', v1: 2022, Polygon): three tokens, one price range [alpha, 1/alpha]
 * for every pair, parameter root3Alpha. Swaps are BaseMinimalSwapInfoPool's frame (fee off the
 * raw amount in, or onto the downscaled amount in) around Gyro3CLPMath: every swap solves the
 * invariant from the balances (token in, token out, third token, in that order) and uses the one
 * virtual offset L * root3Alpha (math/gyro3Math.ts). Later 3-CLPs with rate providers are not
 * carried (their contract is not public in the sources this port reads). Joins and exits are
 * proportional only, so the model offers swaps alone.
 */

interface Gyro3Memo {
  readonly balances: readonly bigint[];
  readonly offset: bigint;
}

export interface Gyro3State extends PoolState {
  /** Virtual offset per third-token index for the current balances (the invariant's rounding depends on the order). */
  memo?: readonly (Gyro3Memo | undefined)[];
}

export class Gyro3Model implements PoolModel<Gyro3State> {
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly tokens: readonly string[];
  readonly decimals: readonly number[];
  readonly root3Alpha: bigint;
  readonly frame: GyroFrame;
  private readonly swapEnabled: boolean;
  private readonly balances: readonly bigint[];
  private readonly rates: readonly number[];

  constructor(spec: PoolSpec) {
    this.id = spec.id.toLowerCase();
    this.address = spec.address.toLowerCase();
    this.poolType = spec.poolType;
    this.tokens = spec.tokens.map((t) => t.address.toLowerCase());
    this.decimals = spec.tokens.map((t) => t.decimals);
    if (this.tokens.length !== 3) throw new UnsupportedPoolError(`Gyro3 pool ${spec.id} has ${this.tokens.length} tokens`);
    this.root3Alpha = gyroParam(spec, 'root3Alpha', 18);
    if (this.root3Alpha < G3.MIN_ROOT_3_ALPHA || this.root3Alpha > G3.MAX_ROOT_3_ALPHA) {
      throw new UnsupportedPoolError(`Gyro3 pool ${spec.id} has root3Alpha outside the contract's bounds (GYR#351)`);
    }
    this.frame = gyroFrame(spec, false);
    this.swapEnabled = spec.swapEnabled !== false;
    this.balances = spec.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
    this.rates = this.frame.scalingFactors.map((sf, k) => floatRate(sf, this.decimals[k]!));
  }

  initialState(): Gyro3State {
    return { balances: [...this.balances] };
  }

  cloneState(state: Gyro3State): Gyro3State {
    return { balances: [...state.balances], memo: state.memo };
  }

  canSwap(i: number, j: number): boolean {
    return this.swapEnabled && i !== j && [i, j].every((k) => Number.isInteger(k) && k >= 0 && k < 3);
  }

  swap(state: Gyro3State, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    if (!this.canSwap(i, j)) throw new PoolMathError(this.swapEnabled ? `no swap from token ${i} to ${j} in this pool` : 'pool is paused (BAL#211)');
    if (amount < 0n) throw new PoolMathError('negative amount');
    if (amount === 0n) return 0n;
    const b = state.balances;
    if (kind === 'givenIn' && b[i]! + amount > MAX_BALANCE) throw new PoolMathError('balance above 2^112 (BAL#526)');
    const sf = this.frame.scalingFactors;
    const result = gyroMath(() => {
      const offset = this.offset(state, i, j);
      const upIn = upscale(b[i]!, sf[i]!);
      const upOut = upscale(b[j]!, sf[j]!);
      return framedSwap(this.frame, kind, i, j, amount, (a) => (kind === 'givenIn'
        ? G3.calcOutGivenIn(upIn, upOut, a, offset)
        : G3.calcInGivenOut(upIn, upOut, a, offset)));
    });
    if (kind === 'givenOut' && amount > b[j]!) throw new PoolMathError('amount out above the pool balance (BAL#001)');
    if (kind === 'givenOut' && b[i]! + result > MAX_BALANCE) throw new PoolMathError('balance above 2^112 (BAL#526)');
    return result;
  }

  apply(state: Gyro3State, i: number, j: number, amountIn: bigint, amountOut: bigint): void {
    state.balances[i] = state.balances[i]! + amountIn;
    state.balances[j] = state.balances[j]! - amountOut;
  }

  maxAmount(state: Gyro3State, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    const ok = (k: SwapKind) => (a: bigint): boolean => accepts(() => this.swap(state, k, i, j, a));
    if (kind === 'givenOut') return largestValid(state.balances[j]!, ok('givenOut'));
    const cap = MAX_BALANCE - state.balances[i]!;
    const estimate = this.inEstimate(state, i, j);
    return largestValid(estimate !== undefined && estimate < cap ? estimate : cap, ok('givenIn'));
  }

  spotPrice(state: Gyro3State, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    let offset: bigint;
    try {
      offset = gyroMath(() => this.offset(state, i, j));
    } catch {
      return Infinity;
    }
    const sf = this.frame.scalingFactors;
    const virtIn = Number(upscale(state.balances[i]!, sf[i]!) + offset);
    const virtOut = Number(upscale(state.balances[j]!, sf[j]!) + offset);
    const fee = Number(this.frame.fee) / 1e18;
    return (virtIn / virtOut) / (1 - fee) * (this.rates[j]! / this.rates[i]!);
  }

  /** The amount in at which the amount out would reach the balance out, back to raw with the fee. */
  private inEstimate(state: Gyro3State, i: number, j: number): bigint | undefined {
    try {
      const offset = gyroMath(() => this.offset(state, i, j));
      const sf = this.frame.scalingFactors;
      const upIn = upscale(state.balances[i]!, sf[i]!);
      const upOut = upscale(state.balances[j]!, sf[j]!);
      const virtInOver = upIn + (offset * (ONE + 2n)) / ONE + 1n;
      const gap = (offset * (ONE - 1n)) / ONE;
      if (upOut === 0n || gap <= 0n) return undefined;
      const rawAfterFee = (((upOut * virtInOver) / gap) * ONE) / sf[i]! + 1n;
      return (rawAfterFee * ONE) / (ONE - this.frame.fee) + 1n;
    } catch {
      return undefined;
    }
  }

  private offset(state: Gyro3State, i: number, j: number): bigint {
    const third = 3 - i - j;
    const b = state.balances;
    const cached = state.memo?.[third];
    if (cached && cached.balances.every((x, k) => x === b[k])) return cached.offset;
    const sf = this.frame.scalingFactors;
    // The pool passes (in, out, third); in and out commute in every rounding, the third does not.
    const [p, q] = i < j ? [i, j] : [j, i];
    const invariant = G3.calculateInvariant([upscale(b[p]!, sf[p]!), upscale(b[q]!, sf[q]!), upscale(b[third]!, sf[third]!)], this.root3Alpha);
    const offset = G3.virtualOffset(invariant, this.root3Alpha);
    const memo = [...(state.memo ?? [undefined, undefined, undefined])];
    memo[third] = { balances: [...b], offset };
    state.memo = memo;
    return offset;
  }
}

export const createGyro3Model: ModelFactory = (spec) => {
  const version = spec.poolTypeVersion ?? 1;
  if (spec.poolType !== 'Gyro3') throw new UnsupportedPoolError(`${spec.poolType} is not a Gyro3 pool`);
  if (version !== 1) throw new UnsupportedPoolError(`Gyro3 v${version} is not carried`);
  return new Gyro3Model(spec);
};
