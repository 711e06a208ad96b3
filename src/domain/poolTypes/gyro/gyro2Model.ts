import * as G2 from './gyro2Math';
import { ONE } from './gyroFixedPoint';
import { UnsupportedPoolError, type ModelFactory, type PoolState, type SwapKind } from '../../swap/poolModel';
import { gyroParam, upscale } from './gyroCommon';
import { GyroPoolModel } from './gyroModel';
import type { GyroSpec } from './gyroParams';

/**
 * Gyroscope 2-CLPs ('Gyro2'): v1 (2022, Polygon) and v2 (2023, rate providers on either token;
 * the rate is the stored token priceRate). Both run the same onSwap: the swap fee comes off the
 * raw amount in (given in) or onto the downscaled amount in (given out), balances are upscaled,
 * and every swap recomputes the invariant L from the balances in token order and the virtual
 * offsets L / sqrt(beta) (token 0) and L sqrt(alpha) (token 1) from it (gyro2Math.ts).
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

export class Gyro2Model extends GyroPoolModel<Gyro2State> {
  readonly sqrtAlpha: bigint;
  readonly sqrtBeta: bigint;

  constructor(spec: GyroSpec, withRates: boolean) {
    super(spec, 2, withRates);
    this.sqrtAlpha = gyroParam(spec, 'sqrtAlpha', 18);
    this.sqrtBeta = gyroParam(spec, 'sqrtBeta', 18);
    if (!(this.sqrtAlpha > 0n && this.sqrtAlpha < this.sqrtBeta))
      throw new UnsupportedPoolError(`Gyro2 pool ${spec.id} has sqrtAlpha not in (0, sqrtBeta) (GYR#350)`);
  }

  protected curve(state: Gyro2State, kind: SwapKind, i: number, j: number): (upscaled: bigint) => bigint {
    const { up, offsets } = this.memo(state);
    return (a) =>
      kind === 'givenIn'
        ? G2.calcOutGivenIn(up[i]!, up[j]!, a, offsets[i]!, offsets[j]!)
        : G2.calcInGivenOut(up[i]!, up[j]!, a, offsets[i]!, offsets[j]!);
  }

  protected marginalPrice(state: Gyro2State, i: number, j: number): number | undefined {
    let memo: Gyro2Memo;
    try {
      memo = this.memo(state);
    } catch {
      return undefined;
    }
    // d(in)/d(out) on (x + a)(y + b) = L^2 is the ratio of the virtual reserves.
    return Number(memo.up[i]! + memo.offsets[i]!) / Number(memo.up[j]! + memo.offsets[j]!);
  }

  /** Solves out(a) = balance out for the upscaled amount a: past it the price leaves the range. */
  protected upscaledInLimit(state: Gyro2State, i: number, j: number): bigint | undefined {
    const { up, offsets } = this.memo(state);
    const virtInOver = up[i]! + (offsets[i]! * (ONE + 2n)) / ONE + 1n;
    const virtOutUnder = up[j]! + (offsets[j]! * (ONE - 1n)) / ONE;
    const gap = virtOutUnder - up[j]!;
    if (up[j] === 0n || gap <= 0n) return undefined;
    return (up[j]! * virtInOver) / gap;
  }

  private memo(state: Gyro2State): Gyro2Memo {
    const [b0, b1] = state.balances as [bigint, bigint];
    const cached = state.memo;
    if (cached && cached.b0 === b0 && cached.b1 === b1) return cached;
    const sf = this.scaling.scalingFactors;
    const up: [bigint, bigint] = [upscale(b0, sf[0]!), upscale(b1, sf[1]!)];
    const invariant = G2.calculateInvariant(up[0], up[1], this.sqrtAlpha, this.sqrtBeta);
    const memo: Gyro2Memo = { b0, b1, up, offsets: G2.virtualOffsets(invariant, this.sqrtAlpha, this.sqrtBeta) };
    state.memo = memo;
    return memo;
  }
}

/** Gyro2 v1 and v2 (the versions its definition carries): v2 scales by its token rates. */
/** The 2-CLP's model; `withRates(version)`: its token rates scale the balances (its definition says from which version). */
export function gyro2ModelFactory(withRates: (version: number) => boolean): ModelFactory<GyroSpec> {
  return (spec) => new Gyro2Model(spec, withRates(spec.poolTypeVersion ?? 1));
}
