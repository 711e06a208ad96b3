import type { OrderKind } from './types';

/**
 * Price impact against the route's spot price (fees included): the share of value lost to the
 * trade's own size. 0 for a trade too small to move the price. A float for display, as a plain
 * decimal string; amounts stay exact elsewhere.
 */
export function priceImpact(
  kind: OrderKind,
  amount: bigint,
  returnAmount: bigint,
  decimalsIn: number,
  decimalsOut: number,
  spot: number,
): string {
  if (!(spot > 0) || !Number.isFinite(spot) || returnAmount <= 0n) return '0';
  const given = Number(amount) / 10 ** (kind === 'sell' ? decimalsIn : decimalsOut);
  const got = Number(returnAmount) / 10 ** (kind === 'sell' ? decimalsOut : decimalsIn);
  const impact = kind === 'sell' ? 1 - got / (given / spot) : 1 - (given * spot) / got;
  return plainDecimal(Math.max(0, impact));
}

/** A float as a plain decimal string (no exponent), for the wire's price fields. */
export function plainDecimal(x: number): string {
  if (!Number.isFinite(x)) return '0';
  if (x === 0) return '0';
  const digits = Math.max(0, Math.min(20, 17 - Math.floor(Math.log10(Math.abs(x)))));
  const s = x.toFixed(digits);
  return s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s;
}
