import { Revert } from '../../../../swap/math/revert';
import type { V3Hook } from '../hook';

/** The hook's settings for one pool (`getPoolMevTaxThreshold`, `getPoolMevTaxMultiplier`, ...). */
export interface MevCaptureParams {
  /** `isMevTaxEnabled`: false makes the hook charge the static fee and refuse nothing. */
  readonly mevTaxEnabled: boolean;
  /** Priority gas price (wei) up to which the static fee applies. */
  readonly threshold: bigint;
  /** Fee percentage (18 decimals) per wei of priority gas price above the threshold, times 1e18. */
  readonly multiplier: bigint;
  /** `getMaxMevSwapFeePercentage`. */
  readonly maxMevSwapFeePercentage: bigint;
}

export class MevTaxedLiquidityRefused extends Revert {
  override readonly name = 'MevTaxedLiquidityRefused';
  constructor(operation: 'add' | 'remove') {
    super(`MEV capture refuses an unbalanced ${operation} above the priority fee threshold`, {
      code: operation === 'add' ? 'BeforeAddLiquidityHookFailed' : 'BeforeRemoveLiquidityHookFailed',
    });
  }
}

const UINT256_MAX = 2n ** 256n - 1n;

/**
 * MevCaptureHook for a transaction paying `priorityGasPrice` (gas price minus base fee): above the
 * pool's threshold the swap fee grows by (priority - threshold) * multiplier / 1e18, capped at the
 * max MEV fee (and not raised when that max is at or below the static fee), and unbalanced adds and
 * removes are refused. Senders a trusted router marks exempt pay the static fee; a quote does not
 * know its sender, so it is for a sender that is not exempt.
 */
export function mevCaptureHook(params: MevCaptureParams, priorityGasPrice: bigint): V3Hook {
  const taxed = params.mevTaxEnabled && priorityGasPrice > params.threshold;
  const refuseUnbalanced = (kind: string, operation: 'add' | 'remove'): undefined => {
    if (taxed && kind !== 'proportional') throw new MevTaxedLiquidityRefused(operation);
    return undefined;
  };
  return {
    enableHookAdjustedAmounts: false,
    computeDynamicSwapFee(_swap, _pool, staticSwapFee: bigint): bigint {
      if (!taxed || params.maxMevSwapFeePercentage <= staticSwapFee) return staticSwapFee;
      const product = (priorityGasPrice - params.threshold) * params.multiplier;
      // Math.tryMul: an overflowing product means the max fee.
      if (product > UINT256_MAX) return params.maxMevSwapFeePercentage;
      const fee = staticSwapFee + product / 10n ** 18n;
      return fee < params.maxMevSwapFeePercentage ? fee : params.maxMevSwapFeePercentage;
    },
    beforeAddLiquidity: (p) => refuseUnbalanced(p.kind, 'add'),
    beforeRemoveLiquidity: (p) => refuseUnbalanced(p.kind, 'remove'),
  };
}

/**
 * The hook quoted at the pool's static fee: the answer for a priority fee at or below the pool's
 * threshold (or an exempt sender), where it charges exactly the static fee and refuses nothing. The
 * service quotes MEV-capture pools this way unless a request names its priority fee.
 */
export function mevCaptureHookAtStaticFee(): V3Hook {
  return {
    enableHookAdjustedAmounts: false,
    computeDynamicSwapFee: (_swap, _pool, staticSwapFee) => staticSwapFee,
  };
}
