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
    // A TypeError or ReferenceError is the code's fault, not the pool's: the V3 router leaves the
    // pool out and logs it; here one pool's fault must not fail the whole pool list.
    if (e instanceof TypeError || e instanceof ReferenceError)
      return `the service failed to build this pool's model (a fault on its side): ${e.message}`;
    return e instanceof Error ? e.message : String(e);
  }
}
