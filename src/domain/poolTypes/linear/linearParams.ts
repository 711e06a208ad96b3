import type { ParamField, SpecOf, SpecParamsOf, StoredParamsOf } from '../paramField';

/** Linear pools: where the main and wrapped token sit, and the fee-free band of the main balance. */
export const LINEAR_PARAMS = [
  { name: 'mainIndex', subgraph: 'Int', stored: 'int', absent: 'null', graphql: {} },
  { name: 'wrappedIndex', subgraph: 'Int', stored: 'int', absent: 'null', graphql: {} },
  { name: 'lowerTarget', subgraph: 'BigDecimal', stored: 'decimal', absent: 'null', graphql: {} },
  { name: 'upperTarget', subgraph: 'BigDecimal', stored: 'decimal', absent: 'null', graphql: {} },
] as const satisfies readonly ParamField[];

export type LinearSpecParams = SpecParamsOf<typeof LINEAR_PARAMS>;
export type LinearStoredParams = StoredParamsOf<typeof LINEAR_PARAMS>;

/** What its model reads: the core fields and these. */
export type LinearSpec = SpecOf<typeof LINEAR_PARAMS>;
