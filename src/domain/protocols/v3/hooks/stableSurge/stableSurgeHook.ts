import { complement, divDown, mulDown } from '../../../../swap/math/fixedPoint';
import { Revert } from '../../../../swap/math/revert';
import type { PoolSwapParams, V3PoolMath } from '../../poolMath';
import type { V3PoolState } from '../../vault/poolState';
import type { AfterAddLiquidityParams, AfterRemoveLiquidityParams, V3Hook } from '../hook';
import { imbalance } from './imbalance';

/** The hook's per-pool settings (`getMaxSurgeFeePercentage`, `getSurgeThresholdPercentage`), 18 decimals. */
export interface StableSurgeParams {
  readonly maxSurgeFeePercentage: bigint;
  readonly surgeThresholdPercentage: bigint;
}

export class SurgingLiquidityRefused extends Revert {
  override readonly name = 'SurgingLiquidityRefused';
  constructor(operation: 'add' | 'remove') {
    super(`StableSurge refuses an unbalanced ${operation} that takes the pool past its surge threshold`, {
      code: operation === 'add' ? 'AfterAddLiquidityHookFailed' : 'AfterRemoveLiquidityHookFailed',
    });
  }
}

/**
 * StableSurgeHook: the swap fee grows linearly from the static fee (at the threshold) towards the
 * max surge fee (at full imbalance) when a swap leaves the pool more imbalanced than it found it
 * and past the threshold. The imbalance after the swap needs the pool's own swap result on the
 * gross amount given (the hook calls the pool's `onSwap` itself), so the caller passes it in.
 */
export function surgeSwapFee(
  params: StableSurgeParams,
  staticFee: bigint,
  balancesScaled18: readonly bigint[],
  balancesAfterScaled18: readonly bigint[],
): bigint {
  if (params.maxSurgeFeePercentage < staticFee) return staticFee;
  const after = imbalance(balancesAfterScaled18);
  if (!isSurging(params, imbalance(balancesScaled18), after)) return staticFee;
  const excess = divDown(after - params.surgeThresholdPercentage, complement(params.surgeThresholdPercentage));
  return staticFee + mulDown(params.maxSurgeFeePercentage - staticFee, excess);
}

/**
 * onAfterAddLiquidity / onAfterRemoveLiquidity: an unbalanced add or remove that surges fails the
 * hook (the Vault reverts); proportional ones always pass. `balancesAfterScaled18` are the
 * balances the Vault hands the hook (after the operation).
 */
export function ensureLiquidityNotSurging(
  params: StableSurgeParams,
  operation: 'add' | 'remove',
  proportional: boolean,
  amountsScaled18: readonly bigint[],
  balancesAfterScaled18: readonly bigint[],
): void {
  if (proportional) return;
  const before = balancesAfterScaled18.map((b, k) =>
    operation === 'add' ? b - amountsScaled18[k]! : b + amountsScaled18[k]!,
  );
  if (isSurging(params, imbalance(before), imbalance(balancesAfterScaled18))) {
    throw new SurgingLiquidityRefused(operation);
  }
}

function isSurging(params: StableSurgeParams, before: bigint, after: bigint): boolean {
  return after !== 0n && after > before && after > params.surgeThresholdPercentage;
}

/**
 * The hook for one pool, priced with that pool's own math (the hook calls the pool's `onSwap` on
 * the gross amount given, before the Vault takes the fee off).
 */
export function stableSurgeHook(params: StableSurgeParams, poolMath: V3PoolMath): V3Hook {
  return {
    enableHookAdjustedAmounts: false,
    computeDynamicSwapFee(swap: PoolSwapParams, _pool: V3PoolState, staticSwapFee: bigint): bigint {
      const calculated = poolMath.onSwap(swap);
      const after = [...swap.balancesScaled18];
      const [amountIn, amountOut] =
        swap.kind === 'exactIn' ? [swap.amountGivenScaled18, calculated] : [calculated, swap.amountGivenScaled18];
      after[swap.indexIn] = after[swap.indexIn]! + amountIn;
      after[swap.indexOut] = after[swap.indexOut]! - amountOut;
      return surgeSwapFee(params, staticSwapFee, swap.balancesScaled18, after);
    },
    afterAddLiquidity(p: AfterAddLiquidityParams): readonly bigint[] {
      ensureLiquidityNotSurging(params, 'add', p.kind === 'proportional', p.amountsInScaled18, p.balancesScaled18);
      return p.amountsInRaw;
    },
    afterRemoveLiquidity(p: AfterRemoveLiquidityParams): readonly bigint[] {
      ensureLiquidityNotSurging(params, 'remove', p.kind === 'proportional', p.amountsOutScaled18, p.balancesScaled18);
      return p.amountsOutRaw;
    },
  };
}
