import type { ParamField, SpecParamsOf, StoredParamsOf } from './paramField';

/**
 * The protocol fee basis of pools that pay due protocol fees in tokens, out of their balances,
 * before a join or exit (weighted v1, Stable v1/v2, MetaStable): the protocol's share of the swap
 * fees earned since the last one, measured from the invariant stored then (`getLastInvariant()`,
 * 18 decimals; stable pools also the amp it was taken at, stored without its precision as `amp`
 * is) at the Vault's protocol swap fee percentage (`ProtocolFeesCollector.getSwapFeePercentage()`,
 * an 18-decimal fraction, which the Vault hands the pool at each join or exit). Weighted v1 pays
 * it in its largest-weight token (`weighted/weightedFees.ts` v1DueProtocolFee), stable pools in
 * their largest upscaled balance (`stable/stableModel.ts`). The subgraph has none of them: only the
 * chain-state reader fills them (the 2021-06 Stable v1 keeps the same basis without a getter).
 * Without them the models assume no protocol fee is due.
 */
export const LEGACY_FEE_BASIS_PARAMS = [
  { name: 'lastInvariant', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit', chainOnly: true },
  { name: 'lastInvariantAmp', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit', chainOnly: true },
  { name: 'vaultProtocolSwapFee', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit', chainOnly: true },
] as const satisfies readonly ParamField[];

export type LegacyFeeBasisSpecParams = SpecParamsOf<typeof LEGACY_FEE_BASIS_PARAMS>;
export type LegacyFeeBasisStoredParams = StoredParamsOf<typeof LEGACY_FEE_BASIS_PARAMS>;
