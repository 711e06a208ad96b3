import { decimalToUnits } from '../../decimal';
import * as G2 from '../math/gyro2Math';
import { ONE } from '../math/gyroFixedPoint';
import { PoolMathError, UnsupportedPoolError, type ModelFactory, type PoolModel, type PoolSpec, type PoolState, type SwapKind } from '../poolModel';
import { accepts, floatRate, framedSwap, gyroFrame, gyroMath, gyroParam, upscale, type GyroFrame } from './gyroCommon';
import { largestValid } from './limits';
import { MAX_BALANCE } from './stable';

/**
 * Gyroscope 2-CLPs ('Gyro2'): v1 (2022, Polygon) and v2 (2023, rate providers on either token;
 * the rate is the stored token priceRate). Both run the same onSwap: the swap fee comes off the
 * raw amount in (given in) or onto the downscaled amount in (given out), balances are upscaled,
 * and every swap recomputes the invariant L from the balances in token order and the virtual
 * offsets L / sqrt(beta) (token 0) and L sqrt(alpha) (token 1) from it (math/gyro2Math.ts).
 * Joins and exits are proportional only, so the model offers swaps alone.
 */

interface Gyro2Memo {
  readonly b0: bigint;
  readonly b1: bigint;
  readonly up: readonly [bigint, bigint];
  /** Virtual offsets of token 0 and token 1. */
  readonly offsets: readonly [bigint, bigint];
}

export interface Gyro2State extends PoolState {
  /** The invariant's consequences for the current balances: a pure function of them, kept until they change. */
  memo?: Gyro2Memo;
}

export class Gyro2Model implements PoolModel<Gyro2State> {
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly tokens: readonly string[];
  readonly decimals: readonly number[];
  readonly sqrtAlpha: bigint;
  readonly sqrtBeta: bigint;
  readonly frame: GyroFrame;
  private readonly swapEnabled: boolean;
  private readonly balances: readonly bigint[];
  private readonly rates: readonly number[];

  constructor(spec: PoolSpec, withRates: boolean) {
    this.id = spec.id.toLowerCase();
    this.address = spec.address.toLowerCase();
    this.poolType = spec.poolType;
    this.tokens = spec.tokens.map((t) => t.address.toLowerCase());
    this.decimals = spec.tokens.map((t) => t.decimals);
    if (this.tokens.length !== 2) throw new UnsupportedPoolError(`Gyro2 pool ${spec.id} has ${this.tokens.length} tokens`);
    this.sqrtAlpha = gyroParam(spec, 'sqrtAlpha', 18);
    this.sqrtBeta = gyroParam(spec, 'sqrtBeta', 18);
    if (!(this.sqrtAlpha > 0n && this.sqrtAlpha < this.sqrtBeta)) throw new UnsupportedPoolError(`Gyro2 pool ${spec.id} has sqrtAlpha not in (0, sqrtBeta) (GYR#350)`);
    this.frame = gyroFrame(spec, withRates);
    this.swapEnabled = spec.swapEnabled !== false;
    this.balances = spec.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
    this.rates = this.frame.scalingFactors.map((sf, k) => floatRate(sf, this.decimals[k]!));
  }

  initialState(): Gyro2State {
    return { balances: [...this.balances] };
  }

  cloneState(state: Gyro2State): Gyro2State {
    return { balances: [...state.balances], memo: state.memo };
  }

  canSwap(i: number, j: number): boolean {
    return this.swapEnabled && ((i === 0 && j === 1) || (i === 1 && j === 0));
  }

