/**
 * Exact decimal-string arithmetic for token amounts. Subgraph values arrive as human-unit decimals
 * ("2900000.0", "1e-7", "0.123456789012345678901"); they must become exact integers in smallest
 * units without ever passing through a JS number.
 */

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$/;

export class DecimalError extends Error {
  override readonly name: string = 'DecimalError';
}

interface Parts {
  negative: boolean;
  /** All significant digits, no dot. */
  digits: string;
  /** Position of the decimal point counted from the right of `digits` (>= 0 means fraction digits). */
  scale: number;
}

function parse(value: string): Parts {
  const m = DECIMAL.exec(value.trim());
  if (!m || (m[2] === '' && (m[3] === undefined || m[3] === '')))
    throw new DecimalError(`not a decimal number: '${value}'`);
  const int = m[2] ?? '';
  const frac = m[3] ?? '';
  const exp = m[4] === undefined ? 0 : Number(m[4]);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 1000) throw new DecimalError(`exponent out of range: '${value}'`);
  return { negative: m[1] === '-', digits: (int + frac).replace(/^0+(?=\d)/, '') || '0', scale: frac.length - exp };
}

/**
 * Canonical plain decimal: no exponent, no trailing fraction zeros, no leading zeros, "-0" -> "0".
 * With `maxFractionDigits`, extra fraction digits are truncated toward zero (a balance can never
 * hold more precision than its token's decimals).
 */
export function toPlainDecimal(value: string, maxFractionDigits?: number): string {
  const p = parse(value);
  let digits = p.digits;
  let scale = p.scale;
  if (scale < 0) {
    digits = digits + '0'.repeat(-scale);
    scale = 0;
  }
  if (maxFractionDigits !== undefined && scale > maxFractionDigits) {
    digits = digits.slice(0, digits.length - (scale - maxFractionDigits)) || '0';
    scale = maxFractionDigits;
  }
  const padded = digits.padStart(scale + 1, '0');
  let intPart = padded.slice(0, padded.length - scale).replace(/^0+(?=\d)/, '');
  let fracPart = padded.slice(padded.length - scale).replace(/0+$/, '');
  if (intPart === '') intPart = '0';
  const isZero = /^0*$/.test(intPart + fracPart);
  if (isZero) fracPart = '';
  const sign = p.negative && !isZero ? '-' : '';
  return fracPart === '' ? `${sign}${intPart}` : `${sign}${intPart}.${fracPart}`;
}

/** Human-unit decimal -> integer in smallest units (truncating precision beyond `decimals`). */
export function decimalToUnits(value: string, decimals: number): bigint {
  const plain = toPlainDecimal(value, decimals);
  const negative = plain.startsWith('-');
  const [i = '0', f = ''] = (negative ? plain.slice(1) : plain).split('.');
  const units = BigInt(i + f.padEnd(decimals, '0'));
  return negative ? -units : units;
}

/** Integer in smallest units -> canonical human-unit decimal string. */
export function unitsToDecimal(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const s = (negative ? -units : units).toString().padStart(decimals + 1, '0');
  const i = s.slice(0, s.length - decimals);
  const f = s.slice(s.length - decimals).replace(/0+$/, '');
  return `${negative ? '-' : ''}${i}${f ? '.' + f : ''}`;
}

export function isZeroDecimal(value: string): boolean {
  return /^[+-]?0*\.?0*(?:[eE][+-]?\d+)?$/.test(value.trim()) && /\d/.test(value);
}

/** Compares two decimal strings exactly: -1, 0 or 1. */
export function compareDecimal(a: string, b: string): number {
  const scale = 80;
  const x = decimalToUnits(a, scale);
  const y = decimalToUnits(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}
