import { POOL_FRAME_FIELDS } from '../../domain/poolTypes/frameFields';
import { registryVersion, storedFields } from '../../domain/poolTypes/registry';

/**
 * The one GraphQL query the pool-update job sends to a Balancer V2 subgraph. It asks for every
 * field `normalizePool` reads: the router's inputs (balances, weights, amp, rates, and each
 * registered pool type's own parameters, `domain/poolTypes/<family>/params.ts`) and the
 * decoration job's inputs (volumes, fees, shares, times).
 *
 * Paging is by cursor (`id_gt` the last id of the previous page, ordered by id): `skip` gets slower
 * with depth on graph-node and is capped, the cursor is neither.
 */

/** graph-node refuses `first` above 1000. */
export const MAX_PAGE_SIZE = 1000;

const TOKEN_FIELDS = [
  'id',
  'address',
  'symbol',
  'name',
  'decimals',
  'balance',
  'weight',
  'priceRate',
  'oldPriceRate',
  'isExemptFromYieldProtocolFee',
] as const;

/** Every scalar pool field the query asks for: the frame, then every registered type's parameters. */
export function poolScalarFields(): string[] {
  return [...POOL_FRAME_FIELDS, ...storedFields().subgraph.map((f) => f.name)];
}

let cached: { version: number; query: string } | undefined;

/** The pools query for the pool types registered now (rebuilt only when the registry changes). */
export function poolsQuery(): string {
  if (cached?.version !== registryVersion()) {
    const query = `query Pools($first: Int!, $lastId: ID!) {
  pools(first: $first, orderBy: id, orderDirection: asc, where: { id_gt: $lastId, totalShares_gt: "0" }) {
    ${poolScalarFields().join('\n    ')}
    tokens { ${TOKEN_FIELDS.join(' ')} }
    priceRateProviders { address token { address } }
  }
}`;
    cached = { version: registryVersion(), query };
  }
  return cached.query;
}

export interface PoolsQueryVariables {
  readonly first: number;
  /** Empty string for the first page: every id sorts after it. */
  readonly lastId: string;
}
