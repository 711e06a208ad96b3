import Big from 'big.js';
import type { StoredToken } from '../domain/pool';

/**
 * Gas-cost prices for the SOR. The SOR asks for "the price of the native asset in the token"
 * (1 ETH = 200 BAL -> "200"); the price job stores the inverse (the token in the native asset).
 * A token without a usable price gets "0", which makes the SOR ignore gas for it, as the old API did.
 */

const Precise = Big();
Precise.DP = 36;
Precise.RM = Big.roundDown;

export function nativePriceInToken(tokenPriceInNative: string | null | undefined): string {
  if (tokenPriceInNative === null || tokenPriceInNative === undefined) return '0';
  let price: Big;
  try {
    price = new Precise(tokenPriceInNative);
  } catch {
    return '0';
  }
  if (price.lte(0)) return '0';
  return new Precise(1).div(price).toFixed();
}

/** Token address -> native asset price in that token, for every token of a snapshot. */
export function gasPriceTable(tokens: readonly StoredToken[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const t of tokens) out[t.address] = nativePriceInToken(t.price);
  return out;
}
