import { decimalToUnits } from '../../decimal';
import * as GE from '../math/gyroEMath';
import { ONE } from '../math/gyroFixedPoint';
import { PoolMathError, UnsupportedPoolError, type ModelFactory, type PoolModel, type PoolSpec, type PoolState, type SwapKind } from '../poolModel';
import { accepts, floatRate, framedSwap, gyroFrame, gyroMath, gyroParam, upscale, type GyroFrame } from './gyroCommon';
import { largestValid } from './limits';
import { MAX_BALANCE } from './stable';

/**
 * Gyroscope E-CLPs ('GyroE'): v1 (2022, Polygon) and v2 (2023, rate providers on either token;
 * the rate is the stored token priceRate). onSwap upscales both balances, computes the invariant
 * and its error bound from them, and prices the swap against r = (L + 2 err, L), the pool's over-
 * and underestimate (math/gyroEMath.ts); the fee frame is the 2-CLP's. Only proportional joins
 * and exits exist, so the model offers swaps alone.
 *
 * Parameters are the subgraph's: alpha, beta, c, s, lambda with 18 decimals, the derived tau, u,
 * v, w, z and dSq with 38. The subgraph keeps 34 significant digits, so a derived parameter can
 * miss the contract's immutable in its last digits; quotes are exact for the parameters stored.
 */

interface GyroEMemo {
  readonly b0: bigint;
  readonly b1: bigint;
  readonly up: readonly [bigint, bigint];
  readonly invariant: bigint;
  readonly curve: GE.EclpCurve;
}

export interface GyroEState extends PoolState {
  memo?: GyroEMemo;
}

function eclpParams(spec: PoolSpec): { p: GE.EclpParams; d: GE.EclpDerived } {
  const np = (name: string) => gyroParam(spec, name, 18);
  const xp = (name: string) => gyroParam(spec, name, 38);
  const p: GE.EclpParams = { alpha: np('alpha'), beta: np('beta'), c: np('c'), s: np('s'), lambda: np('lambda') };
  const d: GE.EclpDerived = {
    tauAlpha: { x: xp('tauAlphaX'), y: xp('tauAlphaY') },
    tauBeta: { x: xp('tauBetaX'), y: xp('tauBetaY') },
    u: xp('u'), v: xp('v'), w: xp('w'), z: xp('z'), dSq: xp('dSq'),
  };
  // The pool factory's own checks (GYR#354..#364) bound what the math may assume.
  const ok = p.alpha > 0n && p.alpha < p.beta && p.c >= 0n && p.c <= ONE && p.s >= 0n && p.s <= ONE && p.lambda >= ONE
    && p.lambda <= 10n ** 26n && d.dSq > 0n && d.tauAlpha.x < d.tauBeta.x;
  if (!ok) throw new UnsupportedPoolError(`GyroE pool ${spec.id} has parameters the pool factory refuses`);
  return { p, d };
}

