import type { ReClammV3State, ReClammVersion } from '../../src/domain/poolTypes/reClamm/v3/reClammV3State';
import { reClammV3Math } from '../../src/domain/poolTypes/reClamm/v3/reClammV3Pool';
import type { V3Pool } from '../../src/domain/protocols/v3/vault/v3Pool';
import { vectorVaultState, type V3VectorPool } from './v3Vectors';

const VERSIONS: Readonly<Record<string, ReClammVersion>> = { RECLAMM: 1, RECLAMM_V2: 2 };

/** A ReClamm vector's pool state: the Vault's state plus `getReClammPoolDynamicData`'s fields. */
export function reClammVectorState(pool: V3VectorPool): ReClammV3State {
  const version = VERSIONS[pool.poolType];
  if (version === undefined) throw new Error(`pool type ${pool.poolType} is not a ReClamm`);
  const [a, b] = pool.bigs('lastVirtualBalances');
  return {
    ...vectorVaultState(pool),
    // The pool registers with unbalanced liquidity disabled: proportional adds and removes only.
    supportsUnbalancedLiquidity: false,
    version,
    lastVirtualBalances: [a!, b!],
    lastTimestamp: pool.big('lastTimestamp'),
    dailyPriceShiftBase: pool.big('dailyPriceShiftBase'),
    centerednessMargin: pool.big('centerednessMargin'),
    priceRatio: {
      startFourthRootPriceRatio: pool.big('startFourthRootPriceRatio'),
      endFourthRootPriceRatio: pool.big('endFourthRootPriceRatio'),
      priceRatioUpdateStartTime: pool.big('priceRatioUpdateStartTime'),
      priceRatioUpdateEndTime: pool.big('priceRatioUpdateEndTime'),
    },
  };
}

/** The pool as the Vault's operations run it in a block with timestamp `timestamp` (the vector's own by default). */
export function reClammVectorPool(pool: V3VectorPool, timestamp = pool.big('currentTimestamp')): V3Pool {
  const state = reClammVectorState(pool);
  return { state, math: reClammV3Math(state, timestamp) };
}
