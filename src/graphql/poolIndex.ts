import { toPoolView, type PoolView } from '../domain/poolView';
import type { StoredPool } from '../domain/pool';
import { compareNumeric, storedDecimal, storedNumber, type NumericValue } from './numeric';
import { POOL_FILTER_FIELDS, type FilterFieldName, type SortFieldName } from './poolFields';

export type SortDirection = 'asc' | 'desc';

/** A position in a sort order: the sort key of a pool and its id (the tie-breaker). */
export interface SortPosition {
  readonly key: NumericValue | null;
  readonly id: string;
}

/**
 * Orders pools by key, then by id, in the given direction; pools without a key come last in both
 * directions (ordered by id), so "best first" never starts with pools that were never decorated.
 */
export function compareSortPositions(a: SortPosition, b: SortPosition, direction: SortDirection): number {
  if (a.key === null || b.key === null) {
    if (a.key !== b.key) return a.key === null ? 1 : -1;
    return compareIds(a.id, b.id);
  }
  const c = compareNumeric(a.key, b.key) || compareIds(a.id, b.id);
  return direction === 'asc' ? c : -c;
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Everything the GraphQL resolvers derive from one chain's pools, computed at most once per read
 * model snapshot: the API views, parsed numeric columns, lower-cased identifier columns and the
 * sort orders. Requests then only filter and slice.
 */
export class PoolIndex {
  readonly views: readonly PoolView[];
  private readonly numeric = new Map<FilterFieldName, readonly (NumericValue | null)[]>();
  private readonly texts = new Map<string, readonly (string | null)[]>();
  private readonly lists = new Map<FilterFieldName, readonly (readonly string[])[]>();
  private readonly orders = new Map<string, Int32Array>();
  private byAddress: Map<string, PoolView> | undefined;
  private byId: Map<string, PoolView> | undefined;

  constructor(readonly chainId: number, pools: readonly StoredPool[]) {
    this.views = pools.map((p) => toPoolView(p, chainId));
  }

  get size(): number {
    return this.views.length;
  }

  /** The field's value per pool as a number (null when absent). */
  numericColumn(field: FilterFieldName): readonly (NumericValue | null)[] {
    let col = this.numeric.get(field);
    if (!col) {
      const parse = POOL_FILTER_FIELDS[field] === 'decimal' ? storedDecimal : storedNumber;
      col = this.views.map((v) => parse((v as unknown as Record<string, unknown>)[field]));
      this.numeric.set(field, col);
    }
    return col;
  }

  /** The field's text per pool; lower-cased for identifiers, which compare case-insensitively. */
  textColumn(field: FilterFieldName, lower: boolean): readonly (string | null)[] {
    const cacheKey = `${field}:${lower}`;
    let col = this.texts.get(cacheKey);
    if (!col) {
      col = this.views.map((v) => {
        const s = (v as unknown as Record<string, unknown>)[field];
        return typeof s !== 'string' ? null : lower ? s.toLowerCase() : s;
      });
      this.texts.set(cacheKey, col);
    }
    return col;
  }

  /** A list-of-addresses field per pool, lower-cased. */
  listColumn(field: FilterFieldName): readonly (readonly string[])[] {
    let col = this.lists.get(field);
    if (!col) {
      col = this.views.map((v) => {
        const xs = (v as unknown as Record<string, unknown>)[field];
        return Array.isArray(xs) ? xs.map((x) => String(x).toLowerCase()) : [];
      });
      this.lists.set(field, col);
    }
    return col;
  }

  position(i: number, field: SortFieldName): SortPosition {
    return { key: this.numericColumn(field)[i] ?? null, id: (this.views[i] as PoolView).id };
  }

  /** Pool positions in sort order. */
  order(field: SortFieldName, direction: SortDirection): Int32Array {
    const cacheKey = `${field}:${direction}`;
    let order = this.orders.get(cacheKey);
    if (!order) {
      const positions = this.views.map((_, i) => this.position(i, field));
      order = Int32Array.from(this.views.keys());
      order.sort((i, j) => compareSortPositions(positions[i] as SortPosition, positions[j] as SortPosition, direction));
      this.orders.set(cacheKey, order);
    }
    return order;
  }

  /** Index into `order` of the first pool strictly after `after`. */
  startAfter(field: SortFieldName, direction: SortDirection, after: SortPosition): number {
    const order = this.order(field, direction);
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareSortPositions(this.position(order[mid] as number, field), after, direction) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  poolById(id: string): PoolView | undefined {
    this.byId ??= new Map(this.views.map((v) => [v.id.toLowerCase(), v]));
    return this.byId.get(id.toLowerCase());
  }

  /** The pool whose BPT is this token, if any. */
  poolByAddress(address: string): PoolView | undefined {
    this.byAddress ??= new Map(this.views.map((v) => [v.address.toLowerCase(), v]));
    return this.byAddress.get(address.toLowerCase());
  }
}

/**
 * Keyed on the snapshot's pools array, which the read model keeps when only token prices change,
 * so a price reload does not re-sort the pools.
 */
const indexes = new WeakMap<readonly StoredPool[], PoolIndex>();

export function poolIndexFor(chainId: number, pools: readonly StoredPool[]): PoolIndex {
  let index = indexes.get(pools);
  if (!index) {
    index = new PoolIndex(chainId, pools);
    indexes.set(pools, index);
  }
  return index;
}
