import type { StoredPool } from '../../../pool';
import type { V3PoolState } from '../../../protocols/v3/vault/poolState';
import type { ReClammV3State, ReClammVersion } from './reClammV3State';

/**
 * A stored ReClamm pool's state: its Vault state and its stored parameters (`reClammV3Params.ts`). The
 * factory's version is the contract's generation. Throws when a parameter is missing (such a pool
 * is not quoted).
 */
export function reClammStateOf(pool: StoredPool, vaultState: V3PoolState): ReClammV3State {
  const need = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`ReClamm pool ${pool.id} has no ${name}`);
    return value;
  };
  const virtual = need(pool.lastVirtualBalances, 'lastVirtualBalances');
  if (virtual.length !== 2) throw new Error(`ReClamm pool ${pool.id} has ${virtual.length} virtual balances`);
  const version: ReClammVersion = pool.poolTypeVersion >= 2 ? 2 : 1;
  return {
    ...vaultState,
    version,
    lastVirtualBalances: [BigInt(virtual[0]!), BigInt(virtual[1]!)],
    lastTimestamp: BigInt(need(pool.lastTimestamp, 'lastTimestamp')),
    dailyPriceShiftBase: BigInt(need(pool.dailyPriceShiftBase, 'dailyPriceShiftBase')),
    centerednessMargin: BigInt(need(pool.centerednessMargin, 'centerednessMargin')),
    priceRatio: {
      startFourthRootPriceRatio: BigInt(need(pool.startFourthRootPriceRatio, 'startFourthRootPriceRatio')),
      endFourthRootPriceRatio: BigInt(need(pool.endFourthRootPriceRatio, 'endFourthRootPriceRatio')),
      priceRatioUpdateStartTime: BigInt(need(pool.priceRatioUpdateStartTime, 'priceRatioUpdateStartTime')),
      priceRatioUpdateEndTime: BigInt(need(pool.priceRatioUpdateEndTime, 'priceRatioUpdateEndTime')),
    },
  };
}
