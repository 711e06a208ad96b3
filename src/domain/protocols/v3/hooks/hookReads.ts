import { at, chainCall, getter, type ChainCall } from '../../../poolTypes/chainReads';
import type { StoredV3Hook } from '../stored/storedV3';

/**
 * What a known hook's contract answers for one pool at the head, read beside the Vault reads
 * (`../vaultReads.ts`) into the parameters its maths take (`StoredV3Hook.params`, 18-decimal
 * integers here): StableSurge its per-pool max surge fee and threshold, the exit fee hook its
 * fee. The other modelled hooks read nothing: the directional fee hook prices with the pool's
 * static fee and balances, MEV capture is quoted at the static fee, and Akron's minimum fee comes
 * with the catalogue.
 */

/** Where a call's answer goes: the draft's hook parameter `name`. */
export type PutHookParam<D> = (draft: D, name: string, value: bigint) => void;

const GET_MAX_SURGE_FEE_PERCENTAGE = getter('getMaxSurgeFeePercentage', ['address'], ['uint256']);
const GET_SURGE_THRESHOLD_PERCENTAGE = getter('getSurgeThresholdPercentage', ['address'], ['uint256']);
const EXIT_FEE_PERCENTAGE = getter('exitFeePercentage', [], ['uint256']);

/** The calls for the hook of the pool at `pool`, as stored (its kind known); none for a hook that reads nothing. */
export function hookParamCalls<D>(
  hook: StoredV3Hook | null | undefined,
  pool: string,
  put: PutHookParam<D>,
): ChainCall<D>[] {
  const set =
    (name: string) =>
    (d: D, [v]: readonly [bigint]): void =>
      put(d, name, v);
  switch (hook?.kind) {
    case 'stableSurge':
      return [
        chainCall(at(hook.address), GET_MAX_SURGE_FEE_PERCENTAGE, [pool], set('maxSurgeFeePercentage')),
        chainCall(at(hook.address), GET_SURGE_THRESHOLD_PERCENTAGE, [pool], set('surgeThresholdPercentage')),
      ];
    case 'exitFee':
      return [chainCall(at(hook.address), EXIT_FEE_PERCENTAGE, [], set('exitFeePercentage'))];
    default:
      return [];
  }
}
