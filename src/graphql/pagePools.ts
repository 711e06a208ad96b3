import type { PoolView } from '../domain/poolView';
import type { PoolPredicate } from './poolFilter';
import type { PoolIndex, SortDirection, SortPosition } from './poolIndex';
import type { SortFieldName } from './poolFields';

export interface PoolsPageRequest {
  readonly sortField: SortFieldName;
  readonly direction: SortDirection;
  readonly first: number;
  /** Start strictly after this position (from the previous page's cursor). */
  readonly after: SortPosition | null;
}

export interface PoolsPage {
  readonly pools: readonly PoolView[];
  /** Position of the page's last pool when more matching pools follow; null on the last page. */
  readonly next: SortPosition | null;
}

/** One page of the matching pools in sort order. Pure over the index; nothing is copied but the page. */
export function pagePools(index: PoolIndex, matches: PoolPredicate, req: PoolsPageRequest): PoolsPage {
  const order = index.order(req.sortField, req.direction);
  const start = req.after ? index.startAfter(req.sortField, req.direction, req.after) : 0;
  const picked: number[] = [];
  let more = false;
  for (let k = start; k < order.length; k++) {
    const i = order[k] as number;
    if (!matches(i)) continue;
    if (picked.length === req.first) {
      more = true;
      break;
    }
    picked.push(i);
  }
  const last = picked[picked.length - 1];
  return {
    pools: picked.map((i) => index.view(i)),
    next: more && last !== undefined ? index.position(last, req.sortField) : null,
  };
}

export function countPools(index: PoolIndex, matches: PoolPredicate): number {
  let n = 0;
  for (let i = 0; i < index.size; i++) if (matches(i)) n++;
  return n;
}
