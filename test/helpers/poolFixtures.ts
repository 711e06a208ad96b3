import type { Address } from '../../src/domain/address';
import type { StoredPool, StoredPoolToken } from '../../src/domain/pool';

/**
 * A complete stored pool with neutral defaults (a routable 2-token weighted pool), so each test
 * spells out only the fields it is about.
 */
export function storedPool(
  fields: Partial<StoredPool> & { readonly id: string; readonly tokens: readonly StoredPoolToken[] },
): StoredPool {
  return {
    address: fields.id.slice(0, 42) as Address,
    poolType: 'Weighted',
    poolTypeVersion: 1,
    protocolVersion: 2,
    factory: null,
    owner: null,
    symbol: null,
    name: null,
    swapFee: '0.003',
    swapEnabled: true,
    isPaused: false,
    isInRecoveryMode: false,
    amp: null,
    totalShares: '100',
    totalWeight: '1',
    totalSwapVolume: '0',
    totalSwapFee: '0',
    createTime: null,
    swapsCount: null,
    holdersCount: null,
    tokensList: fields.tokens.map((t) => t.address),
    expiryTime: null,
    unitSeconds: null,
    principalToken: null,
    baseToken: null,
    mainIndex: null,
    wrappedIndex: null,
    lowerTarget: null,
    upperTarget: null,
    managementFee: null,
    protocolYieldFeeCache: null,
    priceRateProviders: [],
    gyro: null,
    subgraphLiquidity: null,
    routable: true,
    ...fields,
  };
}
