import type { LEGACY_FEE_BASIS_PARAMS } from '../legacyFeeBasis';
import type { ParamField, SpecOf, SpecParamsOf, StoredParamsOf } from '../paramField';
import type { PROTOCOL_YIELD_FEE_PARAMS } from '../protocolYieldFee';

/** Managed and investment pools: the manager's fee (stored and served; the swap math does not read it). */
export const MANAGED_PARAMS = [
  { name: 'managementFee', subgraph: 'BigDecimal', stored: 'decimal', absent: 'null', graphql: {} },
] as const satisfies readonly ParamField[];

export type ManagedSpecParams = SpecParamsOf<typeof MANAGED_PARAMS>;
export type ManagedStoredParams = StoredParamsOf<typeof MANAGED_PARAMS>;

/**
 * Weighted v2+ pools' protocol fee basis. Swap part: `getLastPostJoinExitInvariant()` in 18-decimal
 * units and `getProtocolFeePercentageCache(0)` as an 18-decimal fraction, the subgraph's names.
 * Yield part (pools with a rate provider; the yield percentage is the shared
 * `protocolYieldFeeCache` of `poolTypes/protocolYieldFee.ts`, which the type declares too):
 * `getATHRateProduct()` and the rate product now, the product of each provider's `getRate()` to
 * the power of its token's weight, both 18-decimal; the subgraph has neither, only the chain-state
 * reader fills them. Without the swap part the model assumes no protocol fee is due; without the
 * yield part, no yield fee.
 */
export const WEIGHTED_FEE_PARAMS = [
  { name: 'protocolSwapFeeCache', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit' },
  { name: 'lastPostJoinExitInvariant', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit' },
  { name: 'athRateProduct', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit', chainOnly: true },
  { name: 'rateProduct', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit', chainOnly: true },
] as const satisfies readonly ParamField[];

export type WeightedFeeSpecParams = SpecParamsOf<typeof WEIGHTED_FEE_PARAMS>;
export type WeightedFeeStoredParams = StoredParamsOf<typeof WEIGHTED_FEE_PARAMS>;

/**
 * What the weighted model (`weightedModel.ts`) reads: the core fields, both protocol fee bases (v2+ BPT,
 * v1 tokens) and the shared yield fee cache. Investment, Managed and LBPs read none of them.
 */
export type WeightedSpec = SpecOf<typeof WEIGHTED_FEE_PARAMS> &
  SpecParamsOf<typeof LEGACY_FEE_BASIS_PARAMS> &
  SpecParamsOf<typeof PROTOCOL_YIELD_FEE_PARAMS>;
