import type { ParamField, SpecOf, SpecParamsOf, StoredParamsOf } from '../paramField';
import { PROTOCOL_YIELD_FEE_PARAMS } from '../protocolYieldFee';

/**
 * Composable stable pools' protocol fee basis (the pool's `getLastJoinExitData()` and protocol fee
 * percentage caches): cached yield and swap fee percentages as 18-decimal fractions, amp without
 * its precision as the subgraph keeps `amp`, and the invariant after the last join or exit in
 * 18-decimal units (the yield percentage is the field `protocolYieldFee.ts` declares for every type
 * that charges yield fees). Without them the model assumes no protocol fee is due.
 */
export const COMPOSABLE_STABLE_PARAMS = [
  ...PROTOCOL_YIELD_FEE_PARAMS,
  { name: 'protocolSwapFeeCache', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit' },
  { name: 'lastJoinExitAmp', subgraph: 'BigInt', stored: 'decimal', absent: 'omit' },
  { name: 'lastPostJoinExitInvariant', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit' },
] as const satisfies readonly ParamField[];

export type ComposableStableSpecParams = SpecParamsOf<typeof COMPOSABLE_STABLE_PARAMS>;
export type ComposableStableStoredParams = StoredParamsOf<typeof COMPOSABLE_STABLE_PARAMS>;

/**
 * StablePhantom pools also owe protocol fee BPT they have not minted yet
 * (`getDueProtocolFeeBptAmount()`, 18-decimal BPT): it counts in the virtual supply their BPT swaps
 * are priced on. The subgraph does not have it; only the chain-state reader fills it. Their
 * `protocolSwapFeeCache` is `getCachedProtocolSwapFeePercentage()`.
 */
export const STABLE_PHANTOM_PARAMS = [
  ...COMPOSABLE_STABLE_PARAMS,
  { name: 'dueProtocolFeeBpt', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit', chainOnly: true },
] as const satisfies readonly ParamField[];

export type StablePhantomSpecParams = SpecParamsOf<typeof STABLE_PHANTOM_PARAMS>;
export type StablePhantomStoredParams = StoredParamsOf<typeof STABLE_PHANTOM_PARAMS>;

/**
 * Each token's rate as the pool cached it at its last join or exit (its rate cache's old rate, an
 * 18-decimal fraction), against which yield since then is measured, and whether its yield is exempt
 * from the protocol yield fee. Absent for tokens without a rate provider and in older stores.
 */
export const COMPOSABLE_STABLE_TOKEN_PARAMS = [
  { name: 'oldPriceRate', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit' },
  { name: 'isExemptFromYieldProtocolFee', subgraph: 'Boolean', stored: 'boolean', absent: 'omit' },
] as const satisfies readonly ParamField[];

export type ComposableStableStoredTokenParams = StoredParamsOf<typeof COMPOSABLE_STABLE_TOKEN_PARAMS>;

/** What the model of both (`composableStableModel.ts`) reads: the core fields and StablePhantom's fields. */
export type ComposableStableSpec = SpecOf<typeof STABLE_PHANTOM_PARAMS, typeof COMPOSABLE_STABLE_TOKEN_PARAMS>;
