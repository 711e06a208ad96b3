import type { PoolHistoryPoint, StoredPool, StoredPoolToken } from '../../../src/domain/pool';

/** Minimal stored pools for decoration vectors: only the fields decoration reads matter. */
export function token(address: string, balance: string, extra: Partial<StoredPoolToken> = {}): StoredPoolToken {
  return { address, symbol: null, name: null, decimals: 18, balance, weight: null, priceRate: '1', ...extra };
}

export function pool(id: string, poolType: string, tokens: StoredPoolToken[], extra: Partial<StoredPool> = {}): StoredPool {
  const address = extra.address ?? `0x${id.padStart(40, '0')}`;
  return {
    id: `0x${id.padStart(64, '0')}`,
    address,
    poolType,
    poolTypeVersion: 1,
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
    tokens,
    tokensList: tokens.map((t) => t.address),
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
    ...extra,
  };
}

export function point(poolId: string, timestamp: number, totalSwapVolume: string, totalSwapFee: string, priceRates: Record<string, string> = {}): PoolHistoryPoint {
  return { poolId, timestamp, totalSwapVolume, totalSwapFee, totalShares: '100', priceRates };
}

export const A = {
  WETH: '0x00000000000000000000000000000000000000e1',
  USDC: '0x00000000000000000000000000000000000000c1',
  DAI: '0x00000000000000000000000000000000000000d1',
  USDT: '0x00000000000000000000000000000000000000f1',
  BAL: '0x00000000000000000000000000000000000000b1',
  WSTETH: '0x00000000000000000000000000000000000000a1',
  ADAI: '0x00000000000000000000000000000000000000a2',
} as const;
