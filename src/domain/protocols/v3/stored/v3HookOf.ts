import { decimalToUnits } from '../../../decimal';
import { akronHook } from '../hooks/akron/akronHook';
import { directionalFeeHook } from '../hooks/directionalFee/directionalFeeHook';
import { exitFeeHook } from '../hooks/exitFee/exitFeeHook';
import type { V3Hook } from '../hooks/hook';
import { mevCaptureHookAtStaticFee } from '../hooks/mevCapture/mevCaptureHook';
import { stableSurgeHook } from '../hooks/stableSurge/stableSurgeHook';
import type { V3PoolMath } from '../poolMath';
import type { StoredV3Hook } from './storedV3';

/** Thrown for a stored hook the service cannot price: such a pool is not quoted. */
export class UnmodelledHookError extends Error {
  override readonly name = 'UnmodelledHookError';
}

/**
 * The hook of a stored V3 pool, built for the pool's math (StableSurge prices with it) and, for
 * Akron, its weights. Undefined for a pool without a hook.
 */
export function v3HookOf(hook: StoredV3Hook | null, math: V3PoolMath, weights: readonly bigint[]): V3Hook | undefined {
  if (hook === null) return undefined;
  const param = (name: string): bigint => {
    const value = hook.params[name];
    if (value === undefined) throw new UnmodelledHookError(`hook ${hook.address} has no ${name}`);
    return decimalToUnits(value, 18);
  };
  switch (hook.kind) {
    case 'stableSurge':
      return stableSurgeHook(
        {
          maxSurgeFeePercentage: param('maxSurgeFeePercentage'),
          surgeThresholdPercentage: param('surgeThresholdPercentage'),
        },
        math,
      );
    case 'directionalFee':
      return directionalFeeHook();
    case 'exitFee':
      return exitFeeHook(param('exitFeePercentage'));
    case 'mevCapture':
      return mevCaptureHookAtStaticFee();
    case 'akron':
      return akronHook(weights, param('minimumSwapFeePercentage'));
    case null:
      throw new UnmodelledHookError(`hook ${hook.address} is not one the service models`);
  }
}
