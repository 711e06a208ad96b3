import type { ParamField } from './paramField';

/**
 * The cached protocol yield fee percentage (`getProtocolFeePercentageCache(2)`, read through
 * `protocolFeeCache.ts`; an 18-decimal fraction, the subgraph's name), at which ComposableStable
 * and weighted v2+ both charge yield fees: declared once here and listed by each type that reads it.
 */
export const PROTOCOL_YIELD_FEE_PARAMS = [
  { name: 'protocolYieldFeeCache', subgraph: 'BigDecimal', stored: 'decimal', absent: 'null', graphql: {} },
] as const satisfies readonly ParamField[];
