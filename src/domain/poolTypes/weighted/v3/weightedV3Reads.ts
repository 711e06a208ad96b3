import { unitsToDecimal } from '../../../decimal';
import { AT_POOL, chainCall, getter, type ChainReads } from '../../chainReads';
import { WEIGHTS_ONLY_CHAIN, type WeightedChainState } from '../weightedReads';

/**
 * What a V3 WeightedPool reads beside the V3 Vault reads: its normalized weights, as V2's
 * weighted pools, and which build it is. The npm 1.0.0 build answers `getMinTokenBalances()` (the
 * minimum balance per token it enforces; it also prices a swap on the balance in plus 1 wei,
 * `weightedV3Pool.ts`); the launch build has no such getter and the call reverts. So the build is
 * learnt from the pool's own answer, whatever chain it is on.
 */
export interface WeightedV3ChainState extends WeightedChainState {
  /** 1.0.0 build only: per token in the Vault's order, scaled to 18 decimals. */
  readonly minTokenBalances?: readonly bigint[];
}

const GET_MIN_TOKEN_BALANCES = getter('getMinTokenBalances', [], ['uint256[]']);

type Base = typeof WEIGHTS_ONLY_CHAIN;
type BaseDraft = ReturnType<Base['draft']>;
type Draft = BaseDraft & { minTokenBalances?: readonly bigint[] };
type Memo = Base extends ChainReads<unknown, unknown, infer M> ? M : never;

const base = WEIGHTS_ONLY_CHAIN;

export const WEIGHTED_V3_CHAIN: ChainReads<WeightedV3ChainState, Draft, Memo> = {
  events: base.events,
  draft: () => base.draft(),
  newMemo: () => base.newMemo!(),
  first(pool) {
    return [
      ...base.first(pool),
      chainCall(AT_POOL, GET_MIN_TOKEN_BALANCES, [], (d: Draft, [min]) => (d.minTokenBalances = [...min])),
    ];
  },
  second: (pool, draft, vaultTokens, memo) => base.second?.(pool, draft, vaultTokens, memo) ?? [],
  finish(draft, vaultTokens) {
    const { minTokenBalances, ...rest } = draft;
    const state = base.finish(rest, vaultTokens);
    return minTokenBalances ? { ...state, minTokenBalances } : state;
  },
  apply(pool, s, vaultTokens) {
    const { minTokenBalances, ...rest } = s;
    const applied = base.apply(pool, rest, vaultTokens);
    if (!applied.v3) return applied;
    const { minTokenBalances: _stored, ...v3 } = applied.v3;
    return {
      ...applied,
      v3: minTokenBalances ? { ...v3, minTokenBalances: minTokenBalances.map((b) => unitsToDecimal(b, 18)) } : v3,
    };
  },
  at: (s, timestamp) => {
    const moved = base.at!(s, timestamp);
    return moved === s ? s : { ...moved, ...(s.minTokenBalances ? { minTokenBalances: s.minTokenBalances } : {}) };
  },
  movesWithTime: (s) => base.movesWithTime!(s),
  needsReread: (s, timestamp) => base.needsReread!(s, timestamp),
  watches: (s) => base.watches!(s),
};
