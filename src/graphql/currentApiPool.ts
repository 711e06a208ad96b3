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

/** `GqlToken`: a token as the current API describes it (`tokenGetTokens`, a pool token's underlying). */
export interface ApiToken {
  readonly address: string;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly chainId: number;
  readonly chain: string;
  readonly priority: number;
  readonly tradable: boolean;
  /** An ERC-4626 token the V3 Vault has a buffer for (the only ERC-4626 tokens the service knows). */
  readonly isErc4626: boolean;
  readonly underlyingTokenAddress: string | null;
  readonly isBufferAllowed: boolean;
}

export interface ApiNestedPool {
  readonly id: string;
  readonly address: string;
  readonly type: string;
  readonly tokens: readonly ApiPoolToken[];
}

/** `GqlPoolTokenDetail`. */
export interface ApiPoolToken {
  readonly id: string;
  readonly index: number;
  readonly address: string;
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
  /** Human units, as stored. */
  readonly balance: string;
  readonly priceRate: string;
  readonly weight: string | null;
  readonly hasNestedPool: boolean;
  readonly nestedPool: ApiNestedPool | null;
  readonly isErc4626: boolean;
  readonly underlyingToken: ApiToken | null;
}

/** `GqlPoolBase`, the fields the SDK's pool-state queries read and the rest the service holds. */
export interface ApiPool extends ApiPoolMinimal {
  /** The concrete GraphQL type (`GqlPoolWeighted`, ...). */
  readonly __typename: string;
  readonly poolTokens: readonly ApiPoolToken[];
  readonly dynamicData: {
    readonly poolId: string;
    readonly swapFee: string;
    readonly totalShares: string;
    readonly totalSupply: string;
    readonly swapEnabled: boolean;
    readonly isPaused: boolean;
    readonly isInRecoveryMode: boolean;
    readonly totalLiquidity: string;
    readonly aggregateSwapFee: string;
    readonly aggregateYieldFee: string;
  };
}

/** What a pool's view needs of its snapshot: the other pools by address, tokens, buffers. */
export interface PoolLookup {
  readonly chainId: number;
  poolByAddress(address: string): StoredPool | undefined;
  token(
    address: string,
  ): { readonly name: string | null; readonly symbol: string | null; readonly decimals: number } | undefined;
  /** The underlying token of an ERC-4626 token the V3 Vault buffers; undefined for any other. */
  underlyingOf(address: string): string | undefined;
  /** Whether the buffer of that token swaps (not paused). */
  bufferAllowed(address: string): boolean;
}

/** The concrete type of `GqlPoolBase` per `GqlPoolType`. */
const CONCRETE: Readonly<Record<string, string>> = {
  WEIGHTED: 'GqlPoolWeighted',
  INVESTMENT: 'GqlPoolWeighted',
  LIQUIDITY_BOOTSTRAPPING: 'GqlPoolLiquidityBootstrapping',
  FIXED_LBP: 'GqlPoolLiquidityBootstrapping',
  STABLE: 'GqlPoolStable',
  META_STABLE: 'GqlPoolMetaStable',
  PHANTOM_STABLE: 'GqlPoolComposableStable',
  COMPOSABLE_STABLE: 'GqlPoolComposableStable',
  ELEMENT: 'GqlPoolElement',
  GYRO: 'GqlPoolGyro',
  GYRO3: 'GqlPoolGyro',
  GYROE: 'GqlPoolGyro',
  FX: 'GqlPoolFx',
};

export const CONCRETE_POOL_TYPES = [...new Set([...Object.values(CONCRETE), 'GqlPoolOther'])];

export function apiToken(lookup: PoolLookup, address: string): ApiToken {
  const t = lookup.token(address);
  const underlying = lookup.underlyingOf(address);
  return {
    address,
    name: t?.name ?? '',
    symbol: t?.symbol ?? '',
    decimals: t?.decimals ?? 18,
    chainId: lookup.chainId,
    chain: balancerApiChainName(lookup.chainId) ?? 'HARDHAT',
    priority: 0,
    tradable: true,
    isErc4626: underlying !== undefined,
    underlyingTokenAddress: underlying ?? null,
    isBufferAllowed: underlying !== undefined && lookup.bufferAllowed(address),
  };
}

function poolTokens(pool: StoredPool, lookup: PoolLookup, nest: boolean): ApiPoolToken[] {
  return pool.tokens.map((t, index) => {
    const nested = lookup.poolByAddress(t.address);
    const underlying = lookup.underlyingOf(t.address);
    const nestedPool =
      nest && nested
        ? {
            id: nested.id,
            address: nested.address,
            type: apiPoolType(nested.poolType),
            tokens: poolTokens(nested, lookup, false),
          }
        : null;
    return {
      id: `${pool.id}-${t.address}`,
      index,
      address: t.address,
      name: t.name ?? lookup.token(t.address)?.name ?? '',
      symbol: t.symbol ?? lookup.token(t.address)?.symbol ?? '',
      decimals: t.decimals,
      balance: t.balance,
      priceRate: t.priceRate,
      weight: t.weight,
      hasNestedPool: nested !== undefined && nested.id !== pool.id,
      nestedPool,
      isErc4626: underlying !== undefined,
      underlyingToken: underlying === undefined ? null : apiToken(lookup, underlying),
    };
  });
}

export function apiPool(pool: StoredPool, lookup: PoolLookup): ApiPool {
  const minimal = apiPoolMinimal(pool, lookup.chainId);
  return {
    ...minimal,
    __typename: CONCRETE[minimal.type] ?? 'GqlPoolOther',
    poolTokens: poolTokens(pool, lookup, true),
    dynamicData: {
      poolId: pool.id,
      swapFee: pool.swapFee,
      totalShares: pool.totalShares,
      totalSupply: pool.totalShares,
      swapEnabled: pool.swapEnabled,
      isPaused: pool.isPaused,
      isInRecoveryMode: pool.isInRecoveryMode,
      totalLiquidity: pool.totalLiquidity ?? '0',
      aggregateSwapFee: pool.v3?.aggregateSwapFee ?? '0',
      aggregateYieldFee: pool.v3?.aggregateYieldFee ?? '0',
    },
  };
}
