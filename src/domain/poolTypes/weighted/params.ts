import type { ParamField, SpecParamsOf, StoredParamsOf } from '../paramField';

/** Managed and investment pools: the manager's fee (stored and served; the swap math does not read it). */
export const MANAGED_PARAMS = [
  { name: 'managementFee', subgraph: 'BigDecimal', stored: 'decimal', absent: 'null' },
] as const satisfies readonly ParamField[];

export type ManagedSpecParams = SpecParamsOf<typeof MANAGED_PARAMS>;
export type ManagedStoredParams = StoredParamsOf<typeof MANAGED_PARAMS>;
