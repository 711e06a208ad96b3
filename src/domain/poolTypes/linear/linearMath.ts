import { divDown as fpDivDown, mulDown, ONE, sub } from '../../swap/math/fixedPoint';
import { Revert } from '../../swap/math/revert';

/**
 * Balancer's LinearMath (pkg/pool-linear/contracts/LinearMath.sol) in bigint: unchanged from the
 * first Aave linear pools (Dec 2021) to the last generation. All amounts are upscaled (18 decimals,
 * the wrapped token already multiplied by its rate), so main and wrapped are in the same units.
 *
 * The pool charges its fee through "nominal" balances: the main balance minus the fee on whatever
 * lies outside [lowerTarget, upperTarget]. Main <-> wrapped trades keep nominal main + wrapped
 * constant; BPT is backed by that sum (the invariant). Where the contract reverts (an underflow,
 * a division by zero) these throw `Revert`.
 */
export interface LinearParams {
  readonly fee: bigint;
  readonly lowerTarget: bigint;
  readonly upperTarget: bigint;
}

const UINT256_MAX = 2n ** 256n - 1n;

/** Math.mul: checked 256-bit product (BAL#003 on overflow). */
function mul(a: bigint, b: bigint): bigint {
  const c = a * b;
  if (c > UINT256_MAX) throw new Revert('multiplication overflow (BAL#003)');
  return c;
}

/** Math.divDown / Math.divUp: plain integer division (not fixed point). */
function idivDown(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  return a / b;
}

function idivUp(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  return a === 0n ? 0n : (a - 1n) / b + 1n;
}

export function toNominal(real: bigint, p: LinearParams): bigint {
  // Fees round down, as in the contract.
  if (real < p.lowerTarget) return sub(real, mulDown(p.lowerTarget - real, p.fee));
  if (real <= p.upperTarget) return real;
  return sub(real, mulDown(real - p.upperTarget, p.fee));
}

export function fromNominal(nominal: bigint, p: LinearParams): bigint {
  if (nominal < p.lowerTarget) return fpDivDown(nominal + mulDown(p.fee, p.lowerTarget), ONE + p.fee);
  if (nominal <= p.upperTarget) return nominal;
  return fpDivDown(sub(nominal, mulDown(p.fee, p.upperTarget)), sub(ONE, p.fee));
}

const invariant = (nominalMain: bigint, wrapped: bigint): bigint => nominalMain + wrapped;

export function bptOutPerMainIn(
  mainIn: bigint,
  main: bigint,
  wrapped: bigint,
  supply: bigint,
  p: LinearParams,
): bigint {
  // The first deposit mints the nominal main amount itself.
  if (supply === 0n) return toNominal(mainIn, p);
  const before = toNominal(main, p);
  const delta = sub(toNominal(main + mainIn, p), before);
  return idivDown(mul(supply, delta), invariant(before, wrapped));
}

export function bptInPerMainOut(
  mainOut: bigint,
  main: bigint,
  wrapped: bigint,
  supply: bigint,
  p: LinearParams,
): bigint {
  const before = toNominal(main, p);
  const delta = sub(before, toNominal(sub(main, mainOut), p));
  return idivUp(mul(supply, delta), invariant(before, wrapped));
}

export function wrappedOutPerMainIn(mainIn: bigint, main: bigint, p: LinearParams): bigint {
  return sub(toNominal(main + mainIn, p), toNominal(main, p));
}

export function wrappedInPerMainOut(mainOut: bigint, main: bigint, p: LinearParams): bigint {
  return sub(toNominal(main, p), toNominal(sub(main, mainOut), p));
}

export function mainInPerBptOut(
  bptOut: bigint,
  main: bigint,
  wrapped: bigint,
  supply: bigint,
  p: LinearParams,
): bigint {
  if (supply === 0n) return fromNominal(bptOut, p);
  const before = toNominal(main, p);
  const delta = idivUp(mul(invariant(before, wrapped), bptOut), supply);
  return sub(fromNominal(before + delta, p), main);
}

export function mainOutPerBptIn(bptIn: bigint, main: bigint, wrapped: bigint, supply: bigint, p: LinearParams): bigint {
  const before = toNominal(main, p);
  const delta = idivDown(mul(invariant(before, wrapped), bptIn), supply);
  return sub(main, fromNominal(sub(before, delta), p));
}

export function mainOutPerWrappedIn(wrappedIn: bigint, main: bigint, p: LinearParams): bigint {
  return sub(main, fromNominal(sub(toNominal(main, p), wrappedIn), p));
}

export function mainInPerWrappedOut(wrappedOut: bigint, main: bigint, p: LinearParams): bigint {
  return sub(fromNominal(toNominal(main, p) + wrappedOut, p), main);
}

export function bptOutPerWrappedIn(
  wrappedIn: bigint,
  main: bigint,
  wrapped: bigint,
  supply: bigint,
  p: LinearParams,
): bigint {
  if (supply === 0n) return wrappedIn;
  const nominalMain = toNominal(main, p);
  const before = invariant(nominalMain, wrapped);
  const after = invariant(nominalMain, wrapped + wrappedIn);
  return sub(idivDown(mul(supply, after), before), supply);
}

export function bptInPerWrappedOut(
  wrappedOut: bigint,
  main: bigint,
  wrapped: bigint,
  supply: bigint,
  p: LinearParams,
): bigint {
  const nominalMain = toNominal(main, p);
  const before = invariant(nominalMain, wrapped);
  const after = invariant(nominalMain, sub(wrapped, wrappedOut));
  return sub(supply, idivDown(mul(supply, after), before));
}

export function wrappedInPerBptOut(
  bptOut: bigint,
  main: bigint,
  wrapped: bigint,
  supply: bigint,
  p: LinearParams,
): bigint {
  if (supply === 0n) return bptOut;
  const nominalMain = toNominal(main, p);
  const before = invariant(nominalMain, wrapped);
  const newWrapped = sub(idivUp(mul(supply + bptOut, before), supply), nominalMain);
  return sub(newWrapped, wrapped);
}

export function wrappedOutPerBptIn(
  bptIn: bigint,
  main: bigint,
  wrapped: bigint,
  supply: bigint,
  p: LinearParams,
): bigint {
  const nominalMain = toNominal(main, p);
  const before = invariant(nominalMain, wrapped);
  const newWrapped = sub(idivUp(mul(sub(supply, bptIn), before), supply), nominalMain);
  return sub(wrapped, newWrapped);
}
