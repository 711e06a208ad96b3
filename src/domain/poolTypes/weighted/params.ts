import type { ParamField, SpecParamsOf, StoredParamsOf } from '../paramField';

/** Managed and investment pools: the manager's fee (stored and served; the swap math does not read it). */
export const MANAGED_PARAMS = [
  { name: 'managementFee', subgraph: 'BigDecimal', stored: 'decimal', absent: 'null' },
] as const satisfies readonly ParamField[];

export type ManagedSpecParams = SpecParamsOf<typeof MANAGED_PARAMS>;
export type ManagedStoredParams = StoredParamsOf<typeof MANAGED_PARAMS>;

/**
 * Weighted v2+ pools' protocol swap fee basis (`getLastPostJoinExitInvariant()` in 18-decimal
 * units, `getProtocolFeePercentageCache(0)` as an 18-decimal fraction), the subgraph's names.
 * Without them the model assumes no protocol fee is due.
 */
export const WEIGHTED_FEE_PARAMS = [
  { name: 'protocolSwapFeeCache', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit' },
  { name: 'lastPostJoinExitInvariant', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit' },
] as const satisfies readonly ParamField[];

export type WeightedFeeSpecParams = SpecParamsOf<typeof WEIGHTED_FEE_PARAMS>;
