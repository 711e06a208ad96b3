import { mulUp } from '../../../swap/math/fixedPoint';
import type { Rounding } from '../poolMath';
import type { V3PoolState } from './poolState';
import { toRawUndoRateRoundDown, toScaled18ApplyRateRoundDown, toScaled18ApplyRateRoundUp } from './scaling';

/** The balances an operation starts from: live scaled18, and raw where the state has them. */
export interface LoadedBalances {
  readonly live: readonly bigint[];
  readonly raw: readonly bigint[] | undefined;
}

/**
 * `PoolDataLib.load`: the Vault rounds live balances up for adds and down for swaps and removes,
 * and first takes the aggregate yield fee off each yield-paying token's raw balance (the growth of
 * its live balance since the pool's last operation, times the fee, rounded up in scaled18 and down
 * in raw), except in recovery mode.
 *
 * Without raw balances the state's live balances (read rounded down, fees taken) are all there is:
 * an add then starts from balances up to 1 wei below the Vault's.
 */
export function loadBalances(pool: V3PoolState, rounding: Rounding): LoadedBalances {
  const stored = pool.balancesRaw;
  if (stored === undefined) return { live: pool.balancesLiveScaled18, raw: undefined };
  const scale = rounding === 'up' ? toScaled18ApplyRateRoundUp : toScaled18ApplyRateRoundDown;
  const yieldFee = pool.yieldFee;
  const charged = yieldFee !== undefined && yieldFee.aggregateYieldFee > 0n && !pool.inRecoveryMode;
  const raw = [...stored];
  const live = stored.map((balanceRaw, i) => {
    const factor = pool.scalingFactors[i]!;
    const rate = pool.tokenRates[i]!;
    const scaled = scale(balanceRaw, factor, rate);
    if (!charged || !yieldFee.paysYieldFees[i]) return scaled;
    const last = yieldFee.lastLiveBalances[i]!;
    if (scaled <= last) return scaled;
    const feeRaw = toRawUndoRateRoundDown(mulUp(scaled - last, yieldFee.aggregateYieldFee), factor, rate);
    if (feeRaw === 0n) return scaled;
    raw[i] = balanceRaw - feeRaw;
    return scale(raw[i]!, factor, rate);
  });
  return { live, raw };
}
