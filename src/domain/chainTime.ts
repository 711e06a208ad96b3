import type { AmpRamp, PoolChainState } from './chainState';

/**
 * Chain state that moves with time and no event: an amp ramp in progress and rate caches that
 * expire. The chain's getters answer at the block they were read at; a quote is executed in a
 * later block, so the follower evaluates both at that block's timestamp exactly as the pools do
 * (`StablePoolAmplification._getAmplificationParameter`, `ComposableStablePoolRates
 * ._cacheTokenRateIfNecessary`, `MetaStablePool._cachePriceRatesIfNecessary`: both refresh an
 * expired cache before the swap scales its amounts). StablePhantom pools refresh after scaling, so
 * the reader gives them no rate caches: their swap uses the cached rate. Pure.
 */

/** The amp a pool's swap uses at `timestamp` during `ramp` (integer arithmetic, as the contract). */
export function ampAt(ramp: AmpRamp, timestamp: bigint): bigint {
  if (timestamp >= ramp.endTime) return ramp.endValue;
  const elapsed = timestamp > ramp.startTime ? timestamp - ramp.startTime : 0n;
  const duration = ramp.endTime - ramp.startTime;
  return ramp.endValue > ramp.startValue
    ? ramp.startValue + ((ramp.endValue - ramp.startValue) * elapsed) / duration
    : ramp.startValue - ((ramp.startValue - ramp.endValue) * elapsed) / duration;
}

/**
 * `s` with `amp` and `rates` as a swap at `timestamp` sees them: the ramp's amp, and for each rate
 * cache expired by then (`timestamp > expires`) the provider's rate, which the swap caches first;
 * the old rates stay (only joins and exits move them), so the protocol yield fee still counts the
 * growth since then. Returns `s` itself when nothing differs, so unchanged pools keep their objects.
 */
export function stateAt(s: PoolChainState, timestamp: number): PoolChainState {
  const ts = BigInt(timestamp);
  const amp = s.ampRamp && s.amp ? { ...s.amp, value: ampAt(s.ampRamp, ts) } : s.amp;
  let rates = s.rates;
  if (s.rateCaches) {
    const next = new Map(s.rates);
    for (const [token, c] of s.rateCaches)
      next.set(token, ts > c.expires && c.providerRate !== undefined ? c.providerRate : c.rate);
    if (!rates || next.size !== rates.size || [...next].some(([t, r]) => rates!.get(t) !== r)) rates = next;
  }
  if (amp?.value === s.amp?.value && rates === s.rates) return s;
  return { ...s, ...(amp ? { amp } : {}), ...(rates ? { rates } : {}) };
}

/**
 * Whether a pool's state at `timestamp` may differ from what was read with no Vault event: a rate
 * provider behind an expired cache (its rate moves freely), a linear pool's wrapped rate, or a
 * weighted pool's rate providers (asked at every join or exit, no cache). Such a pool is read again
 * at each new head; a ramp alone only needs `stateAt` again.
 */
export function needsReread(s: PoolChainState, timestamp: number): boolean {
  if (s.targets || s.weightedYield) return true;
  const ts = BigInt(timestamp);
  for (const c of s.rateCaches?.values() ?? []) if (ts > c.expires && c.providerRate !== undefined) return true;
  return false;
}
