import { unitsToDecimal } from '../../decimal';
import type { StoredPool } from '../../pool';
import { AT_POOL, chainCall, chainEvent, getter, type ChainCall, type ChainReads } from '../chainReads';
import {
  applyLegacyFee,
  collectorFeeCalls,
  legacyFeeCalls,
  legacyFeeWatches,
  type LegacyFeeDraft,
  type LegacyFeeState,
} from '../legacyFeeBasisReads';
import {
  cacheExpired,
  providerRateCalls,
  rateProvidersCall,
  ratesAt,
  withoutProviderRates,
  type RateCacheDraft,
  type RateCacheState,
} from '../rateCaches';
import {
  AMP_EVENTS,
  ampAtTime,
  ampCalls,
  ampPrecision,
  ampRampReads,
  storedAmp,
  type AmpDraft,
  type AmpState,
} from './stableAmp';

/**
 * What stable pools without their BPT among their tokens read at the head beside the Vault
 * reads: the amp (`stableAmp.ts`); from Stable v2 and in MetaStable the legacy protocol fee basis
 * (`legacyFeeBasis.ts`); MetaStable each token's price rate cache (a token without a provider has
 * an empty one, left out) and the providers, whose rate a swap after expiry caches first.
 */
export interface StableChainState extends AmpState, RateCacheState, LegacyFeeState {}

type StableDraft = AmpDraft & RateCacheDraft & LegacyFeeDraft;

const GET_PRICE_RATE_CACHE = getter('getPriceRateCache', ['address'], ['uint256', 'uint256', 'uint256']);
const PRICE_RATE_CACHE_UPDATED = chainEvent('PriceRateCacheUpdated(address,uint256)');

function priceRateCacheCalls(pool: StoredPool): ChainCall<StableDraft>[] {
  return [
    ...pool.tokens.map((t) =>
      chainCall(AT_POOL, GET_PRICE_RATE_CACHE, [t.address], (d: StableDraft, [rate, duration, expires]) => {
        // A cache ever written expires after its block's timestamp: an empty one has no provider.
        if (rate === 0n && expires === 0n) return;
        (d.rates ??= new Map()).set(t.address, rate);
        (d.rateCaches ??= new Map()).set(t.address, { rate, duration, expires });
      }),
    ),
    rateProvidersCall<StableDraft>(),
  ];
}

function stableReads(o: {
  readonly feeBasisSince: number;
  readonly priceRates: boolean;
}): ChainReads<StableChainState, StableDraft, undefined> {
  return {
    events: [...AMP_EVENTS, ...(o.priceRates ? [PRICE_RATE_CACHE_UPDATED] : [])],
    draft: () => ({}),
    first(pool) {
      return [
        ...ampCalls<StableDraft>(),
        ...(pool.poolTypeVersion >= o.feeBasisSince ? legacyFeeCalls<StableDraft>(true) : []),
        ...(o.priceRates ? priceRateCacheCalls(pool) : []),
      ];
    },
    second(_pool, draft, vaultTokens) {
      return [...collectorFeeCalls(draft), ...providerRateCalls(draft, vaultTokens), ...ampRampReads(draft)];
    },
    finish(draft) {
      const { rateProviders: _providers, ampUpdating: _updating, ...state } = draft;
      return state;
    },
    apply(pool, s) {
      const tokens = s.rates
        ? pool.tokens.map((t) => {
            const rate = s.rates?.get(t.address);
            return rate !== undefined ? { ...t, priceRate: unitsToDecimal(rate, 18) } : t;
          })
        : pool.tokens;
      const precision = ampPrecision(s);
      return applyLegacyFee(
        {
          ...pool,
          tokens,
          ...(s.amp && pool.amp !== null && precision !== undefined ? { amp: storedAmp(s.amp.value, precision) } : {}),
        },
        s,
        precision,
      );
    },
    at(s, timestamp) {
      const amp = ampAtTime(s, timestamp);
      const rates = ratesAt(s, timestamp);
      if (amp === s.amp && rates === s.rates) return s;
      return { ...s, ...(amp ? { amp } : {}), ...(rates ? { rates } : {}) };
    },
    movesWithTime: (s) => s.ampRamp !== undefined,
    needsReread: cacheExpired,
    comparable: withoutProviderRates,
    watches: legacyFeeWatches,
  };
}

/** The V3 StablePool: its amp (the same getter and ramp events as V2's), no fee basis, no rate caches (the V3 Vault applies rates). */
export const STABLE_V3_CHAIN = stableReads({ feeBasisSince: Number.POSITIVE_INFINITY, priceRates: false });
/** The 2021 (v1) contract keeps the same basis but has no getter for it. */
export const STABLE_CHAIN = stableReads({ feeBasisSince: 2, priceRates: false });
export const META_STABLE_CHAIN = stableReads({ feeBasisSince: 0, priceRates: true });
