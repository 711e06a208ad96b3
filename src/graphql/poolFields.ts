import type { StoredPool } from '../domain/pool';

/**
 * The catalogue of Pool fields that `where` can filter and `orderBy` can sort, with how each one
 * compares. The filter input type of the schema, the filter compiler and the sort keys are all
 * built from this one table, so a field can never be filterable in the schema but unknown to the
 * compiler (or the reverse).
 */

/**
 * - `id`: hex identifiers and addresses, compared case-insensitively.
 * - `string`: text, compared as given (case-sensitive, code-unit order).
 * - `decimal`: numbers stored as exact decimal strings, compared by numeric value.
 * - `int` / `float`: numbers stored as JS numbers.
 * - `boolean`.
 * - `idList`: a list of addresses (`tokensList`).
 */
export type FieldKind = 'id' | 'string' | 'decimal' | 'int' | 'float' | 'boolean' | 'idList';

export const POOL_FILTER_FIELDS = {
  chainId: 'int',
  id: 'id',
  address: 'id',
  poolType: 'string',
  poolTypeVersion: 'int',
  protocolVersion: 'int',
  factory: 'id',
  symbol: 'string',
  name: 'string',
  swapEnabled: 'boolean',
  swapFee: 'decimal',
  owner: 'id',
  tokensList: 'idList',
  totalWeight: 'decimal',
  totalSwapVolume: 'decimal',
  totalSwapFee: 'decimal',
  totalLiquidity: 'decimal',
  totalShares: 'decimal',
  volumeSnapshot: 'decimal',
  feesSnapshot: 'decimal',
  createTime: 'int',
  swapsCount: 'decimal',
  holdersCount: 'decimal',
  amp: 'decimal',
  // Float: Element pools' values exceed GraphQL's 32-bit Int.
  expiryTime: 'float',
  unitSeconds: 'float',
  managementFee: 'decimal',
  mainIndex: 'int',
  wrappedIndex: 'int',
  lowerTarget: 'decimal',
  upperTarget: 'decimal',
  maxApr: 'float',
  stakingAprMin: 'float',
  stakingAprMax: 'float',
  rewardAprsTotal: 'float',
  isNew: 'boolean',
  isInRecoveryMode: 'boolean',
  isPaused: 'boolean',
  protocolYieldFeeCache: 'decimal',
} as const satisfies Record<string, FieldKind>;

export type FilterFieldName = keyof typeof POOL_FILTER_FIELDS;

/**
 * Catalogue fields that are not top-level Pool fields but parts of `apr`, flattened so they can be
 * filtered and sorted (`apr.stakingApr.min`, `apr.stakingApr.max`, `apr.rewardAprs.total`).
 */
export const DERIVED_FIELDS: Partial<Readonly<Record<FilterFieldName, (pool: StoredPool) => unknown>>> = {
  stakingAprMin: (p) => p.apr?.stakingApr.min,
  stakingAprMax: (p) => p.apr?.stakingApr.max,
  rewardAprsTotal: (p) => p.apr?.rewardAprs.total,
};

export type NumericKind = 'decimal' | 'int' | 'float';

export type SortFieldName = {
  [K in FilterFieldName]: (typeof POOL_FILTER_FIELDS)[K] extends NumericKind ? K : never;
}[FilterFieldName];

/** `orderBy` names of the old API, then every numeric field by its own name. */
const SORT_ALIASES: Readonly<Record<string, SortFieldName>> = {
  totalLiquidity: 'totalLiquidity',
  volume: 'volumeSnapshot',
  apr: 'maxApr',
};

export const DEFAULT_ORDER_BY = 'totalLiquidity';
export const DEFAULT_SORT_FIELD: SortFieldName = 'totalLiquidity';

export function isNumericKind(kind: FieldKind): kind is NumericKind {
  return kind === 'decimal' || kind === 'int' || kind === 'float';
}

/** Every accepted `orderBy` value, for error messages and docs. */
export function sortFieldNames(): string[] {
  const numeric = (Object.keys(POOL_FILTER_FIELDS) as FilterFieldName[]).filter(
    (f) => f !== 'chainId' && isNumericKind(POOL_FILTER_FIELDS[f]),
  );
  return [...Object.keys(SORT_ALIASES), ...numeric.filter((f) => !(f in SORT_ALIASES))];
}

/** The Pool field an `orderBy` value sorts by, or undefined when it names none. */
export function resolveSortField(orderBy: string): SortFieldName | undefined {
  // Own properties only: `__proto__`, `constructor`, `toString` ... are on every object.
  if (Object.hasOwn(SORT_ALIASES, orderBy)) return SORT_ALIASES[orderBy];
  if (orderBy === 'chainId' || !Object.hasOwn(POOL_FILTER_FIELDS, orderBy)) return undefined;
  const kind: FieldKind = POOL_FILTER_FIELDS[orderBy as FilterFieldName];
  return isNumericKind(kind) ? (orderBy as SortFieldName) : undefined;
}
