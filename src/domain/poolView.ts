import type { StoredPool } from './pool';
import { v3UnroutableReason } from './poolTypes/v3Routability';

/**
 * The pool as the API shows it (REST and GraphQL): the stored pool plus `chainId`, with
 * `totalLiquidity` falling back to the subgraph's figure until decoration has computed ours. A V3
 * pool routes cannot use (an unknown hook, a type not carried) shows `routable: false` and
 * `unroutableReason`.
 */
export type PoolView = StoredPool & {
  readonly chainId: number;
  readonly totalLiquidity: string;
  readonly unroutableReason?: string;
};

export function toPoolView(pool: StoredPool, chainId: number): PoolView {
  const reason = v3UnroutableReason(pool);
  const view = { ...pool, chainId, totalLiquidity: viewTotalLiquidity(pool) };
  return reason === undefined ? view : { ...view, routable: false, unroutableReason: reason };
}

/** The `totalLiquidity` a view shows, without building the view (GraphQL sorts on it). */
export function viewTotalLiquidity(pool: StoredPool): string {
  return pool.totalLiquidity ?? pool.subgraphLiquidity ?? '0';
}
