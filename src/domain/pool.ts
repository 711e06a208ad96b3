import type { Address } from './address';
import type {
  ComposableStableStoredTokenParams,
  StablePhantomStoredParams,
} from './poolTypes/composableStable/composableStableParams';
import type { ElementStoredParams } from './poolTypes/element/elementParams';
import type { GyroParams } from './poolTypes/gyro/gyroParams';
import type { StoredV3VaultState } from './protocols/v3/stored/storedV3';
import type { LinearStoredParams } from './poolTypes/linear/linearParams';
import type { LegacyFeeBasisStoredParams } from './poolTypes/legacyFeeBasis';
import type { ManagedStoredParams, WeightedFeeStoredParams } from './poolTypes/weighted/weightedParams';
import type { QuantAmmStoredParams } from './poolTypes/quantAmm/v3/quantAmmV3Params';
import type { ReClammStoredParams } from './poolTypes/reClamm/v3/reClammV3Params';
/**
 * The one stored shape of a pool and a token, shared by the store, the jobs, the read model,
 * routing and GraphQL. Amounts are canonical plain decimal strings (see `decimal.ts`); token
 * balances are in human units with at most `decimals` fraction digits, so they are exact integers
 * in smallest units.
 */

/** What every stored token has. */
export interface StoredPoolTokenCore {
  readonly address: Address;
  readonly symbol: string | null;
  readonly name: string | null;
  readonly decimals: number;
  readonly balance: string;
  readonly weight: string | null;
  readonly priceRate: string;
}

/** The built-in pool types' own stored token parameters (`tokenParams`), typed from their field lists. */
export type StoredTokenParams = ComposableStableStoredTokenParams;

export type StoredPoolToken = StoredPoolTokenCore & StoredTokenParams;

/** The Balancer protocols; each has its own Vault (`config/chains.ts` `vaultOf`). */
export type ProtocolVersion = 2 | 3;

export interface AprBreakdown {
  readonly swapFees: number;
  readonly tokenAprs: { readonly total: number; readonly breakdown: Readonly<Record<string, number>> };
  readonly stakingApr: { readonly min: number; readonly max: number };
  readonly rewardAprs: { readonly total: number; readonly breakdown: Readonly<Record<string, number>> };
  readonly protocolApr: number;
  readonly min: number;
  readonly max: number;
}

/** The built-in pool types' own stored parameters, typed from their field lists. */
export type StoredTypeParams = ElementStoredParams &
  LinearStoredParams &
  ManagedStoredParams &
  WeightedFeeStoredParams &
  StablePhantomStoredParams &
  LegacyFeeBasisStoredParams &
  ReClammStoredParams &
  QuantAmmStoredParams;

/**
 * Fields the subgraph owns; the pool-update job writes these. Beside the fields every pool has,
 * each pool type's own parameters, as its folder under `poolTypes/` declares them (element,
 * linear, managed, composable stable fee basis); every pool stores every parameter it is given,
 * whatever its type (normalizePool.ts).
 */
export interface PoolCore extends StoredTypeParams {
  readonly id: string;
  readonly address: Address;
  readonly poolType: string;
  readonly poolTypeVersion: number;
  /** The Balancer protocol whose Vault holds the pool: 2 for every pool of the V2 subgraph. */
  readonly protocolVersion: ProtocolVersion;
  readonly factory: string | null;
  readonly owner: string | null;
  readonly symbol: string | null;
  readonly name: string | null;
  readonly swapFee: string;
  readonly swapEnabled: boolean;
  readonly isPaused: boolean;
  readonly isInRecoveryMode: boolean;
  readonly amp: string | null;
  readonly totalShares: string;
  readonly totalWeight: string;
  readonly totalSwapVolume: string;
  readonly totalSwapFee: string;
  readonly createTime: number | null;
  readonly swapsCount: string | null;
  readonly holdersCount: string | null;
  readonly tokens: readonly StoredPoolToken[];
  readonly tokensList: readonly string[];
  readonly priceRateProviders: readonly { readonly address: string; readonly token: string }[];
  /**
   * What the V3 Vault holds for a V3 pool beyond the fields above (aggregate fees, yield fee
   * basis, hook): `protocols/v3/stored/storedV3.ts`; absent for V2 pools.
   */
  readonly v3?: StoredV3VaultState;
  /** Gyro pools (2-CLP, 3-CLP, E-CLP); null for every other type. */
  readonly gyro: GyroParams | null;
  /** Liquidity the subgraph reported (USD); used until decoration computes our own. */
  readonly subgraphLiquidity: string | null;
  /** False when every balance is zero: such a pool must never reach the router. */
  readonly routable: boolean;
}

