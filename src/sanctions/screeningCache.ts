import { LRUCache } from 'lru-cache';
import type { SanctionsProvider } from '../sources/sanctions/SanctionsProvider';

/**
 * Screening results per lower-cased address. Clean results are kept 1 h so a newly listed address
 * is caught soon; blocked results 24 h (de-listing is rare and a false "blocked" is the safe side).
 * Concurrent checks of one address share one provider call. Failures are never cached.
 */
export const CLEAN_TTL_MS = 60 * 60 * 1000;
export const BLOCKED_TTL_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_MAX_ENTRIES = 100_000;

export interface ScreeningCache {
  isBlocked(checksummedAddress: string): Promise<boolean>;
}

export function createScreeningCache(
  provider: SanctionsProvider,
  now: () => number,
  maxEntries = DEFAULT_MAX_ENTRIES,
): ScreeningCache {
  const cache = new LRUCache<string, boolean, string>({
    max: maxEntries,
    ttl: CLEAN_TTL_MS,
    perf: { now },
    // Read the clock on every lookup: by default lru-cache reuses one reading for 1 ms of real
    // time (cleared by a timer), so a lookup right after the injected clock moved could see the
    // old time, and a loaded machine widened that window enough to fail the TTL test.
    ttlResolution: 0,
    fetchMethod: async (_key, _stale, { options, context }) => {
      const blocked = await provider.isSanctioned(context);
      options.ttl = blocked ? BLOCKED_TTL_MS : CLEAN_TTL_MS;
      return blocked;
    },
  });
  return {
    async isBlocked(address) {
      const blocked = await cache.fetch(address.toLowerCase(), { context: address });
      // fetchMethod never resolves undefined; this guards the "never say clean unchecked" rule.
      if (blocked === undefined) throw new Error('sanctions check returned no result');
      return blocked;
    },
  };
}
