import type { ParamField, SpecParamsOf, StoredParamsOf } from '../paramField';

/**
 * Stable v1/v2 and MetaStable pools' protocol fee basis: before a join or exit they pay the
 * protocol's share of the swap fees earned since the last one, in the token they hold most of,
 * out of their balances. It takes the invariant and amp stored then (`getLastInvariant()`: 18
 * decimals, and the amp without its precision as `amp` is stored) and the Vault's protocol swap
 * fee percentage (`ProtocolFeesCollector.getSwapFeePercentage()`, 18-decimal fraction), which the
 * Vault hands the pool at each join or exit. The subgraph has none of them; only the chain-state
 * reader fills them, for Stable v2 and MetaStable (the 2021-06 Stable v1 keeps the same basis
 * without a getter). Without them the model assumes no protocol fee is due.
 */
export const LEGACY_STABLE_FEE_PARAMS = [
  { name: 'lastInvariant', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit', chainOnly: true },
  { name: 'lastInvariantAmp', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit', chainOnly: true },
  { name: 'vaultProtocolSwapFee', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit', chainOnly: true },
] as const satisfies readonly ParamField[];

export type LegacyStableFeeSpecParams = SpecParamsOf<typeof LEGACY_STABLE_FEE_PARAMS>;
export type LegacyStableFeeStoredParams = StoredParamsOf<typeof LEGACY_STABLE_FEE_PARAMS>;
