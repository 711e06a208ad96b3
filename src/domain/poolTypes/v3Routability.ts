import type { StoredPool } from '../pool';
import { v3PoolOf } from './v3PoolOf';

/**
 * Why a stored V3 pool is left out of routes whatever the trade, or undefined when it is not: its
 * type is not carried, its hook is not one the service models (or lacks a setting it needs), or a
 * parameter its type needs is missing. The same checks the routing universe makes when it builds
 * the pool's model (`protocols/v3/engine/v3Models.ts`), shown with the pool (`poolView.ts`). Pause
 * and recovery are the pool's own flags, shown as such. Undefined for a V2 pool.
 */
export function v3UnroutableReason(pool: StoredPool): string | undefined {
  if (pool.protocolVersion !== 3) return undefined;
  try {
    // What the check builds does not depend on the time (an LBP's window is checked per swap).
    if (v3PoolOf(pool, 0n) === undefined) return `V3 pool type ${pool.poolType} is not carried`;
    return undefined;
  } catch (e) {
    // A TypeError or ReferenceError is the code's fault, not the pool's.
    if (!(e instanceof Error) || e instanceof TypeError || e instanceof ReferenceError) throw e;
    return e.message;
  }
}