/** Fields the decoration job owns; the pool-update job carries them over untouched. */
export interface PoolDecoration {
  readonly totalLiquidity?: string;
  readonly volumeSnapshot?: string;
  readonly feesSnapshot?: string;
  /** True when the 24 h deltas were scaled from a shorter history. */
  readonly snapshotExtrapolated?: boolean;
  readonly apr?: AprBreakdown;
  readonly maxApr?: number;
  readonly isNew?: boolean;
  readonly decoratedAt?: number;
}

export type StoredPool = PoolCore & PoolDecoration;

export const DECORATION_FIELDS = [
  'totalLiquidity',
  'volumeSnapshot',
  'feesSnapshot',
  'snapshotExtrapolated',
  'apr',
  'maxApr',
  'isNew',
  'decoratedAt',
] as const satisfies readonly (keyof PoolDecoration)[];

export interface StoredToken {
  readonly address: Address;
  readonly symbol: string | null;
  readonly name: string | null;
  readonly decimals: number;
  /** Price of one token in the chain's native asset (decimal string); null until priced. */
  readonly price: string | null;
  readonly priceUsd: string | null;
  /** Unix milliseconds of the last price update. */
  readonly lastUpdate: number | null;
  readonly noPriceData: boolean;
}

/** One point of a pool's history, bucketed hourly in the store (latest point of the hour wins). */
export interface PoolHistoryPoint {
  readonly poolId: string;
  /** Unix seconds. */
  readonly timestamp: number;
  readonly totalSwapVolume: string;
  readonly totalSwapFee: string;
  readonly totalShares: string;
  /** Token address -> priceRate at that time. */
  readonly priceRates: Readonly<Record<string, string>>;
}

export const HISTORY_BUCKET_SECONDS = 3600;
export const HISTORY_RETENTION_SECONDS = 8 * 24 * 3600;

export function historyBucket(timestamp: number): number {
  return Math.floor(timestamp / HISTORY_BUCKET_SECONDS);
}

export interface JobRecord {
  /** Unix milliseconds. */
  readonly lastRunAt: number;
  readonly lastSuccessAt: number | null;
  readonly lastError: string | null;
  /**
   * Pool update only: the block the subgraph had indexed when the run began, from which the next
   * run asks only for pools changed since (src/jobs/updatePools.ts).
   */
  readonly subgraphBlock?: number;
  /** Pool update only: unix ms of the last run that read every pool. */
  readonly lastFullAt?: number;
}

export interface ChainMeta {
  readonly chainId: number;
  readonly poolsVersion: number;
  readonly tokensVersion: number;
  readonly jobs: Readonly<Record<string, JobRecord>>;
}

export function emptyMeta(chainId: number): ChainMeta {
  return { chainId, poolsVersion: 0, tokensVersion: 0, jobs: {} };
}

/** Keeps the decoration of `previous` on a freshly normalized pool. */
export function carryDecoration(core: PoolCore, previous: StoredPool | undefined): StoredPool {
  if (!previous) return core;
  const out: Record<string, unknown> = { ...core };
  for (const f of DECORATION_FIELDS) if (previous[f] !== undefined) out[f] = previous[f];
  return out as unknown as StoredPool;
}
