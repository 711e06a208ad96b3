import Big from 'big.js';
import { toPlainDecimal } from '../decimal';

/**
 * Exact decimal arithmetic for decoration (USD values, deltas). Sums and products are exact;
 * divisions keep 24 fraction digits (more would make them the bulk of a 10,000-pool run); stored results are rounded half-up to OUTPUT_DECIMALS and canonicalized, so the same
 * inputs always give byte-identical strings (the job writes only pools whose decoration changed).
 */
export const Dec = Big();
Dec.DP = 24;
Dec.RM = Big.roundHalfUp;

export type Exact = Big;

export const OUTPUT_DECIMALS = 18;
export const ZERO = new Dec(0);

export function dec(value: string | number): Exact {
  return new Dec(value);
}

export function toOutput(value: Exact): string {
  return toPlainDecimal(value.toFixed(OUTPUT_DECIMALS));
}

/** Rounds to a whole number of basis points; the result is always a finite number. */
export function toBps(value: Exact): number {
  const n = Number(value.round(0, Big.roundHalfUp).toFixed(0));
  return Number.isFinite(n) ? n : 0;
}
