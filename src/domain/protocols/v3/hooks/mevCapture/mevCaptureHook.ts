import type { V3Hook } from '../hook';

/**
 * MevCaptureHook, quoted at the pool's static fee. The hook raises the fee by the transaction's
 * priority gas price above a per-pool threshold (times a multiplier, capped), and refuses
 * unbalanced adds and removes above that threshold; a quote is for a transaction the service does
 * not send, so it is the answer for a priority fee at or below the threshold, where the hook
 * charges exactly the static fee and lets every operation through. Trusted routers' exempt senders
 * pay the static fee at any priority.
 */
export function mevCaptureHookAtStaticFee(): V3Hook {
  return {
    enableHookAdjustedAmounts: false,
    computeDynamicSwapFee: (_swap, _pool, staticSwapFee) => staticSwapFee,
  };
}
