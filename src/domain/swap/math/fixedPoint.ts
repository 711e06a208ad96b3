import { pow } from './logExpMath';
import { Revert } from './revert';

/**
 * Balancer's FixedPoint library (18 decimals) in bigint, with the Vault's rounding directions.
 * Pure. `powUp` and `powDown` have two generations: pools from 2022 on (weighted v2+) take exact
 * shortcuts for exponents 1, 2 and 4; the first pools always add the pow error bound. The shared
 * arithmetic of every pool type's math, V2 and V3 (each family's own math is in its folder under
 * `domain/poolTypes/`).
 */
export const ONE = 10n ** 18n;
const TWO = 2n * ONE;
const FOUR = 4n * ONE;
const MAX_POW_RELATIVE_ERROR = 10000n;

export function sub(a: bigint, b: bigint): bigint {
  if (b > a) throw new Revert('subtraction underflow (BAL#001)');
  return a - b;
}

export const mulDown = (a: bigint, b: bigint): bigint => (a * b) / ONE;

export function mulUp(a: bigint, b: bigint): bigint {
  const product = a * b;
  return product === 0n ? 0n : (product - 1n) / ONE + 1n;
}

export function divDown(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  return (a * ONE) / b;
}

export function divUp(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  return a === 0n ? 0n : (a * ONE - 1n) / b + 1n;
}

export const complement = (x: bigint): bigint => (x < ONE ? ONE - x : 0n);

export function powUp(x: bigint, y: bigint, shortcuts: boolean): bigint {
  if (shortcuts) {
    if (y === ONE) return x;
    if (y === TWO) return mulUp(x, x);
    if (y === FOUR) {
      const square = mulUp(x, x);
      return mulUp(square, square);
    }
  }
  const raw = pow(x, y);
  return raw + mulUp(raw, MAX_POW_RELATIVE_ERROR) + 1n;
}

/** FixedPoint.powDown; pools from 2022 on take exact shortcuts for exponents 1, 2 and 4. */
export function powDown(x: bigint, y: bigint, shortcuts: boolean): bigint {
  if (shortcuts) {
    if (y === ONE) return x;
    if (y === TWO) return mulDown(x, x);
    if (y === FOUR) {
      const square = mulDown(x, x);
      return mulDown(square, square);
    }
  }
  const raw = pow(x, y);
  const maxError = mulUp(raw, MAX_POW_RELATIVE_ERROR) + 1n;
  return raw < maxError ? 0n : raw - maxError;
}
