import { sqrt } from './gyroFixedPoint';
import { Revert } from '../../swap/math/revert';
import {
  add,
  divDownMag,
  divDownMagU,
  divUpMagU,
  divXpU,
  mulDownMag,
  mulDownMagU,
  mulDownXpToNpU,
  mulUpMagU,
  mulUpXpToNpU,
  mulXpU,
  ONE,
  ONE_XP,
  toInt256,
  toUint256,
} from './gyroSignedFixedPoint';

/**
 * GyroECLPMath (the E-CLP: a rotated, stretched ellipse through the price range [alpha, beta]) in
 * bigint, operation for operation as the contract orders and rounds it. Parameters: alpha, beta,
 * c, s, lambda in 18 decimals; the derived tau, u, v, w, z and dSq in 38 decimals (extra
 * precision). Balances are upscaled, token 0 is x, token 1 is y. The V2 pools and the V3 pool
 * (poolTypes/gyro/v3/) link the same library arithmetic, so both use this file.
 *
 * The contract recomputes every subexpression on each call. Here the ones that depend on the pool
 * parameters alone are computed once (`prepareEclp`) and the ones that depend on the invariant
 * alone once per invariant (`eclpCurve`); each is the same operation on the same operands, so
 * every result is the contract's to the wei, at a fifth of the work per swap.
 */

export interface Vector2 {
  readonly x: bigint;
  readonly y: bigint;
}

export interface EclpParams {
  readonly alpha: bigint;
  readonly beta: bigint;
  readonly c: bigint;
  readonly s: bigint;
  readonly lambda: bigint;
}

export interface EclpDerived {
  readonly tauAlpha: Vector2;
  readonly tauBeta: Vector2;
  readonly u: bigint;
  readonly v: bigint;
  readonly w: bigint;
  readonly z: bigint;
  readonly dSq: bigint;
}

const MAX_BALANCES = 10n ** 34n;
export const MAX_INVARIANT = 3n * 10n ** 37n;

function fail(what: string): never {
  throw new Revert(what);
}

/**
 * The constants of one swap direction of solveQuadraticSwap / calcXpXpDivLambdaLambda. The
 * contract writes them for y given x; x given y swaps s and c and uses (-tauAlpha.x, tauAlpha.y)
 * in place of tauBeta.
 */
interface Direction {
  readonly s: bigint;
  readonly c: bigint;
  readonly tauBeta: Vector2;
  readonly sTermX: bigint;
  readonly sTermY: bigint;
  /** 1 / sTerm.y + 1 and 1 / sTerm.x, extra precision. */
  readonly invSTermYPlus: bigint;
  readonly invSTermX: bigint;
  /** tau.x tau.y / dSq^2, tau.y^2 / dSq^2 + 7, tau.x^2 / dSq^2 + 7. */
  readonly tauXY: bigint;
  readonly tauYY7: bigint;
  readonly tauXX7: bigint;
  /** tau.x / dSq as the x term uses it (-tau.x / dSq + 3 when tau.x < 0), tau.y / dSq. */
  readonly tauXTerm: bigint;
  readonly tauYDivDSq: bigint;
}

export interface EclpPool {
  readonly p: EclpParams;
  readonly d: EclpDerived;
  /** 1 / (A chi . A chi - 1), extra precision. */
  readonly mulDenominator: bigint;
  readonly lambdaSqInt: bigint;
  readonly lamBarYDivDSq: bigint;
  readonly lamBarXDivDSqPlus: bigint;
  readonly oneDivDSq: bigint;
  readonly atAChi: readonly [bigint, bigint, bigint];
  readonly sqrtTerms: readonly [bigint, bigint, bigint];
  readonly offsetTerms: { readonly a0: bigint; readonly a1: bigint; readonly b0: bigint; readonly b1: bigint };
  readonly maxTerms: { readonly x1: bigint; readonly x2: bigint; readonly y1: bigint; readonly y2: bigint };
  readonly directions: readonly [Direction, Direction];
}

