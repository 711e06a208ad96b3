import { compareDecimal, toPlainDecimal } from '../domain/decimal';

/**
 * A number that may be stored as an exact decimal string. `approx` is the nearest double, so most
 * comparisons are one float comparison; only when two doubles are equal does the exact decimal
 * text decide. That is exact: rounding a decimal to the nearest double is monotonic, so
 * `approx(a) < approx(b)` implies `a < b`.
 */
export interface NumericValue {
  readonly approx: number;
  /** Canonical decimal text for decimal-string fields; null for plain JS numbers. */
  readonly exact: string | null;
}

const PLAIN_DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** A stored decimal string, or null when the field is absent or not a number. */
export function storedDecimal(value: unknown): NumericValue | null {
  if (typeof value === 'number') return Number.isFinite(value) ? fromNumber(value) : null;
  if (typeof value !== 'string') return null;
  if (PLAIN_DECIMAL.test(value)) return { approx: Number(value), exact: value };
  try {
    const exact = toPlainDecimal(value);
    return { approx: Number(exact), exact };
  } catch {
    return null;
  }
}

/** A stored JS number (Int and Float fields), or null. */
export function storedNumber(value: unknown): NumericValue | null {
  return typeof value === 'number' && Number.isFinite(value) ? { approx: value, exact: null } : null;
}

/**
 * A number from a query (GraphQL Int/Float). Its shortest round-trip text ("0.01" for 0.01) is
 * what the user wrote, so comparing that text against stored decimals is exact.
 */
export function fromNumber(value: number): NumericValue {
  return { approx: value, exact: toPlainDecimal(String(value)) };
}

export function compareNumeric(a: NumericValue, b: NumericValue): number {
  if (a.approx < b.approx) return -1;
  if (a.approx > b.approx) return 1;
  if (a.exact === null || b.exact === null || a.exact === b.exact) return 0;
  return compareDecimal(a.exact, b.exact);
}

/** The decimal text of a value, for text operators (contains, beginsWith) and cursors. */
export function numericText(v: NumericValue): string {
  return v.exact ?? toPlainDecimal(String(v.approx));
}
