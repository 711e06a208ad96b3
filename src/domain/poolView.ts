import type { StoredPool } from './pool';

/**
 * The pool as the API shows it (REST and GraphQL): the stored pool plus `chainId`, with
 * `totalLiquidity` falling back to the subgraph's figure until decoration has computed ours.
 */
export type PoolView = StoredPool & { readonly chainId: number; readonly totalLiquidity: string };

export function toPoolView(pool: StoredPool, chainId: number): PoolView {
  return { ...pool, chainId, totalLiquidity: viewTotalLiquidity(pool) };
}

/** The `totalLiquidity` a view shows, without building the view (GraphQL sorts on it). */
export function viewTotalLiquidity(pool: StoredPool): string {
  return pool.totalLiquidity ?? pool.subgraphLiquidity ?? '0';
}
