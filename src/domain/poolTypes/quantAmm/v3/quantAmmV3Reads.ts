import type { StoredPool } from '../../../pool';
import { AT_POOL, chainCall, chainEvent, structGetter, type ChainReads } from '../../chainReads';

/**
 * What a QuantAMM weighted pool reads at the head beside the Vault reads, from its own getters:
 * the two packed words of weights and per-second multipliers with their times
 * (`getQuantAMMWeightedPoolDynamicData`) and its trade size cap
 * (`getQuantAMMWeightedPoolImmutableData`). The weights a swap uses interpolate from these with
 * time (`quantAmmV3Weights.ts`), evaluated by the math at the quote's block; the words change only
 * when the pool's update runner sets new ones, which the pool announces (`WeightsUpdated`).
 */
export interface QuantAmmChainState {
  readonly firstFourWeightsAndMultipliers: readonly bigint[];
  readonly secondFourWeightsAndMultipliers: readonly bigint[];
  readonly lastUpdateTime: bigint;
  readonly lastInteropTime: bigint;
  readonly maxTradeSizeRatio?: bigint;
}

interface QuantAmmDraft {
  dynamic?: Omit<QuantAmmChainState, 'maxTradeSizeRatio'>;
  maxTradeSizeRatio?: bigint;
}

// QuantAMMWeightedPoolDynamicData: balances and rates (the Vault's, in the Vault reads), supply,
// three pool flags, the two unpacked words, uint40 times.
const GET_DYNAMIC_DATA = structGetter(
  'getQuantAMMWeightedPoolDynamicData',
  [],
  ['uint256[]', 'uint256[]', 'uint256', 'bool', 'bool', 'bool', 'int256[]', 'int256[]', 'uint256', 'uint256'],
);
// QuantAMMWeightedPoolImmutableData: tokens, staleness, registry, the rule's parameters (an
// `int256[][]`, whose head word is read as a plain word and left), lambda, three uint64 settings,
// the max trade size ratio.
const GET_IMMUTABLE_DATA = structGetter(
  'getQuantAMMWeightedPoolImmutableData',
  [],
  ['address[]', 'uint256', 'uint256', 'uint256', 'uint256[]', 'uint256', 'uint256', 'uint256', 'uint256'],
);

const WEIGHTS_UPDATED = chainEvent('WeightsUpdated(address,int256[],uint40,uint40)');

/** The first four values of each word, then the last four: the subgraph's two lists (`quantAmmV3Params.ts`). */
const halves = (a: readonly bigint[], b: readonly bigint[], from: number): string[] =>
  [...a.slice(from, from + 4), ...b.slice(from, from + 4)].map(String);

export const QUANT_AMM_CHAIN: ChainReads<QuantAmmChainState | undefined, QuantAmmDraft, undefined> = {
  events: [WEIGHTS_UPDATED],
  draft: () => ({}),
  first: () => [
    chainCall(AT_POOL, GET_DYNAMIC_DATA, [], (d: QuantAmmDraft, values) => {
      const [, , , , , , first, second, lastUpdateTime, lastInteropTime] = values;
      d.dynamic = {
        firstFourWeightsAndMultipliers: first,
        secondFourWeightsAndMultipliers: second,
        lastUpdateTime,
        lastInteropTime,
      };
    }),
    chainCall(AT_POOL, GET_IMMUTABLE_DATA, [], (d: QuantAmmDraft, values) => (d.maxTradeSizeRatio = values[8])),
  ],
  finish(d) {
    if (d.dynamic === undefined) return undefined;
    return d.maxTradeSizeRatio === undefined ? d.dynamic : { ...d.dynamic, maxTradeSizeRatio: d.maxTradeSizeRatio };
  },
  apply(pool, s): StoredPool {
    if (s === undefined) return pool;
    const first = s.firstFourWeightsAndMultipliers;
    const second = s.secondFourWeightsAndMultipliers;
    return {
      ...pool,
      weightsAtLastUpdateInterval: halves(first, second, 0),
      weightBlockMultipliers: halves(first, second, 4),
      lastUpdateIntervalTime: Number(s.lastUpdateTime),
      lastInterpolationTimePossible: Number(s.lastInteropTime),
      ...(s.maxTradeSizeRatio !== undefined ? { maxTradeSizeRatio: String(s.maxTradeSizeRatio) } : {}),
    };
  },
};