export function prepareEclp(p: EclpParams, d: EclpDerived): EclpPool {
  const { lambda } = p;
  const dSq2 = mulXpU(d.dSq, d.dSq);
  const dSq3 = mulXpU(dSq2, d.dSq);
  const dSq4 = mulXpU(mulXpU(mulXpU(d.dSq, d.dSq), d.dSq), d.dSq);
  const lamBarX = ONE_XP - divDownMagU(divDownMagU(ONE_XP, lambda), lambda);
  const lamBarY = ONE_XP - divUpMagU(divUpMagU(ONE_XP, lambda), lambda);
  const direction = (s: bigint, c: bigint, tauBeta: Vector2): Direction => {
    const sTermX = ONE_XP - divXpU(mulDownMagU(mulDownMagU(lamBarY, s), s), d.dSq);
    const sTermY = ONE_XP - (divXpU(mulUpMagU(mulUpMagU(lamBarX, s), s), d.dSq + 1n) + 1n);
    return {
      s,
      c,
      tauBeta,
      sTermX,
      sTermY,
      invSTermYPlus: divXpU(ONE_XP, sTermY) + 1n,
      invSTermX: divXpU(ONE_XP, sTermX),
      tauXY: divXpU(mulXpU(tauBeta.x, tauBeta.y), dSq2),
      tauYY7: divXpU(mulXpU(tauBeta.y, tauBeta.y), dSq2) + 7n,
      tauXX7: divXpU(mulXpU(tauBeta.x, tauBeta.x), dSq2) + 7n,
      tauXTerm: tauBeta.x < 0n ? -divXpU(tauBeta.x, d.dSq) + 3n : divXpU(tauBeta.x, d.dSq),
      tauYDivDSq: divXpU(tauBeta.y, d.dSq),
    };
  };
  // calcAChiAChiInXp
  let aChiAChi = mulUpMagU(lambda, divXpU(mulXpU(2n * d.u, d.v), dSq3));
  aChiAChi = aChiAChi + mulUpMagU(mulUpMagU(divXpU(mulXpU(d.u + 1n, d.u + 1n), dSq3), lambda), lambda);
  aChiAChi = aChiAChi + divXpU(mulXpU(d.v, d.v), dSq3);
  const wz = divUpMagU(d.w, lambda) + d.z;
  aChiAChi = aChiAChi + divXpU(mulXpU(wz, wz), dSq3);
  const termX =
    mulXpU(d.u, d.u) +
    divDownMagU(mulXpU(2n * d.u, d.v), lambda) +
    divDownMagU(divDownMagU(mulXpU(d.v, d.v), lambda), lambda);
  const termXY =
    mulXpU(d.z, d.u) +
    divDownMagU(divDownMagU(mulXpU(d.w, d.v), lambda), lambda) +
    divDownMagU(mulXpU(d.w, d.u) + mulXpU(d.z, d.v), lambda);
  const termY =
    mulXpU(d.z, d.z) +
    divDownMagU(divDownMagU(mulXpU(d.w, d.w), lambda), lambda) +
    divDownMagU(mulXpU(2n * d.z, d.w), lambda);
  return {
    p,
    d,
    mulDenominator: divXpU(ONE_XP, aChiAChi - ONE_XP),
    lambdaSqInt: (lambda * lambda) / 10n ** 36n,
    lamBarYDivDSq: divXpU(lamBarY, d.dSq),
    lamBarXDivDSqPlus: divXpU(lamBarX, d.dSq) + 1n,
    oneDivDSq: divXpU(ONE_XP, d.dSq),
    atAChi: [divXpU(divDownMagU(divDownMagU(d.w, lambda) + d.z, lambda), dSq2), divXpU(d.u, dSq2), divXpU(d.v, dSq2)],
    sqrtTerms: [divXpU(termX, dSq4), divXpU(termXY, dSq4), divXpU(termY, dSq4)],
    offsetTerms: {
      a0: divXpU(d.tauBeta.x, d.dSq),
      a1: divXpU(d.tauBeta.y, d.dSq),
      b0: divXpU(d.tauAlpha.x, d.dSq),
      b1: divXpU(d.tauAlpha.y, d.dSq),
    },
    maxTerms: {
      x1: divXpU(d.tauBeta.x - d.tauAlpha.x, d.dSq),
      x2: divXpU(d.tauBeta.y - d.tauAlpha.y, d.dSq),
      y1: divXpU(d.tauBeta.x - d.tauAlpha.x, d.dSq),
      y2: divXpU(d.tauAlpha.y - d.tauBeta.y, d.dSq),
    },
    directions: [direction(p.s, p.c, d.tauBeta), direction(p.c, p.s, { x: -d.tauAlpha.x, y: d.tauAlpha.y })],
  };
}

