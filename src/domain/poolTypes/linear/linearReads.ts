import { unitsToDecimal } from '../../decimal';
import { AT_POOL, chainCall, chainEvent, getter, type ChainReads } from '../chainReads';

/**
 * What linear pools read at the head beside the Vault reads: `getTargets()` (18-decimal main
 * token units) and `getWrappedTokenRate()`, the wrapped token's rate, which moves with no event:
 * a linear pool is read again at each head.
 */
export interface LinearChainState {
  readonly targets?: { readonly lower: bigint; readonly upper: bigint };
  /** The wrapped token (lower case) and its rate, 1e18 = 1. */
  readonly wrappedRate?: { readonly token: string; readonly rate: bigint };
}

type LinearDraft = { -readonly [K in keyof LinearChainState]: LinearChainState[K] };

const GET_TARGETS = getter('getTargets', [], ['uint256', 'uint256']);
const GET_WRAPPED_TOKEN_RATE = getter('getWrappedTokenRate', [], ['uint256']);

export const LINEAR_CHAIN: ChainReads<LinearChainState, LinearDraft, undefined> = {
  events: [chainEvent('TargetsSet(address,uint256,uint256)')],
  shape: (pool) => (pool.lowerTarget !== null && pool.upperTarget !== null ? `l${pool.wrappedIndex}` : ''),
  draft: () => ({}),
  first(pool) {
    if (pool.lowerTarget === null || pool.upperTarget === null) return [];
    const wrapped = pool.wrappedIndex === null ? undefined : pool.tokens[pool.wrappedIndex];
    return [
      chainCall(AT_POOL, GET_TARGETS, [], (d: LinearDraft, [lower, upper]) => (d.targets = { lower, upper })),
      ...(wrapped
        ? [
            chainCall(AT_POOL, GET_WRAPPED_TOKEN_RATE, [], (d: LinearDraft, [rate]) => {
              d.wrappedRate = { token: wrapped.address, rate };
            }),
          ]
        : []),
    ];
  },
  finish: (draft) => draft,
  apply(pool, s) {
    const wrapped = s.wrappedRate;
    const tokens = wrapped
      ? pool.tokens.map((t) =>
          t.address === wrapped.token ? { ...t, priceRate: unitsToDecimal(wrapped.rate, 18) } : t,
        )
      : pool.tokens;
    return {
      ...pool,
      tokens,
      ...(s.targets && pool.lowerTarget !== null
        ? { lowerTarget: unitsToDecimal(s.targets.lower, 18), upperTarget: unitsToDecimal(s.targets.upper, 18) }
        : {}),
    };
  },
  needsReread: (s) => s.targets !== undefined,
};
