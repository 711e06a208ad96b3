import { divDown, divUp } from '../../../../swap/math/fixedPoint';
import type { PoolSwapParams } from '../../poolMath';
import type { V3Hook } from '../hook';
import { akronFeeGivenExactIn, akronFeeGivenExactOut } from './akronFeeMath';

/**
 * Akron's weighted LVR fee hook: every swap pays the fee `akronFeeMath.ts` computes from the gross
 * amount given and the pool's normalized weights, never less than the hook's minimum
 * (`minimumSwapFeePercentage`: the static fee in the deployment Balancer's maths follow, 0.001% in
 * Akron's own sources, so the catalogue supplies it per deployment). The static fee is not read.
 */
export function akronHook(weights: readonly bigint[], minimumSwapFeePercentage: bigint): V3Hook {
  return {
    enableHookAdjustedAmounts: false,
    computeDynamicSwapFee(swap: PoolSwapParams): bigint {
      const { indexIn, indexOut } = swap;
      const fee =
        swap.kind === 'exactIn'
          ? akronFeeGivenExactIn(
              swap.balancesScaled18[indexIn]!,
              divDown(weights[indexIn]!, weights[indexOut]!),
              swap.amountGivenScaled18,
            )
          : akronFeeGivenExactOut(
              swap.balancesScaled18[indexOut]!,
              divUp(weights[indexOut]!, weights[indexIn]!),
              swap.amountGivenScaled18,
            );
      return fee < minimumSwapFeePercentage ? minimumSwapFeePercentage : fee;
    },
  };
}
