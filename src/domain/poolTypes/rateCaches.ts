import { AT_POOL, at, chainCall, getter, type ChainCall, type VaultTokens } from './chainReads';

/**
 * Token rate caches with a rate provider behind them, as ComposableStable (`getTokenRateCache`)
 * and MetaStable (`getPriceRateCache`) keep them: a swap in a block after a cache expired first
 * caches the provider's rate (`ComposableStablePoolRates._cacheTokenRateIfNecessary`,
 * `MetaStablePool._cachePriceRatesIfNecessary`, both before the swap scales its amounts), so the
 * second round asks each provider's `getRate()` and `ratesAt` picks the rate a swap at a time uses.
 */

/** A token's rate cache as the pool keeps it, and its provider's `getRate()`. */
export interface RateCache {
  readonly rate: bigint;
  /** Composable stable only: the rate at the last join or exit. */
  readonly oldRate?: bigint;
  readonly duration: bigint;
  /** Unix seconds; a swap in a later block first refreshes the cache from the provider. */
  readonly expires: bigint;
  /** Absent when the provider's `getRate()` reverted: the cached rate is kept. */
  readonly providerRate?: bigint;
}

export interface RateCacheState {
  /** Token rate per lower-case token address, 1e18 = 1 (as a swap at the state's time uses it). */
  readonly rates?: ReadonlyMap<string, bigint>;
  /** Per lower-case token address with a rate provider: its cache and the provider's rate now. */
  readonly rateCaches?: ReadonlyMap<string, RateCache>;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export interface RateCacheDraft {
  rates?: Map<string, bigint>;
  rateCaches?: Map<string, Mutable<RateCache>>;
  /** The pool's providers in the Vault's token order (lower case), for the second round. */
  rateProviders?: string[];
}

export const GET_RATE_PROVIDERS = getter('getRateProviders', [], ['address[]']);
export const GET_RATE = getter('getRate', [], ['uint256']);

export const isZeroAddress = (a: string) => /^0x0+$/.test(a);

export function rateProvidersCall<D extends { rateProviders?: string[] }>(): ChainCall<D> {
  return chainCall(AT_POOL, GET_RATE_PROVIDERS, [], (d: D, [providers]) => (d.rateProviders = [...providers]));
}

/**
 * The second round: each cached token's provider's `getRate()`. A provider that reverts (or
 * answers something else) leaves the cached rate in use.
 */
export function providerRateCalls<D extends RateCacheDraft>(draft: D, vaultTokens: VaultTokens): ChainCall<D>[] {
  const providers = draft.rateProviders;
  if (!draft.rateCaches || !providers) return [];
  const calls: ChainCall<D>[] = [];
  for (const [token, cache] of draft.rateCaches) {
    const provider = providers[vaultTokens.tokens.findIndex((t) => t.address === token)];
    if (!provider || isZeroAddress(provider)) continue;
    calls.push(chainCall(at(provider), GET_RATE, [], (_: D, [rate]) => (cache.providerRate = rate)));
  }
  return calls;
}

/**
 * The rates a swap at `timestamp` uses: for each cache expired by then (`timestamp > expires`)
 * the provider's rate, else the cached one; `s.rates` itself when none differs.
 */
export function ratesAt(s: RateCacheState, timestamp: bigint): ReadonlyMap<string, bigint> | undefined {
  const rates = s.rates;
  if (!s.rateCaches) return rates;
  const next = new Map(rates);
  for (const [token, c] of s.rateCaches)
    next.set(token, timestamp > c.expires && c.providerRate !== undefined ? c.providerRate : c.rate);
  if (!rates || next.size !== rates.size || [...next].some(([t, r]) => rates.get(t) !== r)) return next;
  return rates;
}

/** A provider behind an expired cache: its rate moves freely, so the pool is read at each head. */
export function cacheExpired(s: RateCacheState, timestamp: bigint): boolean {
  for (const c of s.rateCaches?.values() ?? []) if (timestamp > c.expires && c.providerRate !== undefined) return true;
  return false;
}

/** The state without the providers' own rates (they move freely; a re-read finds others). */
export function withoutProviderRates<S extends RateCacheState>(s: S): S {
  if (!s.rateCaches) return s;
  return {
    ...s,
    rateCaches: new Map([...s.rateCaches].map(([t, { providerRate: _rate, ...cache }]) => [t, cache])),
  };
}
