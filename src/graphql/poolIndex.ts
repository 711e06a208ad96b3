import { appStateKey, type AppState } from '../appState';
import { toPoolView, viewTotalLiquidity, type PoolView } from '../domain/poolView';
import type { StoredPool } from '../domain/pool';
import { compareNumeric, storedDecimal, storedNumber, type NumericValue } from './numeric';
import { DERIVED_FIELDS, poolFilterFields, type FilterFieldName, type SortFieldName } from './poolFields';

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
 * model snapshot and only for the fields queries use: parsed numeric columns, text columns, sort
 * orders and the API views. Requests then only filter and slice.
 *
 * Identifiers (ids, addresses, tokensList) are taken as stored: normalizePool lower-cases them on
 * the way in, so only the query side needs lower-casing.
 */
export class PoolIndex {
  private readonly views: (PoolView | undefined)[];
  private readonly columns = new Map<string, unknown[]>();
  private readonly orders = new Map<string, Int32Array>();
  private byAddress: Map<string, number> | undefined;
  private byId: Map<string, number> | undefined;

  constructor(
    readonly chainId: number,
    private readonly pools: readonly StoredPool[],
  ) {
    this.views = new Array<PoolView | undefined>(pools.length);
  }

  get size(): number {
    return this.pools.length;
  }

  /** The pool at position i as the API shows it. */
  view(i: number): PoolView {
    return (this.views[i] ??= toPoolView(this.pools[i] as StoredPool, this.chainId));
  }

  /** Builds a column of `field` once per index; `kind` names the reading (one field, several readings). */
  private column<T>(kind: string, field: FilterFieldName, read: (v: unknown) => T): readonly T[] {
    const cacheKey = `${kind}:${field}`;
    let col = this.columns.get(cacheKey) as T[] | undefined;
    if (!col) {
      const pools = this.pools;
      col = new Array<T>(pools.length);
      // Values as the view would show them, without building the views.
      const derived = DERIVED_FIELDS.get(field);
      if (field === 'chainId') col.fill(read(this.chainId));
      else if (derived) for (let i = 0; i < pools.length; i++) col[i] = read(derived(pools[i] as StoredPool));
      else if (field === 'totalLiquidity')
        for (let i = 0; i < pools.length; i++) col[i] = read(viewTotalLiquidity(pools[i] as StoredPool));
      else
        for (let i = 0; i < pools.length; i++) col[i] = read((pools[i] as unknown as Record<string, unknown>)[field]);
      this.columns.set(cacheKey, col);
    }
    return col;
  }

  /**
   * Builds, ahead of requests, the sort order and the columns of the filters clients send most, so
   * the first query after a reload is as fast as the rest.
   */
  prepare(sortField: SortFieldName, direction: SortDirection, filterFields: readonly FilterFieldName[]): void {
    this.order(sortField, direction);
    const fields = poolFilterFields();
    for (const f of filterFields) {
      const kind = fields.get(f);
      if (kind === 'idList') this.listColumn(f);
      else if (kind === 'boolean') this.booleanColumn(f);
      else if (kind === 'id' || kind === 'string') this.textColumn(f);
      else this.numericColumn(f);
    }
  }

  /** The field's value per pool as a number (null when absent). */
  numericColumn(field: FilterFieldName): readonly (NumericValue | null)[] {
    return this.column('numeric', field, poolFilterFields().get(field) === 'decimal' ? storedDecimal : storedNumber);
  }

  /** The field's text per pool (null when absent). */
  textColumn(field: FilterFieldName): readonly (string | null)[] {
    return this.column('text', field, (v) => (typeof v === 'string' ? v : null));
  }

  /** The field per pool: true, false or null when absent. */
  booleanColumn(field: FilterFieldName): readonly (boolean | null)[] {
    return this.column('boolean', field, (v) => (typeof v === 'boolean' ? v : null));
  }

  /** A list-of-addresses field per pool. */
  listColumn(field: FilterFieldName): readonly (readonly string[])[] {
    return this.column('list', field, (v) => (Array.isArray(v) ? (v as string[]) : []));
  }

  position(i: number, field: SortFieldName): SortPosition {
    return { key: this.numericColumn(field)[i] ?? null, id: (this.pools[i] as StoredPool).id };
  }

  /** Pool positions in sort order. */
  order(field: SortFieldName, direction: SortDirection): Int32Array {
    const cacheKey = `${field}:${direction}`;
    let order = this.orders.get(cacheKey);
    if (!order) {
      order = this.sortedPositions(field, direction);
      this.orders.set(cacheKey, order);
    }
    return order;
  }

  private sortedPositions(field: SortFieldName, direction: SortDirection): Int32Array {
    const keys = this.numericColumn(field);
    // Doubles decide almost every comparison; compareSortPositions settles ties exactly.
    const approx = new Float64Array(keys.length);
    for (let i = 0; i < keys.length; i++) approx[i] = keys[i]?.approx ?? NaN;
    const sign = direction === 'asc' ? 1 : -1;
    const order = Int32Array.from(this.pools.keys());
    return order.sort((i, j) => {
      const a = approx[i] as number;
      const b = approx[j] as number;
      if (a < b) return -sign;
      if (a > b) return sign;
      return compareSortPositions(this.position(i, field), this.position(j, field), direction);
    });
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
    this.byId ??= new Map(this.pools.map((p, i) => [p.id, i]));
    const i = this.byId.get(id.toLowerCase());
    return i === undefined ? undefined : this.view(i);
  }

  /** The pool whose BPT is this token, if any. */
  poolByAddress(address: string): PoolView | undefined {
    this.byAddress ??= new Map(this.pools.map((p, i) => [p.address, i]));
    const i = this.byAddress.get(address.toLowerCase());
    return i === undefined ? undefined : this.view(i);
  }
}

/**
 * The app's indexes, keyed on the snapshot's pools array, which the read model keeps when only
 * token prices change, so a price reload does not re-sort the pools.
 */
const INDEXES = appStateKey('GraphQL pool indexes', () => new WeakMap<readonly StoredPool[], PoolIndex>());

export function poolIndexFor(state: AppState, chainId: number, pools: readonly StoredPool[]): PoolIndex {
  const indexes = state.get(INDEXES);
  let index = indexes.get(pools);
  if (!index) {
    index = new PoolIndex(chainId, pools);
    indexes.set(pools, index);
  }
  return index;
}
