import { Revert } from '../../swap/math/revert';

/**
 * The V3 FixedPoint functions the V2 library (`swap/math/fixedPoint.ts`) lacks. Everything else in
 * V3's FixedPoint (mulDown/Up, divDown/Up, complement, powDown/Up with the 1, 2 and 4 shortcuts) is
 * the same arithmetic as V2's and is imported from there.
 */

/** a * b / c rounded up; V3 reverts `ZeroDivision` on c = 0. */
export function mulDivUp(a: bigint, b: bigint, c: bigint): bigint {
  if (c === 0n) throw new Revert('division by zero (ZeroDivision)', { code: 'ZeroDivision' });
  const product = a * b;
  return product === 0n ? 0n : (product - 1n) / c + 1n;
}

/** 99.9999%: no fee (static, dynamic, aggregate) may reach 100%. */
export const MAX_FEE_PERCENTAGE = 999_999_000_000_000_000n;

/** Solidity 0.8 checked subtraction: an underflow reverts (panic 0x11) rather than going negative. */
export function csub(a: bigint, b: bigint): bigint {
  if (b > a) throw new Revert('arithmetic underflow (panic 0x11)');
  return a - b;
}

/** Solidity 0.8 checked multiplication of raw integers: past uint256 it reverts (panic 0x11). */
export function cmul(a: bigint, b: bigint): bigint {
  const product = a * b;
  if (product >= 1n << 256n) throw new Revert('arithmetic overflow (panic 0x11)');
  return product;
}

/** `divUpRaw`: a / b rounded up for an `a` already carrying its decimals (a product of two scaled18). */
export function divUpRaw(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (ZeroDivision)', { code: 'ZeroDivision' });
  return a === 0n ? 0n : (a - 1n) / b + 1n;
}