/** Offset a = r (A^-1 tau(beta))_x, rounded up; `r` is (overestimate, underestimate) of the invariant. */
function virtualOffset0(e: EclpPool, r: Vector2): bigint {
  const { p, d } = e;
  const termXp = e.offsetTerms.a0;
  const a =
    d.tauBeta.x > 0n
      ? mulUpXpToNpU(mulUpMagU(mulUpMagU(r.x, p.lambda), p.c), termXp)
      : mulUpXpToNpU(mulDownMagU(mulDownMagU(r.y, p.lambda), p.c), termXp);
  return a + mulUpXpToNpU(mulUpMagU(r.x, p.s), e.offsetTerms.a1);
}

/** Offset b = r (A^-1 tau(alpha))_y, rounded up. */
function virtualOffset1(e: EclpPool, r: Vector2): bigint {
  const { p, d } = e;
  const termXp = e.offsetTerms.b0;
  const b =
    d.tauAlpha.x < 0n
      ? mulUpXpToNpU(mulUpMagU(mulUpMagU(r.x, p.lambda), p.s), -termXp)
      : mulUpXpToNpU(mulDownMagU(mulDownMagU(-r.y, p.lambda), p.s), termXp);
  return b + mulUpXpToNpU(mulUpMagU(r.x, p.c), e.offsetTerms.b1);
}

/** The largest x the invariant allows (y = 0), rounded down. */
function maxBalances0(e: EclpPool, r: Vector2): bigint {
  const { p } = e;
  const { x1, x2 } = e.maxTerms;
  const xp = mulDownXpToNpU(mulDownMagU(mulDownMagU(r.y, p.lambda), p.c), x1);
  return xp + mulDownXpToNpU(x2 > 0n ? mulDownMagU(r.y, p.s) : mulUpMagU(r.x, p.s), x2);
}

/** The largest y the invariant allows (x = 0), rounded down. */
function maxBalances1(e: EclpPool, r: Vector2): bigint {
  const { p } = e;
  const { y1, y2 } = e.maxTerms;
  const yp = mulDownXpToNpU(mulDownMagU(mulDownMagU(r.y, p.lambda), p.s), y1);
  return yp + mulDownXpToNpU(y2 > 0n ? mulDownMagU(r.y, p.c) : mulUpMagU(r.x, p.c), y2);
}

/**
 * The invariant r (an underestimate) and a bound on its error, from the balances; reverts past the
 * contract's anti-overflow limits (calculateInvariantWithError).
 */
export function calculateInvariantWithError(e: EclpPool, balance0: bigint, balance1: bigint): [bigint, bigint] {
  const { p } = e;
  const x = toInt256(balance0);
  const y = toInt256(balance1);
  if (add(x, y) > MAX_BALANCES) fail('max assets exceeded (GYR#363)');
  const atAChi = calcAtAChi(e, x, y);
  const [root, sqrtErr] = calcInvariantSqrt(e, x, y);
  let err = sqrtErr;
  if (root > 0n) {
    err = divUpMagU(err + 1n, 2n * root);
  } else {
    err = err > 0n ? toInt256(sqrt(toUint256(err), 5n)) : 1_000_000_000n;
  }
  err = (mulUpMagU(p.lambda, x + y) / ONE_XP + err + 1n) * 20n;
  const invariant = mulDownXpToNpU(atAChi + root - err, e.mulDenominator);
  err = mulUpXpToNpU(err, e.mulDenominator);
  err = err + (mulUpXpToNpU(invariant, e.mulDenominator) * e.lambdaSqInt * 40n) / ONE_XP + 1n;
  if (add(invariant, err) > MAX_INVARIANT) fail('max invariant exceeded (GYR#363)');
  return [invariant, err];
}

