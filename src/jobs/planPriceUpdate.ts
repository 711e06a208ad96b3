import type { Address } from '../domain/address';
import Big from 'big.js';
import { toPlainDecimal } from '../domain/decimal';
import type { StoredToken } from '../domain/pool';
import type { BatchResult } from '../sources/prices/priceClient';

/**
 * Pure planning step of the price job for one chain: which tokens to ask for, and which stored
 * tokens change given the provider's answers. No I/O, no clock: `nowMs` comes in.
 */

/** Fraction digits kept for a price in the native asset (enough for 1e-12 USD tokens vs ETH). */
export const NATIVE_PRICE_DECIMALS = 30;

const Exact = Big();
Exact.DP = NATIVE_PRICE_DECIMALS;
Exact.RM = Big.roundHalfUp;

export interface PricePlanInput {
  readonly tokens: readonly StoredToken[];
  /** The wrapped native token: always priced 1 in the native asset. */
  readonly wrappedNative: Address;
  readonly nowMs: number;
  /** Tokens whose `lastUpdate` is newer than this are not asked for again. */
  readonly freshnessMs: number;
}

/** USD price / native USD price, rounded half-up to NATIVE_PRICE_DECIMALS, canonical. */
export function priceInNative(usd: string, nativeUsd: string): string {
  return toPlainDecimal(new Exact(usd).div(new Exact(nativeUsd)).toFixed());
}

export function isFresh(token: StoredToken, nowMs: number, freshnessMs: number): boolean {
  return token.lastUpdate !== null && !token.noPriceData && nowMs - token.lastUpdate < freshnessMs;
}

/** Addresses to request from the provider: every token that is not fresh and not the wrapped native. */
export function addressesToPrice(input: PricePlanInput): string[] {
  return input.tokens
    .filter((t) => t.address !== input.wrappedNative && !isFresh(t, input.nowMs, input.freshnessMs))
    .map((t) => t.address);
}

export interface PricePlan {
  /** Tokens whose stored price data changes (written, and the token version bumped). */
  readonly changed: StoredToken[];
  readonly priced: number;
  readonly noPriceData: number;
  /** Tokens in batches that failed: left exactly as they were. */
  readonly failed: number;
  readonly fresh: number;
}

function samePrice(a: StoredToken, b: StoredToken): boolean {
  return a.price === b.price && a.priceUsd === b.priceUsd && a.noPriceData === b.noPriceData;
}

export function planPrices(input: PricePlanInput, nativeUsd: string, results: readonly BatchResult[]): PricePlan {
  const answered = new Map<string, string | null>();
  let failed = 0;
  for (const r of results) {
    if (!r.prices) {
      failed += r.addresses.length;
      continue;
    }
    for (const a of r.addresses) answered.set(a, r.prices.get(a) ?? null);
  }

  const changed: StoredToken[] = [];
  let priced = 0;
  let noPriceData = 0;
  let fresh = 0;
  for (const token of input.tokens) {
    let next: StoredToken | undefined;
    if (token.address === input.wrappedNative) {
      next = { ...token, price: '1', priceUsd: nativeUsd, noPriceData: false, lastUpdate: input.nowMs };
    } else if (!answered.has(token.address)) {
      if (isFresh(token, input.nowMs, input.freshnessMs)) fresh += 1;
      continue;
    } else {
      const usd = answered.get(token.address);
      // Unknown to the provider: keep the last price, say so.
      next = usd
        ? { ...token, price: priceInNative(usd, nativeUsd), priceUsd: usd, noPriceData: false, lastUpdate: input.nowMs }
        : { ...token, noPriceData: true };
    }
    if (next.noPriceData) noPriceData += 1;
    else priced += 1;
    if (!samePrice(token, next)) changed.push(next);
  }
  return { changed, priced, noPriceData, failed, fresh };
}
