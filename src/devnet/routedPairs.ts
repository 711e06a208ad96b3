import { parseUnits } from 'ethers';
import type { Devnet, DevnetToken } from './devnet';
import { DEV_POOLS, DEV_TOKENS, ETH_PRICE_USD, WETH_SYMBOL, WRAPPED_TOKENS } from './universe';
import { V3_WRAPPED_TOKENS } from './v3/universe';

/**
 * How many of a Vault's token pairs the service routes on the devnet: for every ordered pair of
 * the Vault's tokens, `/sor` in that Vault selling about $100 of the first for the second, one
 * transaction (a V2 batchSwap or a V3 BatchRouter call) per answer. The demo banner prints the
 * figures and an end-to-end suite holds V3 to its target.
 */

export interface PairToken {
  readonly symbol: string;
  readonly address: string;
  readonly decimals: number;
  readonly priceUsd: number;
}

export interface RoutedPairs {
  readonly protocolVersion: 2 | 3;
  readonly tokens: readonly PairToken[];
  /** Ordered pairs as `SELL>BUY`. */
  readonly routed: readonly string[];
  readonly unrouted: readonly string[];
}

/** USD price of a devnet token: its universe price, a vault share at its asset's, a BPT at 1. */
function priceUsd(symbol: string): number {
  if (symbol === WETH_SYMBOL) return Number(ETH_PRICE_USD);
  const token = DEV_TOKENS.find((t) => t.symbol === symbol);
  if (token) return Number(token.priceUsd);
  const wrapped = WRAPPED_TOKENS.find((t) => t.symbol === symbol);
  if (wrapped) return Number(wrapped.priceUsd);
  const v3Wrapped = V3_WRAPPED_TOKENS.find((t) => t.symbol === symbol);
  if (v3Wrapped) return priceUsd(v3Wrapped.asset);
  return 1;
}

function pairToken(token: DevnetToken): PairToken {
  return { symbol: token.symbol, address: token.address, decimals: token.decimals, priceUsd: priceUsd(token.symbol) };
}

/** The V3 tokens a user trades: every V3 pool's tokens and each buffer's asset. */
export function v3PairTokens(devnet: Devnet): PairToken[] {
  const addresses = new Set<string>();
  for (const p of devnet.v3.pools) for (const t of p.tokens) addresses.add(t.toLowerCase());
  for (const b of devnet.v3.buffers) addresses.add(b.underlying.toLowerCase());
  return tokensAt(devnet, addresses);
}

/** The V2 tokens: every V2 pool's tokens that are not a pool's own BPT. */
export function v2PairTokens(devnet: Devnet): PairToken[] {
  const bpts = new Set(devnet.pools.map((p) => p.address.toLowerCase()));
  const symbols = new Set(
    DEV_POOLS.flatMap((p) => ('tokens' in p ? p.tokens.map((t) => t.symbol) : [p.main, p.wrapped])),
  );
  const addresses = new Set<string>();
  for (const t of devnet.tokens)
    if (symbols.has(t.symbol) && !bpts.has(t.address.toLowerCase())) addresses.add(t.address.toLowerCase());
  return tokensAt(devnet, addresses);
}

function tokensAt(devnet: Devnet, addresses: ReadonlySet<string>): PairToken[] {
  return [...devnet.tokens, ...devnet.v3.tokens]
    .filter(
      (t, i, all) => addresses.has(t.address.toLowerCase()) && all.findIndex((u) => u.address === t.address) === i,
    )
    .map(pairToken);
}

/** About `usd` of the token, raw (at least one unit). */
export function amountWorth(token: PairToken, usd: number): bigint {
  const units = Math.max(usd / token.priceUsd, 10 ** -Math.min(token.decimals, 12));
  return parseUnits(units.toFixed(Math.min(token.decimals, 12)), token.decimals);
}

/** Asks `/sor` for every ordered pair of `tokens` in one Vault, eight at a time. */
export async function routedPairs(
  apiUrl: string,
  chainId: number,
  protocolVersion: 2 | 3,
  tokens: readonly PairToken[],
  usd = 100,
): Promise<RoutedPairs> {
  const pairs = tokens.flatMap((sell) => tokens.filter((buy) => buy !== sell).map((buy) => [sell, buy] as const));
  const routes = new Map<string, boolean>();
  const name = ([sell, buy]: readonly [PairToken, PairToken]) => `${sell.symbol}>${buy.symbol}`;
  const ask = async ([sell, buy]: readonly [PairToken, PairToken]): Promise<void> => {
    const res = await fetch(`${apiUrl}/sor/${chainId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sellToken: sell.address,
        buyToken: buy.address,
        orderKind: 'sell',
        amount: amountWorth(sell, usd).toString(),
        gasPrice: '0',
        protocolVersion,
      }),
    });
    const body = (await res.json()) as { paths?: unknown[]; swaps?: unknown[] };
    const ok = res.status === 200 && ((body.paths?.length ?? 0) > 0 || (body.swaps?.length ?? 0) > 0);
    routes.set(name([sell, buy]), ok);
  };
  for (let i = 0; i < pairs.length; i += 8) await Promise.all(pairs.slice(i, i + 8).map(ask));
  // In the pairs' order, not the answers': a seed then draws the same orders at every run.
  const names = pairs.map(name);
  return {
    protocolVersion,
    tokens,
    routed: names.filter((n) => routes.get(n)),
    unrouted: names.filter((n) => !routes.get(n)),
  };
}

/** "27 of 56 ordered pairs of 8 tokens route (48 %)". */
export function routedLine(r: RoutedPairs): string {
  const total = r.routed.length + r.unrouted.length;
  const share = total === 0 ? 0 : Math.round((100 * r.routed.length) / total);
  return `${r.routed.length} of ${total} ordered pairs of its ${r.tokens.length} tokens route (${share} %)`;
}
