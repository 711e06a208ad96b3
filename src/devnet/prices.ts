import type { Devnet } from './devnet';
import {
  DEV_TOKENS,
  ETH_PRICE_USD,
  LIDO,
  SALE_TOKENS,
  STETH_SYMBOL,
  WETH_SYMBOL,
  WRAPPED_TOKENS,
  WSTETH_SYMBOL,
} from './universe';

/** The devnet's fixed USD prices by lower-case token address (WETH at the ETH price). Pure. */
export function pricesByAddress(devnet: Devnet): Map<string, string> {
  const bySymbol = new Map<string, string>([
    [WETH_SYMBOL, ETH_PRICE_USD],
    ...[...DEV_TOKENS, ...WRAPPED_TOKENS, ...SALE_TOKENS].map((t) => [t.symbol, t.priceUsd] as const),
    [STETH_SYMBOL, LIDO.stEthPriceUsd],
    [WSTETH_SYMBOL, LIDO.wstEthPriceUsd],
  ]);
  const out = new Map<string, string>();
  for (const t of devnet.tokens) {
    const price = bySymbol.get(t.symbol);
    if (price !== undefined) out.set(t.address, price);
  }
  return out;
}

/** CoinGecko coin ids the devnet prices (the native asset). */
export const COIN_PRICES_USD: ReadonlyMap<string, string> = new Map([['ethereum', ETH_PRICE_USD]]);
