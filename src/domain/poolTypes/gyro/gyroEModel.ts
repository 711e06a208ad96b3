import type { GyroParamName } from './gyroParams';
import * as GE from './gyroEMath';
import { ONE } from './gyroFixedPoint';
import { UnsupportedPoolError, type ModelFactory, type PoolState, type SwapKind } from '../../swap/poolModel';
import { gyroParam, upscale } from './gyroCommon';
import { GyroPoolModel } from './gyroModel';
import type { GyroSpec } from './gyroParams';

/**
 * Gyroscope E-CLPs ('GyroE'): v1 (2022, Polygon) and v2 (2023, rate providers on either token;
 * the rate is the stored token priceRate). onSwap upscales both balances, computes the invariant
 * and its error bound from them, and prices the swap against r = (L + 2 err, L), the pool's over-
 * and underestimate (gyroEMath.ts); the fee and scaling are the 2-CLP's. Only proportional joins
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

function eclpParams(spec: GyroSpec): { p: GE.EclpParams; d: GE.EclpDerived } {
  const np = (name: GyroParamName) => gyroParam(spec, name, 18);
  const xp = (name: GyroParamName) => gyroParam(spec, name, 38);
  const p: GE.EclpParams = { alpha: np('alpha'), beta: np('beta'), c: np('c'), s: np('s'), lambda: np('lambda') };
  const d: GE.EclpDerived = {
    tauAlpha: { x: xp('tauAlphaX'), y: xp('tauAlphaY') },
    tauBeta: { x: xp('tauBetaX'), y: xp('tauBetaY') },
    u: xp('u'),
    v: xp('v'),
    w: xp('w'),
    z: xp('z'),
    dSq: xp('dSq'),
  };
  // The pool factory's own checks (GYR#354..#364) bound what the math may assume.
  const ok =
    p.alpha > 0n &&
    p.alpha < p.beta &&
    p.c >= 0n &&
    p.c <= ONE &&
    p.s >= 0n &&
    p.s <= ONE &&
    p.lambda >= ONE &&
    p.lambda <= 10n ** 26n &&
    d.dSq > 0n &&
    d.tauAlpha.x < d.tauBeta.x;
  if (!ok) throw new UnsupportedPoolError(`GyroE pool ${spec.id} has parameters the pool factory refuses`);
  return { p, d };
}

export class GyroEModel extends GyroPoolModel<GyroEState> {
  readonly eclp: GE.EclpPool;
  protected override readonly noSwapCode = ' (GYR#121)';

  constructor(spec: GyroSpec, withRates: boolean) {
    super(spec, 2, withRates);
    const { p, d } = eclpParams(spec);
    this.eclp = GE.prepareEclp(p, d);
  }

  protected curve(state: GyroEState, kind: SwapKind, i: number): (upscaled: bigint) => bigint {
    const { up, curve } = this.memo(state);
    const tokenInIsToken0 = i === 0;
    return (a) =>
      kind === 'givenIn'
        ? GE.calcOutGivenIn(this.eclp, curve, up, a, tokenInIsToken0)
        : GE.calcInGivenOut(this.eclp, curve, up, a, tokenInIsToken0);
  }

  protected marginalPrice(state: GyroEState, i: number): number | undefined {
    let px: bigint;
    try {
      const { up, invariant } = this.memo(state);
      px = GE.calcSpotPrice0in1(this.eclp, up[0], up[1], invariant);
    } catch {
      return undefined;
    }
    if (px <= 0n) return undefined;
    // px: upscaled token 1 per upscaled token 0 at the margin.
    return i === 1 ? Number(px) / 1e18 : 1e18 / Number(px);
  }

  /** What takes the token in to its largest balance on the curve. */
  protected upscaledInLimit(state: GyroEState, i: number): bigint | undefined {
    const { up, curve } = this.memo(state);
    return GE.maxBalance(curve, i === 0 ? 0 : 1) - up[i]!;
  }

  private memo(state: GyroEState): GyroEMemo {
    const [b0, b1] = state.balances as [bigint, bigint];
    const cached = state.memo;
    if (cached && cached.b0 === b0 && cached.b1 === b1) return cached;
    const sf = this.scaling.scalingFactors;
    const up: [bigint, bigint] = [upscale(b0, sf[0]!), upscale(b1, sf[1]!)];
    const [invariant, err] = GE.calculateInvariantWithError(this.eclp, up[0], up[1]);
    const memo: GyroEMemo = { b0, b1, up, invariant, curve: GE.eclpCurve(this.eclp, invariant, err) };
    state.memo = memo;
    return memo;
  }
}

/** GyroE v1 and v2 (the versions its definition carries): v2 scales by its token rates. */
/** The E-CLP's model; `withRates(version)`: its token rates scale the balances (its definition says from which version). */
export function gyroEModelFactory(withRates: (version: number) => boolean): ModelFactory<GyroSpec> {
  return (spec) => new GyroEModel(spec, withRates(spec.poolTypeVersion ?? 1));
}
