import { v3Revert } from './errors';
import type { V3PoolState } from './poolState';

/** `InputHelpers.getSingleInputIndex`: the one non-zero entry of a single-token operation's amounts. */
export function singleInputIndex(amounts: readonly bigint[]): number {
  let index = -1;
  for (let i = 0; i < amounts.length; i++) {
    if (amounts[i] === 0n) continue;
    if (index >= 0) throw v3Revert('MultipleNonZeroInputs', 'a single-token operation names more than one token');
    index = i;
  }
  if (index < 0) throw v3Revert('AllZeroInputs', 'a single-token operation names no token');
  return index;
}

/** `InputHelpers.ensureInputLengthMatch`: one amount per pool token. */
export function ensureOneAmountPerToken(pool: V3PoolState, amounts: readonly bigint[]): void {
  if (amounts.length !== pool.tokens.length) {
    throw v3Revert('InputLengthMismatch', `${amounts.length} amounts for ${pool.tokens.length} tokens`);
  }
}

/** `requireUnbalancedLiquidityEnabled`. */
export function ensureUnbalancedLiquidity(pool: V3PoolState): void {
  if (!pool.supportsUnbalancedLiquidity) {
    throw v3Revert('DoesNotSupportUnbalancedLiquidity', `pool ${pool.address} takes proportional liquidity only`);
  }
}

/** The BPT supply may not fall below 1e6 (`_POOL_MINIMUM_TOTAL_SUPPLY`), checked when BPT is burnt. */
export const POOL_MINIMUM_TOTAL_SUPPLY = 1_000_000n;
