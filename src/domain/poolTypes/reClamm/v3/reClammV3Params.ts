import type { ParamField, StoredParamsOf } from '../../paramField';

const big = <N extends string>(name: N) => ({ name, subgraph: 'BigInt', stored: 'decimal', absent: 'omit' }) as const;
const time = <N extends string>(name: N) => ({ name, subgraph: 'BigInt', stored: 'int', absent: 'omit' }) as const;

/**
 * A ReClamm pool's parameters as the V3 pools subgraph's `reClammParams` names them, stored as
 * top-level fields of the pool (absent for every other type). Fixed-point values are the contract's
 * integers (18 decimals: 1e18 = 1), virtual balances scaled18 in the Vault's token order, times
 * unix seconds. The head follower replaces them with the pool's own getters at the block
 * (`reClammV3Reads.ts`); the virtual balances a swap uses move from the last ones with time
 * (`reClammV3VirtualBalances.ts`), as does the price ratio during an update (the subgraph's
 * `currentFourthRootPriceRatio`, a value at its indexing time, is not kept).
 */
export const RECLAMM_PARAMS = [
  time('lastTimestamp'),
  { name: 'lastVirtualBalances', subgraph: '[BigInt!]', stored: 'decimals', absent: 'omit' },
  big('dailyPriceShiftExponent'),
  big('dailyPriceShiftBase'),
  big('centerednessMargin'),
  big('startFourthRootPriceRatio'),
  big('endFourthRootPriceRatio'),
  time('priceRatioUpdateStartTime'),
  time('priceRatioUpdateEndTime'),
] as const satisfies readonly ParamField[];

export type ReClammStoredParams = StoredParamsOf<typeof RECLAMM_PARAMS>;
