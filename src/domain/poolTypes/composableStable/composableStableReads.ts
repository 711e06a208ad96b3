import { unitsToDecimal } from '../../decimal';
import type { StoredPool } from '../../pool';
import { AT_POOL, chainCall, chainEvent, getter, type ChainCall, type ChainReads } from '../chainReads';
import {
  FEE_TYPE_SWAP,
  FEE_TYPE_YIELD,
  GET_PROTOCOL_FEE_PERCENTAGE_CACHE,
  PROTOCOL_FEE_CACHE_UPDATED,
} from '../protocolFeeCache';
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
} from '../stable/stableAmp';

/**
 * What stable pools holding their own BPT read at the head beside the Vault reads: the amp
 * (`stable/stableAmp.ts`) and their token rates. ComposableStable: each token's `getTokenRate` and rate
 * cache with its provider's rate (`rateCaches.ts`), and its protocol fee basis
 * (`getLastJoinExitData()` and the swap and yield fee caches). StablePhantom: its cached token
 * rates, the protocol fee BPT it owes (part of its virtual supply) and its cached protocol swap fee
 * percentage; no rate cache expiry, since its swaps price with the cached rate before refreshing it.
 */
export interface ComposableStableChainState extends AmpState, RateCacheState {
  /** The rate cache's old rate per token (tokens with a rate provider). */
  readonly oldRates?: ReadonlyMap<string, bigint>;
  /** `getLastJoinExitData()`: amp with its precision, invariant in 18 decimals. */
  readonly lastJoinExit?: { readonly amp: bigint; readonly invariant: bigint };
  /** `getProtocolFeePercentageCache(0)` (StablePhantom: `getCachedProtocolSwapFeePercentage()`). */
  readonly protocolSwapFeeCache?: bigint;
  readonly protocolYieldFeeCache?: bigint;
  /** StablePhantom: protocol fee BPT owed and not yet minted (`getDueProtocolFeeBptAmount()`). */
  readonly dueProtocolFeeBpt?: bigint;
  /** ComposableStable: its rate providers in the Vault's token order (lower case; zero: none). */
  readonly rateProviders?: readonly string[];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type ComposableDraft = AmpDraft &
  RateCacheDraft &
  Mutable<Omit<ComposableStableChainState, keyof AmpState | keyof RateCacheState | 'oldRates'>> & {
    oldRates?: Map<string, bigint>;
  };

const GET_TOKEN_RATE = getter('getTokenRate', ['address'], ['uint256']);
const GET_TOKEN_RATE_CACHE = getter('getTokenRateCache', ['address'], ['uint256', 'uint256', 'uint256', 'uint256']);
const GET_LAST_JOIN_EXIT_DATA = getter('getLastJoinExitData', [], ['uint256', 'uint256']);
const GET_DUE_PROTOCOL_FEE_BPT_AMOUNT = getter('getDueProtocolFeeBptAmount', [], ['uint256']);
const GET_CACHED_PROTOCOL_SWAP_FEE_PERCENTAGE = getter('getCachedProtocolSwapFeePercentage', [], ['uint256']);

/** Rate cache events, keyed by index (ComposableStable) and by token (StablePhantom). */
const RATE_EVENTS = [
  chainEvent('TokenRateCacheUpdated(uint256,uint256)'),
  chainEvent('TokenRateProviderSet(uint256,address,uint256)'),
  chainEvent('TokenRateCacheUpdated(address,uint256)'),
  chainEvent('TokenRateProviderSet(address,address,uint256)'),
];
/** StablePhantom: anyone may refresh its cached protocol swap fee percentage. */
const CACHED_PROTOCOL_SWAP_FEE_UPDATED = chainEvent('CachedProtocolSwapFeePercentageUpdated(uint256)');

/** A token's own rate getter, for each token but the pool's BPT. */
function tokenRateCalls(pool: StoredPool): ChainCall<ComposableDraft>[] {
  return pool.tokens
    .filter((t) => t.address !== pool.address)
    .map((t) =>
      chainCall(AT_POOL, GET_TOKEN_RATE, [t.address], (d: ComposableDraft, [rate]) =>
        (d.rates ??= new Map()).set(t.address, rate),
      ),
    );
}

function composableReads(phantom: boolean): ChainReads<ComposableStableChainState, ComposableDraft, undefined> {
  return {
    events: [...AMP_EVENTS, ...RATE_EVENTS, phantom ? CACHED_PROTOCOL_SWAP_FEE_UPDATED : PROTOCOL_FEE_CACHE_UPDATED],
    draft: () => ({}),
    first(pool) {
      if (phantom)
        return [
          ...ampCalls<ComposableDraft>(),
          ...tokenRateCalls(pool),
          chainCall(
            AT_POOL,
            GET_DUE_PROTOCOL_FEE_BPT_AMOUNT,
            [],
            (d: ComposableDraft, [v]) => (d.dueProtocolFeeBpt = v),
          ),
          chainCall(
            AT_POOL,
            GET_CACHED_PROTOCOL_SWAP_FEE_PERCENTAGE,
            [],
            (d: ComposableDraft, [v]) => (d.protocolSwapFeeCache = v),
          ),
        ];
      return [
        ...ampCalls<ComposableDraft>(),
        ...tokenRateCalls(pool),
        // Reverts for tokens without a rate provider: they have no cache and no old rate.
        ...pool.tokens
          .filter((t) => t.address !== pool.address)
          .map((t) =>
            chainCall(
              AT_POOL,
              GET_TOKEN_RATE_CACHE,
              [t.address],
              (d: ComposableDraft, [rate, oldRate, duration, expires]) => {
                (d.oldRates ??= new Map()).set(t.address, oldRate);
                (d.rateCaches ??= new Map()).set(t.address, { rate, oldRate, duration, expires });
              },
            ),
          ),
        rateProvidersCall<ComposableDraft>(),
        chainCall(
          AT_POOL,
          GET_LAST_JOIN_EXIT_DATA,
          [],
          (d: ComposableDraft, [amp, invariant]) => (d.lastJoinExit = { amp, invariant }),
        ),
        chainCall(
          AT_POOL,
          GET_PROTOCOL_FEE_PERCENTAGE_CACHE,
          [FEE_TYPE_SWAP],
          (d: ComposableDraft, [v]) => (d.protocolSwapFeeCache = v),
        ),
        chainCall(
          AT_POOL,
          GET_PROTOCOL_FEE_PERCENTAGE_CACHE,
          [FEE_TYPE_YIELD],
          (d: ComposableDraft, [v]) => (d.protocolYieldFeeCache = v),
        ),
      ];
    },
    second(_pool, draft, vaultTokens) {
      return [...providerRateCalls(draft, vaultTokens), ...ampRampReads(draft)];
    },
    finish(draft) {
      const { ampUpdating: _updating, ...state } = draft;
      return state;
    },
    apply: applyComposable,
    at(s, timestamp) {
      const amp = ampAtTime(s, timestamp);
      const rates = ratesAt(s, timestamp);
      if (amp === s.amp && rates === s.rates) return s;
      return { ...s, ...(amp ? { amp } : {}), ...(rates ? { rates } : {}) };
    },
    movesWithTime: (s) => s.ampRamp !== undefined,
    needsReread: cacheExpired,
    comparable: withoutProviderRates,
  };
}

function applyComposable(pool: StoredPool, s: ComposableStableChainState): StoredPool {
  const tokens = pool.tokens.map((t) => {
    const rate = s.rates?.get(t.address);
    const oldRate = s.oldRates?.get(t.address);
    if (rate === undefined && oldRate === undefined) return t;
    return {
      ...t,
      ...(rate !== undefined ? { priceRate: unitsToDecimal(rate, 18) } : {}),
      ...(oldRate !== undefined ? { oldPriceRate: unitsToDecimal(oldRate, 18) } : {}),
    };
  });
  const precision = ampPrecision(s);
  return {
    ...pool,
    tokens,
    ...(s.amp && pool.amp !== null && precision !== undefined ? { amp: storedAmp(s.amp.value, precision) } : {}),
    ...(s.lastJoinExit && precision !== undefined
      ? {
          lastJoinExitAmp: storedAmp(s.lastJoinExit.amp, precision),
          lastPostJoinExitInvariant: unitsToDecimal(s.lastJoinExit.invariant, 18),
        }
      : {}),
    ...(s.protocolSwapFeeCache !== undefined
      ? { protocolSwapFeeCache: unitsToDecimal(s.protocolSwapFeeCache, 18) }
      : {}),
    ...(s.protocolYieldFeeCache !== undefined
      ? { protocolYieldFeeCache: unitsToDecimal(s.protocolYieldFeeCache, 18) }
      : {}),
    ...(s.dueProtocolFeeBpt !== undefined ? { dueProtocolFeeBpt: unitsToDecimal(s.dueProtocolFeeBpt, 18) } : {}),
  };
}

export const COMPOSABLE_STABLE_CHAIN = composableReads(false);
export const STABLE_PHANTOM_CHAIN = composableReads(true);
