import type { StoredPool } from '../domain/pool';
import type { GraphqlExposure, ParamField } from '../domain/poolTypes/paramField';
import { registryVersion, storedFields } from '../domain/poolTypes/registry';

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

/** The Pool fields every pool has, before the pool types' own parameters. */
const CORE_FIELDS_BEFORE_PARAMS: Readonly<Record<string, FieldKind>> = {
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
};

/** The Pool fields every pool has, after the pool types' own parameters. */
const CORE_FIELDS_AFTER_PARAMS: Readonly<Record<string, FieldKind>> = {
  maxApr: 'float',
  stakingAprMin: 'float',
  stakingAprMax: 'float',
  rewardAprsTotal: 'float',
  isNew: 'boolean',
  isInRecoveryMode: 'boolean',
  isPaused: 'boolean',
};

/** A pool type's parameter as GraphQL shows it (declared with `graphql` in its folder's params). */
export interface GraphqlParamField {
  readonly name: string;
  readonly kind: FieldKind;
  /** The Pool type's scalar. */
  readonly scalar: 'String' | 'Int' | 'Float' | 'Boolean';
  readonly description: string | undefined;
}

/** A stored parameter's GraphQL typing, from how it is stored unless it names its scalar. */
function graphqlParam(field: ParamField & { readonly graphql: GraphqlExposure }): GraphqlParamField {
  const description = field.graphql.description;
  if (field.graphql.scalar === 'Float') return { name: field.name, kind: 'float', scalar: 'Float', description };
  switch (field.stored) {
    case 'int':
      return { name: field.name, kind: 'int', scalar: 'Int', description };
    case 'address':
      return { name: field.name, kind: 'id', scalar: 'String', description };
    case 'boolean':
      return { name: field.name, kind: 'boolean', scalar: 'Boolean', description };
    case 'decimal':
    case 'decimals':
      return { name: field.name, kind: 'decimal', scalar: 'String', description };
  }
}

interface Catalogue {
  readonly version: number;
  readonly params: readonly GraphqlParamField[];
  readonly fields: ReadonlyMap<FilterFieldName, FieldKind>;
}

let catalogue: Catalogue | undefined;

function currentCatalogue(): Catalogue {
  const version = registryVersion();
  if (catalogue?.version === version) return catalogue;
  const params = storedFields()
    .top.filter((f): f is ParamField & { readonly graphql: GraphqlExposure } => f.graphql !== undefined)
    .map(graphqlParam);
  const fields = new Map<string, FieldKind>([
    ...Object.entries(CORE_FIELDS_BEFORE_PARAMS),
    ...params.map((p): [string, FieldKind] => [p.name, p.kind]),
    ...Object.entries(CORE_FIELDS_AFTER_PARAMS),
  ]);
  return (catalogue = { version, params, fields });
}

/** Every filterable Pool field and how it compares: the core fields, then the registered types' parameters. */
export function poolFilterFields(): ReadonlyMap<FilterFieldName, FieldKind> {
  return currentCatalogue().fields;
}

/** The registered pool types' parameters the Pool type shows, in the registry's storage order. */
export function graphqlParamFields(): readonly GraphqlParamField[] {
  return currentCatalogue().params;
}

/** A Pool field `where` may name (a core field or a registered type's parameter). */
export type FilterFieldName = string;

/**
 * Catalogue fields that are not top-level Pool fields but parts of `apr`, flattened so they can be
 * filtered and sorted (`apr.stakingApr.min`, `apr.stakingApr.max`, `apr.rewardAprs.total`).
 */
export const DERIVED_FIELDS: ReadonlyMap<FilterFieldName, (pool: StoredPool) => unknown> = new Map([
  ['stakingAprMin', (p: StoredPool) => p.apr?.stakingApr.min],
  ['stakingAprMax', (p: StoredPool) => p.apr?.stakingApr.max],
  ['rewardAprsTotal', (p: StoredPool) => p.apr?.rewardAprs.total],
]);

export type NumericKind = 'decimal' | 'int' | 'float';

/** A numeric filter field (`resolveSortField` checks it). */
export type SortFieldName = FilterFieldName;

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
  const numeric = [...poolFilterFields()].filter(([f, kind]) => f !== 'chainId' && isNumericKind(kind)).map(([f]) => f);
  return [...Object.keys(SORT_ALIASES), ...numeric.filter((f) => !(f in SORT_ALIASES))];
}

/** The Pool field an `orderBy` value sorts by, or undefined when it names none. */
export function resolveSortField(orderBy: string): SortFieldName | undefined {
  // Own properties only: `__proto__`, `constructor`, `toString` ... are on every object.
  if (Object.hasOwn(SORT_ALIASES, orderBy)) return SORT_ALIASES[orderBy];
  const kind = orderBy === 'chainId' ? undefined : poolFilterFields().get(orderBy);
  return kind !== undefined && isNumericKind(kind) ? orderBy : undefined;
}
