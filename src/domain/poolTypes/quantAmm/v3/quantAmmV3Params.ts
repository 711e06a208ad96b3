import type { ParamField, StoredParamsOf } from '../../paramField';

const big = <N extends string>(name: N) => ({ name, subgraph: 'BigInt', stored: 'decimal', absent: 'omit' }) as const;
const int = <N extends string>(name: N) => ({ name, subgraph: 'BigInt', stored: 'int', absent: 'omit' }) as const;
const list = <N extends string>(name: N) =>
  ({ name, subgraph: '[BigInt!]', stored: 'decimals', absent: 'omit' }) as const;

/**
 * A QuantAMM weighted pool's parameters as the V3 pools subgraph's `quantAMMWeightedParams` names
 * them, stored as top-level fields (absent for every other type); fixed-point values are the
 * contract's integers (18 decimals), times unix seconds. The weights and their per-second
 * multipliers are kept as the subgraph writes them from the pool's two packed words:
 * `weightsAtLastUpdateInterval` the first four values of each word, `weightBlockMultipliers` the
 * last four (with fewer than five tokens a word holds every weight, then every multiplier:
 * `quantAmmV3Weights.ts`). The head follower replaces them with the pool's own answers (`quantAmmV3Reads.ts`).
 */
export const QUANT_AMM_PARAMS = [
  big('maxTradeSizeRatio'),
  big('epsilonMax'),
  big('absoluteWeightGuardRail'),
  int('updateInterval'),
  int('oracleStalenessThreshold'),
  list('weightsAtLastUpdateInterval'),
  list('weightBlockMultipliers'),
  int('lastUpdateIntervalTime'),
  int('lastInterpolationTimePossible'),
] as const satisfies readonly ParamField[];

export type QuantAmmStoredParams = StoredParamsOf<typeof QUANT_AMM_PARAMS>;