function calcAtAChi(e: EclpPool, x: bigint, y: bigint): bigint {
  const { p } = e;
  const [wz, u, v] = e.atAChi;
  let val = mulDownXpToNpU(mulDownMagU(x, p.c) - mulDownMagU(y, p.s), wz);
  let termNp = mulDownMagU(mulDownMagU(x, p.lambda), p.s) + mulDownMagU(mulDownMagU(y, p.lambda), p.c);
  val = val + mulDownXpToNpU(termNp, u);
  termNp = mulDownMagU(x, p.s) + mulDownMagU(y, p.c);
  return val + mulDownXpToNpU(termNp, v);
}

/** The square-rooted term (rounded down) and the error estimate of what is under the root. */
function calcInvariantSqrt(e: EclpPool, x: bigint, y: bigint): [bigint, bigint] {
  const { p } = e;
  const [termX, termXY, termY] = e.sqrtTerms;
  // -(At)_x^2 (A chi)_y^2 + (At)_x^2
  let npX = mulUpMagU(mulUpMagU(mulUpMagU(x, x), p.c), p.c) + mulUpMagU(mulUpMagU(mulUpMagU(y, y), p.s), p.s);
  npX = npX - mulDownMagU(mulDownMagU(mulDownMagU(x, y), p.c * 2n), p.s);
  let val =
    mulDownXpToNpU(-npX, termX) + mulDownXpToNpU(divDownMagU(divDownMagU(npX - 9n, p.lambda), p.lambda), e.oneDivDSq);
  // 2 (At)_x (At)_y (A chi)_x (A chi)_y
  let npXY = mulDownMagU(mulDownMagU(mulDownMagU(x, x) - mulUpMagU(y, y), 2n * p.c), p.s);
  const xy = mulDownMagU(y, 2n * x);
  npXY = npXY + mulDownMagU(mulDownMagU(xy, p.c), p.c) - mulDownMagU(mulDownMagU(xy, p.s), p.s);
  val = val + mulDownXpToNpU(npXY, termXY);
  // -(At)_y^2 (A chi)_x^2 + (At)_y^2
  let npY = mulUpMagU(mulUpMagU(mulUpMagU(x, x), p.s), p.s) + mulUpMagU(mulUpMagU(mulUpMagU(y, y), p.c), p.c);
  npY = npY + mulUpMagU(mulUpMagU(mulUpMagU(x, y), p.s * 2n), p.c);
  val = val + mulDownXpToNpU(-npY, termY) + mulDownXpToNpU(npY - 9n, e.oneDivDSq);
  const err = (mulUpMagU(x, x) + mulUpMagU(y, y)) / ONE_XP;
  return [val > 0n ? toInt256(sqrt(toUint256(val), 5n)) : 0n, err];
}

/** The invariant-only parts of one swap direction (solveQuadraticSwap's terms without x). */
interface CurveDirection {
  /** Offsets of the given reserve (subtracted from it) and of the computed one (added back). */
  readonly offsetGiven: bigint;
  readonly offsetSolved: bigint;
  readonly qaR: bigint;
  readonly qbR: bigint;
  readonly valR: bigint;
  readonly ryTerm: bigint;
}

/** Everything a swap needs that depends on the invariant alone. */
export interface EclpCurve {
  /** (L + 2 err, L): overestimate in x, underestimate in y, as the pool passes it. */
  readonly r: Vector2;
  readonly maxX: bigint;
  readonly maxY: bigint;
  /** [y given x, x given y]. */
  readonly directions: readonly [CurveDirection, CurveDirection];
}

