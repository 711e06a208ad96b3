import type { Address } from '../../../src/domain/address';
import type { PoolHistoryPoint, StoredPool, StoredPoolToken } from '../../../src/domain/pool';
import { storedPool } from '../../helpers/poolFixtures';

/** Minimal stored pools for decoration vectors: only the fields decoration reads matter. */
export function token(address: string, balance: string, extra: Partial<StoredPoolToken> = {}): StoredPoolToken {
  return {
    address: address as Address,
    symbol: null,
    name: null,
    decimals: 18,
    balance,
    weight: null,
    priceRate: '1',
    ...extra,
  };
}

export function pool(
  id: string,
  poolType: string,
  tokens: StoredPoolToken[],
  extra: Partial<StoredPool> = {},
): StoredPool {
  return storedPool({
    id: `0x${id.padStart(64, '0')}`,
    address: extra.address ?? (`0x${id.padStart(40, '0')}` as Address),
    poolType,
    tokens,
    ...extra,
  });
}

export function point(
  poolId: string,
  timestamp: number,
  totalSwapVolume: string,
  totalSwapFee: string,
  priceRates: Record<string, string> = {},
): PoolHistoryPoint {
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
