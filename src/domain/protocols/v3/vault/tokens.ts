import { v3Revert } from './errors';
import type { V3PoolState } from './poolState';

/** `_findTokenIndex`: tokens are compared as addresses (any letter case). */
export function tokenIndex(pool: V3PoolState, token: string): number {
  const wanted = token.toLowerCase();
  const index = pool.tokens.findIndex((t) => t.toLowerCase() === wanted);
  if (index < 0) throw v3Revert('TokenNotRegistered', `token ${token} is not in pool ${pool.address}`);
  return index;
}