export function eclpCurve(e: EclpPool, invariant: bigint, err: bigint): EclpCurve {
  return eclpCurveAt(e, { x: invariant + 2n * err, y: invariant });
}

/**
 * The curve for an invariant vector the caller chose: the V3 pool's computeBalance passes (L + err,
 * L - err) scaled by the invariant ratio instead of the swap's (L + 2 err, L).
 */
export function eclpCurveAt(e: EclpPool, r: Vector2): EclpCurve {
  const a = virtualOffset0(e, r);
  const b = virtualOffset1(e, r);
  const maxX = maxBalances0(e, r);
  const maxY = maxBalances1(e, r);
  const rx2 = mulUpMagU(r.x, r.x);
  const direction = (k: Direction, offsetGiven: bigint, offsetSolved: bigint): CurveDirection => {
    const qaR =
      k.tauXY > 0n
        ? mulUpXpToNpU(mulUpMagU(mulUpMagU(rx2, 2n * k.s), k.c), k.tauXY + 7n)
        : mulUpXpToNpU(mulDownMagU(mulDownMagU(mulDownMagU(r.y, r.y), 2n * k.s), k.c), k.tauXY);
    return {
      offsetGiven,
      offsetSolved,
      qaR,
      qbR: mulUpXpToNpU(mulUpMagU(mulUpMagU(rx2, k.s), k.s), k.tauYY7),
      valR: mulUpXpToNpU(mulUpMagU(mulUpMagU(rx2, k.c), k.c), k.tauXX7),
      ryTerm: mulDownXpToNpU(mulDownMagU(r.y, r.y), k.sTermY),
    };
  };
  return { r, maxX, maxY, directions: [direction(e.directions[0], a, b), direction(e.directions[1], b, a)] };
}

/**
 * solveQuadraticSwap: the other reserve (an overestimate) for the given reserve `x`, in direction
 * 0 (y given x) or 1 (x given y).
 */
function solveQuadraticSwap(e: EclpPool, curve: EclpCurve, dir: 0 | 1, x: bigint): bigint {
  const { lambda } = e.p;
  const k = e.directions[dir];
  const cd = curve.directions[dir];
  const { r } = curve;
  const xp = x - cd.offsetGiven;
  const qb =
    xp > 0n
      ? mulUpXpToNpU(mulDownMagU(mulDownMagU(-xp, k.s), k.c), e.lamBarYDivDSq)
      : mulUpXpToNpU(mulUpMagU(mulUpMagU(-xp, k.s), k.c), e.lamBarXDivDSqPlus);
  // calcXpXpDivLambdaLambda(x): x'x'/lambda^2 with x' = x - r (A^-1 tau(beta))_x, an overestimate.
  const xTerm =
    k.tauBeta.x < 0n
      ? mulUpXpToNpU(mulUpMagU(mulUpMagU(r.x, x), 2n * k.c), k.tauXTerm)
      : mulUpXpToNpU(mulDownMagU(mulDownMagU(-r.y, x), 2n * k.c), k.tauXTerm);
  let qa = cd.qaR + xTerm;
  let qbx = cd.qbR + mulUpXpToNpU(mulDownMagU(mulDownMagU(-r.y, x), 2n * k.s), k.tauYDivDSq) + mulUpMagU(x, x);
  qbx = qbx > 0n ? divUpMagU(qbx, lambda) : divDownMagU(qbx, lambda);
  qa = qa + qbx;
  qa = qa > 0n ? divUpMagU(qa, lambda) : divDownMagU(qa, lambda);
  const xpxp = cd.valR + qa;
  let qc = -xpxp + cd.ryTerm;
  qc = qc > 0n ? toInt256(sqrt(toUint256(qc), 5n)) : 0n;
  const result = qb - qc > 0n ? mulUpXpToNpU(qb - qc, k.invSTermYPlus) : mulUpXpToNpU(qb - qc, k.invSTermX);
  return result + cd.offsetSolved;
}

