import { BadQueryInput } from './badInput';
import { decodeCursor } from './pageCursor';
import type { PoolsPageRequest } from './pagePools';
import type { SortDirection } from './poolIndex';
import { DEFAULT_ORDER_BY, resolveSortField, sortFieldNames } from './poolFields';

export const DEFAULT_FIRST = 100;
export const MAX_FIRST = 1000;

/** The paging arguments of `Query.pools` as GraphQL hands them over. */
export interface PoolsPagingArgs {
  readonly first?: number | null;
  readonly orderBy?: string | null;
  readonly orderDirection?: string | null;
  readonly nextToken?: string | null;
}

/** Validates `first`, `orderBy`, `orderDirection` and `nextToken`; throws BadQueryInput naming the argument. */
export function parsePagingArgs(args: PoolsPagingArgs): PoolsPageRequest {
  const first = args.first ?? DEFAULT_FIRST;
  if (!Number.isInteger(first) || first < 1 || first > MAX_FIRST) {
    throw new BadQueryInput(
      `first must be between 1 and ${MAX_FIRST}, got ${first}; page through more pools with nextToken`,
    );
  }
  const orderBy = args.orderBy ?? DEFAULT_ORDER_BY;
  const sortField = resolveSortField(orderBy);
  if (!sortField) {
    throw new BadQueryInput(`orderBy '${orderBy}' is not supported; use one of ${sortFieldNames().join(', ')}`);
  }
  const rawDirection = (args.orderDirection ?? 'desc').toLowerCase();
  if (rawDirection !== 'asc' && rawDirection !== 'desc') {
    throw new BadQueryInput(`orderDirection must be 'asc' or 'desc', got '${args.orderDirection}'`);
  }
  const direction: SortDirection = rawDirection;
  if (!args.nextToken) return { sortField, direction, first, after: null };
  const cursor = decodeCursor(args.nextToken);
  if (cursor.sortField !== sortField || cursor.direction !== direction) {
    throw new BadQueryInput(
      `nextToken belongs to a query ordered by ${cursor.sortField} ${cursor.direction}, this one is ordered by ${sortField} ${direction}; repeat the query with the same orderBy and orderDirection`,
    );
  }
  return { sortField, direction, first, after: cursor.after };
}