export class GyroEModel implements PoolModel<GyroEState> {
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly tokens: readonly string[];
  readonly decimals: readonly number[];
  readonly eclp: GE.EclpPool;
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
    if (this.tokens.length !== 2) throw new UnsupportedPoolError(`GyroE pool ${spec.id} has ${this.tokens.length} tokens`);
    const { p, d } = eclpParams(spec);
    this.eclp = GE.prepareEclp(p, d);
    this.frame = gyroFrame(spec, withRates);
    this.swapEnabled = spec.swapEnabled !== false;
    this.balances = spec.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
    this.rates = this.frame.scalingFactors.map((sf, k) => floatRate(sf, this.decimals[k]!));
  }

  initialState(): GyroEState {
    return { balances: [...this.balances] };
  }

  cloneState(state: GyroEState): GyroEState {
    return { balances: [...state.balances], memo: state.memo };
  }

  canSwap(i: number, j: number): boolean {
    return this.swapEnabled && ((i === 0 && j === 1) || (i === 1 && j === 0));
  }

  swap(state: GyroEState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    if (!this.canSwap(i, j)) throw new PoolMathError(this.swapEnabled ? `no swap from token ${i} to ${j} in this pool (GYR#121)` : 'pool is paused (BAL#211)');
    if (amount < 0n) throw new PoolMathError('negative amount');
    if (amount === 0n) return 0n;
    const b = state.balances;
    if (kind === 'givenIn' && b[i]! + amount > MAX_BALANCE) throw new PoolMathError('balance above 2^112 (BAL#526)');
    const result = gyroMath(() => {
      const { up, curve } = this.memo(state);
      const tokenInIsToken0 = i === 0;
      return framedSwap(this.frame, kind, i, j, amount, (a) => (kind === 'givenIn'
        ? GE.calcOutGivenIn(this.eclp, curve, up, a, tokenInIsToken0)
        : GE.calcInGivenOut(this.eclp, curve, up, a, tokenInIsToken0)));
    });
    if (kind === 'givenOut' && amount > b[j]!) throw new PoolMathError('amount out above the pool balance (BAL#001)');
    if (kind === 'givenOut' && b[i]! + result > MAX_BALANCE) throw new PoolMathError('balance above 2^112 (BAL#526)');
    return result;
  }

  apply(state: GyroEState, i: number, j: number, amountIn: bigint, amountOut: bigint): void {
    state.balances[i] = state.balances[i]! + amountIn;
    state.balances[j] = state.balances[j]! - amountOut;
  }

  maxAmount(state: GyroEState, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    const ok = (k: SwapKind) => (a: bigint): boolean => accepts(() => this.swap(state, k, i, j, a));
    if (kind === 'givenOut') return largestValid(state.balances[j]!, ok('givenOut'));
    const cap = MAX_BALANCE - state.balances[i]!;
    const estimate = this.inEstimate(state, i);
    return largestValid(estimate !== undefined && estimate < cap ? estimate : cap, ok('givenIn'));
  }

  spotPrice(state: GyroEState, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    let px: bigint;
    try {
      px = gyroMath(() => {
        const { up, invariant } = this.memo(state);
        return GE.calcSpotPrice0in1(this.eclp, up[0], up[1], invariant);
      });
    } catch {
      return Infinity;
    }
    if (px <= 0n) return Infinity;
    // px: upscaled token 1 per upscaled token 0 at the margin.
    const perOut = i === 1 ? Number(px) / 1e18 : 1e18 / Number(px);
    const fee = Number(this.frame.fee) / 1e18;
    return perOut / (1 - fee) * (this.rates[j]! / this.rates[i]!);
  }

  /** The amount in that takes the token in to its largest balance on the curve, back to raw with the fee. */
  private inEstimate(state: GyroEState, i: number): bigint | undefined {
    try {
      const { up, curve } = gyroMath(() => this.memo(state));
      const upscaledIn = GE.maxBalance(curve, i === 0 ? 0 : 1) - up[i]!;
      if (upscaledIn <= 0n) return undefined;
      const rawAfterFee = (upscaledIn * ONE) / this.frame.scalingFactors[i]! + 1n;
      return (rawAfterFee * ONE) / (ONE - this.frame.fee) + 1n;
    } catch {
      return undefined;
    }
  }

  private memo(state: GyroEState): GyroEMemo {
    const [b0, b1] = state.balances as [bigint, bigint];
    const cached = state.memo;
    if (cached && cached.b0 === b0 && cached.b1 === b1) return cached;
    const sf = this.frame.scalingFactors;
    const up: [bigint, bigint] = [upscale(b0, sf[0]!), upscale(b1, sf[1]!)];
    const [invariant, err] = GE.calculateInvariantWithError(this.eclp, up[0], up[1]);
    const memo: GyroEMemo = { b0, b1, up, invariant, curve: GE.eclpCurve(this.eclp, invariant, err) };
    state.memo = memo;
    return memo;
  }
}

export const createGyroEModel: ModelFactory = (spec) => {
  const version = spec.poolTypeVersion ?? 1;
  if (spec.poolType !== 'GyroE') throw new UnsupportedPoolError(`${spec.poolType} is not a GyroE pool`);
  if (version !== 1 && version !== 2) throw new UnsupportedPoolError(`GyroE v${version} is not carried`);
  return new GyroEModel(spec, version === 2);
};
