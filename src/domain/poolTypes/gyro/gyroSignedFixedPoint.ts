import { Revert } from '../../swap/math/revert';

/**
 * Gyroscope's SignedFixedPoint (int256, 18 decimals, plus 38-decimal "extra precision") in
 * bigint. `Mag` functions round toward zero (down) or away from it (up) in magnitude; Solidity's
 * signed division truncates toward zero, as bigint division does, so the formulas carry over
 * unchanged. Checked functions revert on int256 overflow like the library; `U` variants are the
 * unchecked ones the E-CLP uses where its parameter bounds rule an overflow out.
 */

export const ONE = 10n ** 18n;
export const ONE_XP = 10n ** 38n;
const E19 = 10n ** 19n;
const INT256_MAX = (1n << 255n) - 1n;
const INT256_MIN = -(1n << 255n);

function checked(value: bigint, what: string): bigint {
  if (value > INT256_MAX || value < INT256_MIN) throw new Revert(`${what} overflow`);
  return value;
}

export const add = (a: bigint, b: bigint): bigint => checked(a + b, 'addition (BAL#000)');
export const sub = (a: bigint, b: bigint): bigint => checked(a - b, 'subtraction (BAL#001)');

export const mulDownMag = (a: bigint, b: bigint): bigint => checked(a * b, 'multiplication (BAL#003)') / ONE;
export const mulDownMagU = (a: bigint, b: bigint): bigint => (a * b) / ONE;

function roundAwayFromZero(product: bigint, unit: bigint): bigint {
  if (product > 0n) return (product - 1n) / unit + 1n;
  if (product < 0n) return (product + 1n) / unit - 1n;
  return 0n;
}

export const mulUpMag = (a: bigint, b: bigint): bigint =>
  roundAwayFromZero(checked(a * b, 'multiplication (BAL#003)'), ONE);
export const mulUpMagU = (a: bigint, b: bigint): bigint => roundAwayFromZero(a * b, ONE);

export function divDownMag(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  if (a === 0n) return 0n;
  return checked(a * ONE, 'division (BAL#005)') / b;
}

export function divDownMagU(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  return (a * ONE) / b;
}

export function divUpMag(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  if (a === 0n) return 0n;
  if (b < 0n) {
    b = -b;
    a = -a;
  }
  const inflated = checked(a * ONE, 'division (BAL#005)');
  return inflated > 0n ? (inflated - 1n) / b + 1n : (inflated + 1n) / b - 1n;
}

export function divUpMagU(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  if (a === 0n) return 0n;
  if (b < 0n) {
    b = -b;
    a = -a;
  }
  return a > 0n ? (a * ONE - 1n) / b + 1n : (a * ONE + 1n) / b - 1n;
}

export const mulXp = (a: bigint, b: bigint): bigint => checked(a * b, 'multiplication (BAL#003)') / ONE_XP;
export const mulXpU = (a: bigint, b: bigint): bigint => (a * b) / ONE_XP;

export function divXp(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  if (a === 0n) return 0n;
  return checked(a * ONE_XP, 'division (BAL#005)') / b;
}

export function divXpU(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  return (a * ONE_XP) / b;
}

/**
 * Normal-precision `a` times extra-precision `b`, to normal precision, rounded down in the signed
 * direction. `b` is split at 19 decimals as the contract does, so the result keeps its exact
 * rounding (not the same as a * b / 1e38 floored).
 */
export function mulDownXpToNpU(a: bigint, b: bigint): bigint {
  const prod1 = a * (b / E19);
  const prod2 = a * (b % E19);
  return prod1 >= 0n && prod2 >= 0n ? (prod1 + prod2 / E19) / E19 : (prod1 + prod2 / E19 + 1n) / E19 - 1n;
}

/** As `mulDownXpToNpU`, rounded up in the signed direction. */
export function mulUpXpToNpU(a: bigint, b: bigint): bigint {
  const prod1 = a * (b / E19);
  const prod2 = a * (b % E19);
  return prod1 <= 0n && prod2 <= 0n ? (prod1 + prod2 / E19) / E19 : (prod1 + prod2 / E19 - 1n) / E19 + 1n;
}

/** SafeCast.toInt256 of a uint256. */
export function toInt256(value: bigint): bigint {
  if (value > INT256_MAX) throw new Revert("SafeCast: value doesn't fit in an int256");
  return value;
}

/** SafeCast.toUint256 of an int256. */
export function toUint256(value: bigint): bigint {
  if (value < 0n) throw new Revert('SafeCast: value must be positive');
  return value;
}
