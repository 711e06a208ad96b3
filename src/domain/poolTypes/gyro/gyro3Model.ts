import * as G3 from './gyro3Math';
import { ONE } from './gyroFixedPoint';
import { UnsupportedPoolError, type ModelFactory, type PoolState, type SwapKind } from '../../swap/poolModel';
import { gyroParam, upscale } from './gyroCommon';
import { GyroPoolModel } from './gyroModel';
import type { GyroSpec } from './gyroParams';

/**
 * Gyroscope 3-CLPs ('Gyro3', v1: 2022, Polygon): three tokens, one price range [alpha, 1/alpha]
 * for every pair, parameter root3Alpha. Swaps are BaseMinimalSwapInfoPool's scaling (fee off the
 * raw amount in, or onto the downscaled amount in) around Gyro3CLPMath: every swap solves the
 * invariant from the balances (token in, token out, third token, in that order) and uses the one
 * virtual offset L * root3Alpha (gyro3Math.ts). Later 3-CLPs with rate providers are not
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

export class Gyro3Model extends GyroPoolModel<Gyro3State> {
  readonly root3Alpha: bigint;

  constructor(spec: GyroSpec) {
    super(spec, 3, false);
    this.root3Alpha = gyroParam(spec, 'root3Alpha', 18);
    if (this.root3Alpha < G3.MIN_ROOT_3_ALPHA || this.root3Alpha > G3.MAX_ROOT_3_ALPHA) {
      throw new UnsupportedPoolError(`Gyro3 pool ${spec.id} has root3Alpha outside the contract's bounds (GYR#351)`);
    }
  }

  protected curve(state: Gyro3State, kind: SwapKind, i: number, j: number): (upscaled: bigint) => bigint {
    const offset = this.offset(state, i, j);
    const [upIn, upOut] = this.upscaled(state, i, j);
    return (a) =>
      kind === 'givenIn' ? G3.calcOutGivenIn(upIn, upOut, a, offset) : G3.calcInGivenOut(upIn, upOut, a, offset);
  }

  protected marginalPrice(state: Gyro3State, i: number, j: number): number | undefined {
    let offset: bigint;
    try {
      offset = this.offset(state, i, j);
    } catch {
      return undefined;
    }
    const [upIn, upOut] = this.upscaled(state, i, j);
    return Number(upIn + offset) / Number(upOut + offset);
  }

  /** The upscaled amount in at which the amount out would reach the balance out. */
  protected upscaledInLimit(state: Gyro3State, i: number, j: number): bigint | undefined {
    const offset = this.offset(state, i, j);
    const [upIn, upOut] = this.upscaled(state, i, j);
    const virtInOver = upIn + (offset * (ONE + 2n)) / ONE + 1n;
    const gap = (offset * (ONE - 1n)) / ONE;
    if (upOut === 0n || gap <= 0n) return undefined;
    return (upOut * virtInOver) / gap;
  }

  private upscaled(state: Gyro3State, i: number, j: number): [bigint, bigint] {
    const sf = this.scaling.scalingFactors;
    return [upscale(state.balances[i]!, sf[i]!), upscale(state.balances[j]!, sf[j]!)];
  }

  private offset(state: Gyro3State, i: number, j: number): bigint {
    const third = 3 - i - j;
    const b = state.balances;
    const cached = state.memo?.[third];
    if (cached && cached.balances.every((x, k) => x === b[k])) return cached.offset;
    const sf = this.scaling.scalingFactors;
    // The pool passes (in, out, third); in and out commute in every rounding, the third does not.
    const [p, q] = i < j ? [i, j] : [j, i];
    const invariant = G3.calculateInvariant(
      [upscale(b[p]!, sf[p]!), upscale(b[q]!, sf[q]!), upscale(b[third]!, sf[third]!)],
      this.root3Alpha,
    );
    const offset = G3.virtualOffset(invariant, this.root3Alpha);
    const memo = [...(state.memo ?? [undefined, undefined, undefined])];
    memo[third] = { balances: [...b], offset };
    state.memo = memo;
    return offset;
  }
}

export const createGyro3Model: ModelFactory<GyroSpec> = (spec) => new Gyro3Model(spec);
