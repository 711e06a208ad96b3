import { Revert } from './revert';
/**
 * Balancer's LogExpMath (18-decimal fixed point x^y = exp(y * ln x)) in bigint, step for step as
 * the pools compute it on chain, because a weighted pool's swap result depends on its exact
 * rounding. Constants are e^(2^k) as the Solidity library defines them. Pure.
 */

const ONE_18 = 10n ** 18n;
const ONE_20 = 10n ** 20n;
const ONE_36 = 10n ** 36n;
const MAX_NATURAL_EXPONENT = 130n * ONE_18;
const MIN_NATURAL_EXPONENT = -41n * ONE_18;
const LN_36_LOWER_BOUND = ONE_18 - 10n ** 17n;
const LN_36_UPPER_BOUND = ONE_18 + 10n ** 17n;
const MILD_EXPONENT_BOUND = 2n ** 254n / ONE_20;
const INT256_MAX = 2n ** 255n - 1n;

// e^(2^7) and e^(2^6) as integers (no decimals): too large for 20-decimal fixed point.
const X0 = 128n * ONE_18;
const A0 = 38877084059945950922200000000000000000000000000000000000n;
const X1 = 64n * ONE_18;
const A1 = 6235149080811616882910000000n;

/** x_n = 2^(5-n) and a_n = e^(x_n), both with 20 decimals, n = 2..11. */
const TABLE: readonly (readonly [bigint, bigint])[] = [
  [3200000000000000000000n, 7896296018268069516100000000000000n],
  [1600000000000000000000n, 888611052050787263676000000n],
  [800000000000000000000n, 298095798704172827474000n],
  [400000000000000000000n, 5459815003314423907810n],
  [200000000000000000000n, 738905609893065022723n],
  [100000000000000000000n, 271828182845904523536n],
  [50000000000000000000n, 164872127070012814685n],
  [25000000000000000000n, 128402541668774148407n],
  [12500000000000000000n, 113314845306682631683n],
  [6250000000000000000n, 106449445891785942956n],
];

function ensure(ok: boolean, what: string): void {
  if (!ok) throw new Revert(what);
}

/** e^x for 18-decimal x in [MIN_NATURAL_EXPONENT, MAX_NATURAL_EXPONENT]. */
export function exp(xIn: bigint): bigint {
  ensure(xIn >= MIN_NATURAL_EXPONENT && xIn <= MAX_NATURAL_EXPONENT, 'exp: exponent out of bounds');
  if (xIn < 0n) return (ONE_18 * ONE_18) / exp(-xIn);
  let x = xIn;
  let firstAN = 1n;
  if (x >= X0) {
    x -= X0;
    firstAN = A0;
  } else if (x >= X1) {
    x -= X1;
    firstAN = A1;
  }
  // Continue with 20 decimals for precision; only a_2..a_9 take part in exp.
  x *= 100n;
  let product = ONE_20;
  for (const [xn, an] of TABLE.slice(0, 8)) {
    if (x >= xn) {
      x -= xn;
      product = (product * an) / ONE_20;
    }
  }
  // Taylor series for the remainder (x < 2^-2): twelve terms.
  let seriesSum = ONE_20;
  let term = x;
  seriesSum += term;
  for (let n = 2n; n <= 12n; n++) {
    term = (term * x) / ONE_20 / n;
    seriesSum += term;
  }
  return (((product * seriesSum) / ONE_20) * firstAN) / 100n;
}

/** ln(a) for 18-decimal a > 0. */
function ln(aIn: bigint): bigint {
  if (aIn < ONE_18) return -ln((ONE_18 * ONE_18) / aIn);
  let a = aIn;
  let sum = 0n;
  if (a >= A0 * ONE_18) {
    a /= A0;
    sum += X0;
  }
  if (a >= A1 * ONE_18) {
    a /= A1;
    sum += X1;
  }
  sum *= 100n;
  a *= 100n;
  for (const [xn, an] of TABLE) {
    if (a >= an) {
      a = (a * ONE_20) / an;
      sum += xn;
    }
  }
  // ln(a) = 2 * atanh((a - 1) / (a + 1)), odd powers up to 11.
  const z = ((a - ONE_20) * ONE_20) / (a + ONE_20);
  const zSquared = (z * z) / ONE_20;
  let num = z;
  let seriesSum = num;
  for (let d = 3n; d <= 11n; d += 2n) {
    num = (num * zSquared) / ONE_20;
    seriesSum += num / d;
  }
  seriesSum *= 2n;
  return (sum + seriesSum) / 100n;
}

/** ln with 36 decimals for x close to 1 (where the 18-decimal ln loses precision). */
function ln36(xIn: bigint): bigint {
  const x = xIn * ONE_18;
  const z = ((x - ONE_36) * ONE_36) / (x + ONE_36);
  const zSquared = (z * z) / ONE_36;
  let num = z;
  let seriesSum = num;
  for (let d = 3n; d <= 15n; d += 2n) {
    num = (num * zSquared) / ONE_36;
    seriesSum += num / d;
  }
  return seriesSum * 2n;
}

/** x^y, both 18-decimal fixed point. */
export function pow(x: bigint, y: bigint): bigint {
  if (y === 0n) return ONE_18;
  if (x === 0n) return 0n;
  ensure(x <= INT256_MAX, 'pow: base out of bounds');
  ensure(y < MILD_EXPONENT_BOUND, 'pow: exponent out of bounds');
  let logxTimesY: bigint;
  if (LN_36_LOWER_BOUND < x && x < LN_36_UPPER_BOUND) {
    const l = ln36(x);
    logxTimesY = (l / ONE_18) * y + ((l % ONE_18) * y) / ONE_18;
  } else {
    logxTimesY = ln(x) * y;
  }
  logxTimesY /= ONE_18;
  ensure(MIN_NATURAL_EXPONENT <= logxTimesY && logxTimesY <= MAX_NATURAL_EXPONENT, 'pow: product out of bounds');
  return exp(logxTimesY);
}
