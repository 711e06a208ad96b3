import { Revert } from '../../swap/math/revert';

/**
 * Gyroscope's GyroFixedPoint (Balancer's FixedPoint plus a few functions) and GyroPoolMath's
 * square root, in bigint, as every Gyro pool (2-CLP, 3-CLP, E-CLP) links them. The checked
 * functions revert where the Solidity ones do (uint256 overflow, underflow, division by zero);
 * the `U` variants are the contracts' unchecked ones, which the pools only use where their
 * overflow analysis rules an overflow out, so they are plain arithmetic here.
 */

export const ONE = 10n ** 18n;
const UINT256_LIMIT = 1n << 256n;

export function add(a: bigint, b: bigint): bigint {
  const c = a + b;
  if (c >= UINT256_LIMIT) throw new Revert('addition overflow (BAL#000)');
  return c;
}

export function sub(a: bigint, b: bigint): bigint {
  if (b > a) throw new Revert('subtraction underflow (BAL#001)');
  return a - b;
}

export function mulDown(a: bigint, b: bigint): bigint {
  const product = a * b;
  if (product >= UINT256_LIMIT) throw new Revert('multiplication overflow (BAL#003)');
  return product / ONE;
}

export const mulDownU = (a: bigint, b: bigint): bigint => (a * b) / ONE;

export function mulUp(a: bigint, b: bigint): bigint {
  const product = a * b;
  if (product >= UINT256_LIMIT) throw new Revert('multiplication overflow (BAL#003)');
  return product === 0n ? 0n : (product - 1n) / ONE + 1n;
}

export function mulUpU(a: bigint, b: bigint): bigint {
  const product = a * b;
  return product === 0n ? 0n : (product - 1n) / ONE + 1n;
}

export function divDown(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  if (a === 0n) return 0n;
  const inflated = a * ONE;
  if (inflated >= UINT256_LIMIT) throw new Revert('division overflow (BAL#005)');
  return inflated / b;
}

export function divDownU(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  return (a * ONE) / b;
}

export function divUp(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  if (a === 0n) return 0n;
  const inflated = a * ONE;
  if (inflated >= UINT256_LIMIT) throw new Revert('division overflow (BAL#005)');
  return (inflated - 1n) / b + 1n;
}

export function divUpU(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  if (a === 0n) return 0n;
  return (a * ONE - 1n) / b + 1n;
}

/** mulDown for a large `a`: its integer and fraction parts are multiplied separately. */
export const mulDownLargeSmallU = (a: bigint, b: bigint): bigint => (a / ONE) * b + mulDownU(a % ONE, b);

/** (a * d) / ceil(b / e) with d * e = 1e18: divDown for an `a` that would overflow when inflated. */
export function divDownLargeU(a: bigint, b: bigint, d = 1_000_000_000n, e = 1_000_000_000n): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  return (a * d) / (1n + (b - 1n) / e);
}

export const complement = (x: bigint): bigint => (x < ONE ? ONE - x : 0n);

const SMALL_GUESSES: readonly (readonly [bigint, bigint])[] = [
  [10n, 3162277660n],
  [10n ** 2n, 10n ** 10n],
  [10n ** 3n, 31622776601n],
  [10n ** 4n, 10n ** 11n],
  [10n ** 5n, 316227766016n],
  [10n ** 6n, 10n ** 12n],
  [10n ** 7n, 3162277660168n],
  [10n ** 8n, 10n ** 13n],
  [10n ** 9n, 31622776601683n],
  [10n ** 10n, 10n ** 14n],
  [10n ** 11n, 316227766016837n],
  [10n ** 12n, 10n ** 15n],
  [10n ** 13n, 3162277660168379n],
  [10n ** 14n, 10n ** 16n],
  [10n ** 15n, 31622776601683793n],
  [10n ** 16n, 10n ** 17n],
  [10n ** 17n, 316227766016837933n],
];

/** floor(log2(x) / 2) by the contract's halving steps. */
function intLog2Halved(x: bigint): bigint {
  let n = 0n;
  for (const shift of [128n, 64n, 32n, 16n, 8n, 4n, 2n]) {
    if (x >= 1n << shift) {
      x >>= shift;
      n += shift / 2n;
    }
  }
  return n;
}

function initialGuess(input: bigint): bigint {
  if (input >= ONE) return (1n << intLog2Halved(input / ONE)) * ONE;
  for (const [bound, guess] of SMALL_GUESSES) if (input <= bound) return guess;
  return input;
}

/**
 * GyroPoolMath._sqrt: seven Newton steps from a power-of-two first guess, then the contract's
 * check that the square is within `tolerance` (reverting where it is not, or where the lower
 * bound underflows).
 */
export function sqrt(input: bigint, tolerance: bigint): bigint {
  if (input === 0n) return 0n;
  let guess = initialGuess(input);
  const inflated = input * ONE;
  for (let k = 0; k < 7; k++) guess = (guess + inflated / guess) / 2n;
  const square = mulDown(guess, guess);
  const margin = mulUp(guess, tolerance);
  if (!(square <= add(input, margin) && square >= sub(input, margin))) throw new Revert('_sqrt FAILED');
  return guess;
}
