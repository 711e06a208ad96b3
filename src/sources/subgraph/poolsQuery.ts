import { POOL_CORE_FIELDS } from '../../domain/poolTypes/poolCoreFields';
import { registryVersion, storedFields } from '../../domain/poolTypes/registry';

/**
 * The one GraphQL query the pool-update job sends to a Balancer V2 subgraph. It asks for every
 * field `normalizePool` reads: the router's inputs (balances, weights, amp, rates, and each
 * registered pool type's own parameters, `domain/poolTypes/<family>/<type>Params.ts`) and the
 * decoration job's inputs (volumes, fees, shares, times).
 *
 * Paging is by cursor (`id_gt` the last id of the previous page, ordered by id): `skip` gets slower
 * with depth on graph-node and is capped, the cursor is neither.
 */

/** graph-node refuses `first` above 1000. */
export const MAX_PAGE_SIZE = 1000;

/** What every pool token has; each registered type's token parameters follow. */
const TOKEN_CORE_FIELDS = ['id', 'address', 'symbol', 'name', 'decimals', 'balance', 'weight', 'priceRate'] as const;

/** Every scalar pool field the query asks for: the core fields, then every registered type's parameters. */
export function poolScalarFields(): string[] {
  return [...POOL_CORE_FIELDS, ...storedFields().subgraph.map((f) => f.name)];
}

let cached: { version: number; all: string; changed: string } | undefined;

function poolsSelection(): string {
  return `${poolScalarFields().join('\n    ')}
    tokens { ${[...TOKEN_CORE_FIELDS, ...storedFields().tokenSubgraph.map((f) => f.name)].join(' ')} }
    priceRateProviders { address token { address } }`;
}

/** The pools query for the pool types registered now (rebuilt only when the registry changes). */
export function poolsQuery(): string {
  return queries().all;
}

/**
 * Pools whose entity changed at or after block `$since` (graph-node's `_change_block` filter),
 * whatever their shares: a pool emptied since then comes back with zero shares, which is how the
 * caller learns it left (the full query filters such pools out).
 */
export function changedPoolsQuery(): string {
  return queries().changed;
}

function queries(): { all: string; changed: string } {
  if (cached?.version !== registryVersion()) {
    const fields = poolsSelection();
    cached = {
      version: registryVersion(),
      all: `query Pools($first: Int!, $lastId: ID!) {
  pools(first: $first, orderBy: id, orderDirection: asc, where: { id_gt: $lastId, totalShares_gt: "0" }) {
    ${fields}
  }
}`,
      changed: `query ChangedPools($first: Int!, $lastId: ID!, $since: Int!) {
  pools(first: $first, orderBy: id, orderDirection: asc, where: { id_gt: $lastId, _change_block: { number_gte: $since } }) {
    ${fields}
  }
}`,
    };
  }
  return cached;
}

/** The block the subgraph has indexed up to. */
export const META_QUERY = 'query Meta { _meta { block { number } } }';

export interface PoolsQueryVariables {
  readonly first: number;
  /** Empty string for the first page: every id sorts after it. */
  readonly lastId: string;
  /** Only pools changed at or after this block (`changedPoolsQuery`). */
  readonly since?: number;
}
