import type { PoolCore, StoredToken } from './pool';

/**
 * Tokens that appear in `pools` and are not in `known`, with the metadata the pools carry.
 * A pool's own BPT is a token too (nested pools trade it), so it is included.
 */
export function discoverTokens(pools: readonly PoolCore[], known: ReadonlySet<string>): StoredToken[] {
  const found = new Map<string, StoredToken>();
  for (const pool of pools) {
    for (const t of pool.tokens) {
      if (known.has(t.address)) continue;
      const prev = found.get(t.address);
      if (prev && prev.symbol !== null) continue;
      found.set(t.address, {
        address: t.address,
        symbol: t.symbol,
        name: t.name,
        decimals: t.decimals,
        price: null,
        priceUsd: null,
        lastUpdate: null,
        noPriceData: false,
      });
    }
  }
  return [...found.values()];
}
