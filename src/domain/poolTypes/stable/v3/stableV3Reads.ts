import { AT_POOL, chainCall, getter, type ChainReads } from '../../chainReads';
import { STABLE_V3_CHAIN, type StableChainState } from '../stableReads';

/**
 * What a V3 StablePool reads beside the V3 Vault reads: its amp (with its ramp), as V2's stable
 * pools, and which build it is. The npm 1.0.0 build refuses balances whose largest-to-smallest
 * ratio reaches `MAX_IMBALANCE_RATIO` (10,000) in every operation; no getter says so, so the pool
 * is asked for the invariant of balances exactly that far apart (`computeInvariant`, a view): the
 * 1.0.0 build reverts, the launch build answers. The build is learnt from the pool's own answer.
 */
export interface StableV3ChainState extends StableChainState {
  /** 1.0.0 build only: the ratio its balances must stay under. */
  readonly maxImbalanceRatio?: bigint;
}

/** `StableMath.MAX_IMBALANCE_RATIO` of the 1.0.0 sources. */
export const MAX_IMBALANCE_RATIO = 10_000n;
const ONE = 10n ** 18n;
/** Balances (scaled to 18 decimals) exactly at the limit, and `Rounding.ROUND_DOWN`. */
const PROBE_BALANCES: readonly bigint[] = [ONE, ONE * MAX_IMBALANCE_RATIO];
const COMPUTE_INVARIANT = getter('computeInvariant', ['uint256[]', 'uint8'], ['uint256']);

type Base = typeof STABLE_V3_CHAIN;
type Draft = ReturnType<Base['draft']> & { invariantAnswered?: boolean };

const base = STABLE_V3_CHAIN;

export const STABLE_V3_BUILD_CHAIN: ChainReads<StableV3ChainState, Draft, undefined> = {
  events: base.events,
  draft: () => base.draft(),
  first(pool) {
    return [
      ...base.first(pool),
      chainCall(AT_POOL, COMPUTE_INVARIANT, [PROBE_BALANCES, 0], (d: Draft) => (d.invariantAnswered = true)),
    ];
  },
  second: (pool, draft, vaultTokens, memo) => base.second?.(pool, draft, vaultTokens, memo) ?? [],
  finish(draft, vaultTokens) {
    const { invariantAnswered, ...rest } = draft;
    const state = base.finish(rest, vaultTokens);
    return invariantAnswered ? state : { ...state, maxImbalanceRatio: MAX_IMBALANCE_RATIO };
  },
  apply(pool, s, vaultTokens) {
    const { maxImbalanceRatio, ...rest } = s;
    const applied = base.apply(pool, rest, vaultTokens);
    if (!applied.v3) return applied;
    const { maxImbalanceRatio: _stored, ...v3 } = applied.v3;
    return {
      ...applied,
      v3: maxImbalanceRatio !== undefined ? { ...v3, maxImbalanceRatio: maxImbalanceRatio.toString() } : v3,
    };
  },
  at: (s, timestamp) => {
    const moved = base.at!(s, timestamp);
    return moved === s ? s : { ...moved, ...(s.maxImbalanceRatio ? { maxImbalanceRatio: s.maxImbalanceRatio } : {}) };
  },
  movesWithTime: (s) => base.movesWithTime!(s),
  needsReread: (s, timestamp) => base.needsReread!(s, timestamp),
  comparable: (s) => {
    const { maxImbalanceRatio, ...rest } = s;
    return { own: base.comparable ? base.comparable(rest) : rest, maxImbalanceRatio };
  },
  watches: (s) => base.watches!(s),
};
