import { v3Revert } from './errors';
import type { LoadedBalances } from './poolData';
import type { V3PoolState } from './poolState';
import { toScaled18ApplyRateRoundDown, toScaled18ApplyRateRoundUp } from './scaling';

/**
 * The pool's balances after an operation moved `deltasRaw` (positive: into the pool), as the Vault
 * stores them: raw, and live recomputed from raw rounded down (`updateRawAndLiveBalance`). Without
 * raw balances the live ones move by the scaled deltas, rounded against the pool (within 1 wei of
 * the Vault's).
 */
export function balancesAfter(
  pool: V3PoolState,
  loaded: LoadedBalances,
  deltasRaw: readonly bigint[],
): { readonly live: readonly bigint[]; readonly raw: readonly bigint[] | undefined } {
  const factor = (i: number): bigint => pool.scalingFactors[i]!;
  const rate = (i: number): bigint => pool.tokenRates[i]!;
  if (loaded.raw !== undefined) {
    const raw = loaded.raw.map((b, i) => nonNegative(b + deltasRaw[i]!, i));
    return { raw, live: raw.map((b, i) => toScaled18ApplyRateRoundDown(b, factor(i), rate(i))) };
  }
  const live = loaded.live.map((b, i) => {
    const d = deltasRaw[i]!;
    if (d >= 0n) return b + toScaled18ApplyRateRoundDown(d, factor(i), rate(i));
    return nonNegative(b - toScaled18ApplyRateRoundUp(-d, factor(i), rate(i)), i);
  });
  return { live, raw: undefined };
}

/** A balance cannot go below zero: the Vault's checked subtraction reverts first. */
function nonNegative(balance: bigint, index: number): bigint {
  if (balance < 0n) throw v3Revert('Panic(0x11)', `token ${index} balance would go below zero`);
  return balance;
}