  swap(state: Gyro2State, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    if (!this.canSwap(i, j)) throw new PoolMathError(this.swapEnabled ? `no swap from token ${i} to ${j} in this pool` : 'pool is paused (BAL#211)');
    if (amount < 0n) throw new PoolMathError('negative amount');
    if (amount === 0n) return 0n;
    const b = state.balances;
    if (kind === 'givenIn' && b[i]! + amount > MAX_BALANCE) throw new PoolMathError('balance above 2^112 (BAL#526)');
    const result = gyroMath(() => {
      const { up, offsets } = this.memo(state);
      return framedSwap(this.frame, kind, i, j, amount, (a) => (kind === 'givenIn'
        ? G2.calcOutGivenIn(up[i]!, up[j]!, a, offsets[i]!, offsets[j]!)
        : G2.calcInGivenOut(up[i]!, up[j]!, a, offsets[i]!, offsets[j]!)));
    });
    if (kind === 'givenOut' && amount > b[j]!) throw new PoolMathError('amount out above the pool balance (BAL#001)');
    if (kind === 'givenOut' && b[i]! + result > MAX_BALANCE) throw new PoolMathError('balance above 2^112 (BAL#526)');
    return result;
  }

  apply(state: Gyro2State, i: number, j: number, amountIn: bigint, amountOut: bigint): void {
    state.balances[i] = state.balances[i]! + amountIn;
    state.balances[j] = state.balances[j]! - amountOut;
  }

  maxAmount(state: Gyro2State, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    const ok = (k: SwapKind) => (a: bigint): boolean => accepts(() => this.swap(state, k, i, j, a));
    if (kind === 'givenOut') return largestValid(state.balances[j]!, ok('givenOut'));
    const cap = MAX_BALANCE - state.balances[i]!;
    const estimate = this.inEstimate(state, i, j);
    return largestValid(estimate !== undefined && estimate < cap ? estimate : cap, ok('givenIn'));
  }

  spotPrice(state: Gyro2State, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    let memo: Gyro2Memo;
    try {
      memo = gyroMath(() => this.memo(state));
    } catch {
      return Infinity;
    }
    const virtIn = Number(memo.up[i]! + memo.offsets[i]!);
    const virtOut = Number(memo.up[j]! + memo.offsets[j]!);
    const fee = Number(this.frame.fee) / 1e18;
    // d(in)/d(out) on (x + a)(y + b) = L^2 is the ratio of the virtual reserves.
    return (virtIn / virtOut) / (1 - fee) * (this.rates[j]! / this.rates[i]!);
  }

  /**
   * The amount in past which the amount out would exceed the balance out (the price leaves the
   * range): solving out(a) = balance out for the upscaled amount a, then back to raw with the fee.
   */
  private inEstimate(state: Gyro2State, i: number, j: number): bigint | undefined {
    try {
      const { up, offsets } = gyroMath(() => this.memo(state));
      const virtInOver = up[i]! + (offsets[i]! * (ONE + 2n)) / ONE + 1n;
      const virtOutUnder = up[j]! + (offsets[j]! * (ONE - 1n)) / ONE;
      const gap = virtOutUnder - up[j]!;
      if (up[j] === 0n || gap <= 0n) return undefined;
      const upscaledIn = (up[j]! * virtInOver) / gap;
      const rawAfterFee = (upscaledIn * ONE) / this.frame.scalingFactors[i]! + 1n;
      return (rawAfterFee * ONE) / (ONE - this.frame.fee) + 1n;
    } catch {
      return undefined;
    }
  }

  private memo(state: Gyro2State): Gyro2Memo {
    const [b0, b1] = state.balances as [bigint, bigint];
    const cached = state.memo;
    if (cached && cached.b0 === b0 && cached.b1 === b1) return cached;
    const sf = this.frame.scalingFactors;
    const up: [bigint, bigint] = [upscale(b0, sf[0]!), upscale(b1, sf[1]!)];
    const invariant = G2.calculateInvariant(up[0], up[1], this.sqrtAlpha, this.sqrtBeta);
    const memo: Gyro2Memo = { b0, b1, up, offsets: G2.virtualOffsets(invariant, this.sqrtAlpha, this.sqrtBeta) };
    state.memo = memo;
    return memo;
  }
}

export const createGyro2Model: ModelFactory = (spec) => {
  const version = spec.poolTypeVersion ?? 1;
  if (spec.poolType !== 'Gyro2') throw new UnsupportedPoolError(`${spec.poolType} is not a Gyro2 pool`);
  if (version !== 1 && version !== 2) throw new UnsupportedPoolError(`Gyro2 v${version} is not carried`);
  return new Gyro2Model(spec, version === 2);
};
