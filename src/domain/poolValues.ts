import { compareDecimal } from './decimal';
import type { PoolCore, StoredPool } from './pool';
import { poolTypeDef } from './poolTypes/registry';

/**
 * Values no Balancer contract can hold, which a subgraph (a bad indexer, a bug, a lying gateway)
 * may still send: the pool update refuses a pool carrying one and keeps its last good version
 * (`jobs/planPoolUpdate.ts`), so it is never stored, served or routed. Pure.
 */

/** The BasePool's bounds (pool-utils `BasePool`, `LinearPool`, the LBP's settings, legacy pools alike). */
const BASE_POOL_FEE = { min: '0.000001', max: '0.1' } as const;
/** A pool type the registry does not carry: only what any fee is, a fraction. */
const ANY_FEE = { min: '0', max: '1' } as const;

/** Why `pool`'s own values are impossible, or null. */
export function impossibleValue(pool: PoolCore): string | null {
  for (const [i, t] of pool.tokens.entries())
    if (compareDecimal(t.balance, '0') < 0)
      return `tokens.${i}.balance: ${t.balance} is negative; a Vault balance never is`;
  if (compareDecimal(pool.totalShares, '0') < 0) return `totalShares: ${pool.totalShares} is negative`;
  const def = poolTypeDef(pool.poolType);
  const bounds = def ? (def.swapFeeBounds ?? BASE_POOL_FEE) : ANY_FEE;
  if (compareDecimal(pool.swapFee, bounds.min) < 0 || compareDecimal(pool.swapFee, bounds.max) > 0)
    return `swapFee: ${pool.swapFee} is outside ${bounds.min}..${bounds.max}, what a ${pool.poolType} pool's contract accepts`;
  return null;
}

/**
 * Why `pool` cannot be the next version of `previous` (its last stored one), or null: a pool's
 * tokens are fixed at registration (a Managed pool's list may change, each token's address and
 * decimals may not), and a token's decimals are its contract's, the same in every pool
 * (`decimals`: those seen so far, by address).
 */
export function impossibleChange(
  pool: PoolCore,
  previous: StoredPool | undefined,
  decimals: ReadonlyMap<string, number>,
): string | null {
  for (const [i, t] of pool.tokens.entries()) {
    const known = decimals.get(t.address);
    if (known !== undefined && known !== t.decimals)
      return `tokens.${i}.decimals: ${t.decimals} for token ${t.address}, whose decimals were ${known}`;
  }
  if (!previous || poolTypeDef(pool.poolType)?.names.includes('Managed')) return null;
  const before = previous.tokens.map((t) => t.address).join(',');
  const now = pool.tokens.map((t) => t.address).join(',');
  if (before !== now) return `tokens: ${now} differ from the pool's registered tokens ${before}`;
  return null;
}
