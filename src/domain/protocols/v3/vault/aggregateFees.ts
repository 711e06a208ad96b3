import { mulDown } from '../../../swap/math/fixedPoint';
import type { V3PoolState } from './poolState';
import { toRawUndoRateRoundDown } from './scaling';

/** A swap fee in the token's raw units, and the part of it the pool does not keep. */
export interface ChargedFee {
  readonly totalRaw: bigint;
  readonly aggregateRaw: bigint;
}

/**
 * `_computeAndChargeAggregateSwapFees`: the total fee goes raw rounded down, the aggregate
 * (protocol + creator) share of it rounded down again, so rounding favours the LPs. No aggregate
 * fee in recovery mode.
 */
export function chargeAggregateSwapFee(pool: V3PoolState, feeScaled18: bigint, index: number): ChargedFee {
  if (feeScaled18 === 0n) return { totalRaw: 0n, aggregateRaw: 0n };
  const totalRaw = toRawUndoRateRoundDown(feeScaled18, pool.scalingFactors[index]!, pool.tokenRates[index]!);
  const aggregateRaw = pool.inRecoveryMode ? 0n : mulDown(totalRaw, pool.aggregateSwapFee);
  return { totalRaw, aggregateRaw };
}
