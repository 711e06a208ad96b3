import { divDown, divUp, mulDown, mulUp, ONE } from '../../../swap/math/fixedPoint';
import { mulDivUp } from '../../../protocols/v3/fixedPointV3';
import { Revert } from '../../../swap/math/revert';

/**
 * ReClammMath's static parts (constant product over real plus virtual balances, 18 decimals, token 0
 * is "a"), operation for operation as the contract rounds them. Balances are live scaled18.
 */

/** `AmountOutGreaterThanBalance()`: the virtual balances would pay out more than the pool holds. */
export class ReClammAmountOutGreaterThanBalance extends Revert {
  override readonly name = 'ReClammAmountOutGreaterThanBalance';
  constructor() {
    super('ReClamm amount out above the real balance (AmountOutGreaterThanBalance)', {
      code: 'AmountOutGreaterThanBalance',
    });
  }
}

/** OpenZeppelin `Math.sqrt`: the floor of the square root of an integer. */
export function floorSqrt(n: bigint): bigint {
  if (n < 2n) return n;
  let x = 1n << BigInt((n.toString(2).length + 1) >> 1);
  for (;;) {
    const y = (x + n / x) >> 1n;
    if (y >= x) return x;
    x = y;
  }
}

/** `sqrtScaled18`: the square root of an 18-decimal value, 18 decimals. */
export const sqrtScaled18 = (value: bigint): bigint => floorSqrt(value * ONE);

/** (Ra + Va)(Rb + Vb), without a square root, rounded as asked. */
export function reClammInvariant(
  balances: readonly bigint[],
  virtualA: bigint,
  virtualB: bigint,
  rounding: 'up' | 'down',
): bigint {
  const x = balances[0]! + virtualA;
  const y = balances[1]! + virtualB;
  return rounding === 'down' ? mulDown(x, y) : mulUp(x, y);
}

const virtualInOut = (indexIn: number, virtualA: bigint, virtualB: bigint): [bigint, bigint] =>
  indexIn === 0 ? [virtualA, virtualB] : [virtualB, virtualA];

/** computeOutGivenIn: (Bo + Vo) Ai / (Bi + Vi + Ai), rounded down. */
export function reClammOutGivenIn(
  balances: readonly bigint[],
  virtualA: bigint,
  virtualB: bigint,
  indexIn: number,
  indexOut: number,
  amountIn: bigint,
): bigint {
  const [virtualIn, virtualOut] = virtualInOut(indexIn, virtualA, virtualB);
  const out = ((balances[indexOut]! + virtualOut) * amountIn) / (balances[indexIn]! + virtualIn + amountIn);
  if (out > balances[indexOut]!) throw new ReClammAmountOutGreaterThanBalance();
  return out;
}

/** computeInGivenOut: (Bi + Vi) Ao / (Bo + Vo - Ao), rounded up. */
export function reClammInGivenOut(
  balances: readonly bigint[],
  virtualA: bigint,
  virtualB: bigint,
  indexIn: number,
  indexOut: number,
  amountOut: bigint,
): bigint {
  if (amountOut > balances[indexOut]!) throw new ReClammAmountOutGreaterThanBalance();
  const [virtualIn, virtualOut] = virtualInOut(indexIn, virtualA, virtualB);
  return mulDivUp(balances[indexIn]! + virtualIn, amountOut, balances[indexOut]! + virtualOut - amountOut);
}

/**
 * computeCenteredness: how far the real balances' ratio is from the virtual balances' ratio, 1 at
 * the centre and 0 at an edge of the range; `aboveCenter` when token a is the relatively plentiful one.
 */
export function reClammCenteredness(
  balances: readonly bigint[],
  virtualA: bigint,
  virtualB: bigint,
): { readonly centeredness: bigint; readonly aboveCenter: boolean } {
  if (balances[0] === 0n) return { centeredness: 0n, aboveCenter: false };
  if (balances[1] === 0n) return { centeredness: 0n, aboveCenter: true };
  const numerator = balances[0]! * virtualB;
  const denominator = virtualA * balances[1]!;
  return numerator <= denominator
    ? { centeredness: divDown(numerator, denominator), aboveCenter: false }
    : { centeredness: divDown(denominator, numerator), aboveCenter: true };
}

/** computePriceRatio: the range's max price over its min price, rounded up. */
export function reClammPriceRatio(balances: readonly bigint[], virtualA: bigint, virtualB: bigint): bigint {
  const invariant = reClammInvariant(balances, virtualA, virtualB, 'down');
  const minPrice = (virtualB * virtualB) / invariant;
  const maxPrice = divDown(invariant, mulDown(virtualA, virtualA));
  return divUp(maxPrice, minPrice);
}

/** isPoolWithinTargetRange: the centeredness at least the margin (on the virtual balances given). */
export function reClammWithinTargetRange(
  balances: readonly bigint[],
  virtualA: bigint,
  virtualB: bigint,
  centerednessMargin: bigint,
): boolean {
  return reClammCenteredness(balances, virtualA, virtualB).centeredness >= centerednessMargin;
}