/**
 * The balance of the other token on `curve` when token `givenIndex` holds `given` (calcYGivenX for
 * index 0, calcXGivenY for index 1), an overestimate, without the asset bound check the swaps make.
 */
export const balanceGivenOther = (e: EclpPool, curve: EclpCurve, givenIndex: 0 | 1, given: bigint): bigint =>
  solveQuadraticSwap(e, curve, givenIndex, given);

function checkAssetBounds(curve: EclpCurve, newBalance: bigint, index: 0 | 1): void {
  const max = index === 0 ? curve.maxX : curve.maxY;
  if (!(newBalance <= MAX_BALANCES && newBalance <= max)) fail('asset bounds exceeded (GYR#357)');
}

/** Amount out for `amountIn` (fee off), `balances` upscaled in token order. */
export function calcOutGivenIn(
  e: EclpPool,
  curve: EclpCurve,
  balances: readonly [bigint, bigint],
  amountIn: bigint,
  tokenInIsToken0: boolean,
): bigint {
  const ixIn = tokenInIsToken0 ? 0 : 1;
  const ixOut = tokenInIsToken0 ? 1 : 0;
  const balInNew = toInt256(balances[ixIn] + amountIn);
  checkAssetBounds(curve, balInNew, ixIn);
  const out = toUint256(solveQuadraticSwap(e, curve, ixIn, balInNew));
  if (out > balances[ixOut]) fail('subtraction underflow (BAL#001)');
  return balances[ixOut] - out;
}

/** Amount in (before the fee) for `amountOut`. */
export function calcInGivenOut(
  e: EclpPool,
  curve: EclpCurve,
  balances: readonly [bigint, bigint],
  amountOut: bigint,
  tokenInIsToken0: boolean,
): bigint {
  const ixIn = tokenInIsToken0 ? 0 : 1;
  const ixOut = tokenInIsToken0 ? 1 : 0;
  if (amountOut > balances[ixOut]) fail('asset bounds exceeded (GYR#357)');
  const balOutNew = toInt256(balances[ixOut] - amountOut);
  const balInNew = solveQuadraticSwap(e, curve, ixOut, balOutNew);
  checkAssetBounds(curve, balInNew, ixIn);
  const newIn = toUint256(balInNew);
  if (balances[ixIn] > newIn) fail('subtraction underflow (BAL#001)');
  return newIn - balances[ixIn];
}

/** The largest upscaled balance of token `index` the curve allows (the other at zero). */
export const maxBalance = (curve: EclpCurve, index: 0 | 1): bigint => (index === 0 ? curve.maxX : curve.maxY);

/** A t for the spot price (no dSq correction, as the contract does there). */
function mulA(p: EclpParams, t: Vector2): Vector2 {
  return {
    x: divDownMagU(mulDownMagU(p.c, t.x), p.lambda) - divDownMagU(mulDownMagU(p.s, t.y), p.lambda),
    y: mulDownMagU(p.s, t.x) + mulDownMagU(p.c, t.y),
  };
}

const scalarProd = (a: Vector2, b: Vector2): bigint => add(mulDownMag(a.x, b.x), mulDownMag(a.y, b.y));

/** Spot price of token 0 in units of token 1 (upscaled units), as the pool's price function computes it. */
export function calcSpotPrice0in1(e: EclpPool, x: bigint, y: bigint, invariant: bigint): bigint {
  const { p } = e;
  const r = { x: invariant, y: invariant };
  const vec = mulA(p, { x: toInt256(x) - virtualOffset0(e, r), y: toInt256(y) - virtualOffset1(e, r) });
  const pc = { x: divDownMagU(vec.x, vec.y), y: ONE };
  const pgx = scalarProd(pc, mulA(p, { x: ONE, y: 0n }));
  return toUint256(divDownMag(pgx, scalarProd(pc, mulA(p, { x: 0n, y: ONE }))));
}
