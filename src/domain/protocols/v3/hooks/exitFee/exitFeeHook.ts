import { mulDown } from '../../../../swap/math/fixedPoint';
import { Revert } from '../../../../swap/math/revert';
import type { AfterRemoveLiquidityParams, V3Hook } from '../hook';

export class ExitFeeOnlyProportional extends Revert {
  override readonly name = 'ExitFeeOnlyProportional';
  constructor() {
    super('the exit fee hook takes proportional removes only (AfterRemoveLiquidityHookFailed)', {
      code: 'AfterRemoveLiquidityHookFailed',
    });
  }
}

/**
 * ExitFeeHookExample: a proportional remove pays `exitFeePercentage` of each raw amount out (rounded
 * down), donated back to the pool; any other remove fails the hook. Swaps and adds are untouched.
 */
export function exitFeeHook(exitFeePercentage: bigint): V3Hook {
  return {
    enableHookAdjustedAmounts: true,
    afterRemoveLiquidity(p: AfterRemoveLiquidityParams): readonly bigint[] {
      if (p.kind !== 'proportional') throw new ExitFeeOnlyProportional();
      if (exitFeePercentage === 0n) return p.amountsOutRaw;
      return p.amountsOutRaw.map((amount) => amount - mulDown(amount, exitFeePercentage));
    },
  };
}
