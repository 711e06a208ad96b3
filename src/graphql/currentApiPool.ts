import { balancerApiChainName } from '../config/chains';
import type { StoredPool } from '../domain/pool';

/**
 * A stored pool in the current Balancer API's pool shapes (`GqlPoolMinimal`, and the fields of
 * `GqlPoolBase` the SDK's pool-state queries read), from what the service holds.
 */

/** Our pool type names -> the current API's `GqlPoolType`. */
const POOL_TYPES: Readonly<Record<string, string>> = {
  Weighted: 'WEIGHTED',
  Investment: 'INVESTMENT',
  Managed: 'INVESTMENT',
  LiquidityBootstrapping: 'LIQUIDITY_BOOTSTRAPPING',
  LBP: 'LIQUIDITY_BOOTSTRAPPING',
  FixedLBP: 'FIXED_LBP',
  Stable: 'STABLE',
  MetaStable: 'META_STABLE',
  StablePhantom: 'PHANTOM_STABLE',
  ComposableStable: 'COMPOSABLE_STABLE',
  Element: 'ELEMENT',
  Gyro2: 'GYRO',
  Gyro3: 'GYRO3',
  GyroE: 'GYROE',
  FX: 'FX',
  ReClamm: 'RECLAMM',
  QuantAMMWeighted: 'QUANT_AMM_WEIGHTED',
};

export function apiPoolType(poolType: string): string {
  return POOL_TYPES[poolType] ?? 'UNKNOWN';
}

export interface ApiPoolMinimal {
  readonly id: string;
  readonly chain: string;
  readonly vaultVersion: number;
  readonly protocolVersion: number;
  readonly name: string;
  readonly symbol: string;
  readonly address: string;
  readonly decimals: number;
  readonly owner: string | null;
  readonly factory: string | null;
  readonly createTime: number;
  readonly type: string;
  readonly version: number;
}

export function apiPoolMinimal(pool: StoredPool, chainId: number): ApiPoolMinimal {
  const protocolVersion = pool.protocolVersion ?? 2;
  return {
    id: pool.id,
    chain: balancerApiChainName(chainId) ?? 'HARDHAT',
    vaultVersion: protocolVersion,
    protocolVersion,
    name: pool.name ?? '',
    symbol: pool.symbol ?? '',
    address: pool.address,
    // Every Balancer pool token (BPT) has 18 decimals.
    decimals: 18,
    owner: pool.owner,
    factory: pool.factory,
    createTime: pool.createTime ?? 0,
    type: apiPoolType(pool.poolType),
    version: pool.poolTypeVersion,
  };
}
