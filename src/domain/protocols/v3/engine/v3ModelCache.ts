import type { StoredPool } from '../../../pool';
import { poolTypeDef } from '../../../poolTypes/registry';
import { v3PricingTime } from '../../../poolTypes/v3PoolOf';
import type { PoolModel } from '../../../swap/poolModel';
import { v3PoolStateOf } from '../stored/v3PoolState';
import type { StoredBuffer } from '../stored/storedV3';
import type { V3PoolState } from '../vault/poolState';
import type { V3VaultLimits } from '../vault/limits';

export type KeptPoolModel =
  { readonly model: PoolModel } | { readonly skipped: { readonly id: string; readonly reason: string } };

interface PoolEntry {
  readonly limits: V3VaultLimits | undefined;
  /** The time a time-dependent model was built at (`v3PricingTime`); undefined for one that holds at any time. */
  readonly at: bigint | undefined;
  readonly kept: KeptPoolModel;
}

/**
 * Pricing times kept per stored pool: the current block's and the next one's, built ahead while
 * the threads are idle (`V3Router.prepare`), and one more for a quote still on the block before.
 */
const TIMES_PER_POOL = 3;

/**
 * Models kept across universes, so a new block rebuilds only what it changed. A pool's model is
 * kept while its stored object is the same (the read model keeps the object of a pool no block
 * changed) and, for a type that prices with the timestamp (`PoolTypeDef.timeDependent`), while
 * its pricing time is the same too: the time its type builds the math at for the block
 * (`V3TypeMath.pricingTime`), which stays put while nothing moves with time (a ReClamm pool at
 * rest, an LBP outside its sale). A buffer's model is kept while its stored object and decimals
 * are. Both also need the same Vault limits.
 */
export class V3ModelCache {
  private readonly pools = new WeakMap<StoredPool, PoolEntry[]>();
  private readonly vaultStates = new WeakMap<StoredPool, V3PoolState | undefined>();
  /** Per time-dependent stored pool, the pricing times of the last few timestamps asked. */
  private readonly times = new WeakMap<StoredPool, { readonly timestamp: bigint; readonly at: bigint | undefined }[]>();
  private readonly buffers = new WeakMap<
    StoredBuffer,
    { readonly limits: V3VaultLimits | undefined; readonly decimals: string; readonly model: PoolModel }
  >();

  /**
   * The time the pool's math is built at for a block at `timestamp`; undefined for a pool whose
   * model holds at any time. Its Vault state is read once per stored object.
   */
  pricingTime(pool: StoredPool, timestamp: bigint): bigint | undefined {
    if (poolTypeDef(pool.poolType, 3)?.timeDependent !== true) return undefined;
    const known = this.times.get(pool);
    const hit = known?.find((k) => k.timestamp === timestamp);
    if (hit) return hit.at;
    const at = this.timeOf(pool, timestamp);
    this.times.set(pool, [{ timestamp, at }, ...(known ?? []).slice(0, TIMES_PER_POOL - 1)]);
    return at;
  }

  private timeOf(pool: StoredPool, timestamp: bigint): bigint | undefined {
    let vaultState = this.vaultStates.get(pool);
    if (vaultState === undefined && !this.vaultStates.has(pool)) {
      try {
        vaultState = v3PoolStateOf(pool);
      } catch {
        // Malformed: the build tells why and leaves the pool out; no time to keep it by.
        return timestamp;
      }
      this.vaultStates.set(pool, vaultState);
    }
    try {
      return v3PricingTime(pool, timestamp, vaultState);
    } catch {
      return timestamp;
    }
  }

  pool(pool: StoredPool, limits: V3VaultLimits | undefined, timestamp: bigint): KeptPoolModel | undefined {
    const entries = this.pools.get(pool);
    if (entries === undefined) return undefined;
    const at = this.pricingTime(pool, timestamp);
    return entries.find((e) => e.limits === limits && e.at === at)?.kept;
  }

  keepPool(pool: StoredPool, limits: V3VaultLimits | undefined, timestamp: bigint, kept: KeptPoolModel): void {
    // A type not carried may be registered later: its pools are not kept as skipped.
    if (poolTypeDef(pool.poolType, 3) === undefined) return;
    const at = this.pricingTime(pool, timestamp);
    const entries = (this.pools.get(pool) ?? []).filter((e) => e.limits !== limits || e.at !== at);
    entries.unshift({ limits, at, kept });
    if (entries.length > TIMES_PER_POOL) entries.length = TIMES_PER_POOL;
    this.pools.set(pool, entries);
  }

  buffer(stored: StoredBuffer, limits: V3VaultLimits | undefined, decimals: string): PoolModel | undefined {
    const entry = this.buffers.get(stored);
    return entry !== undefined && entry.limits === limits && entry.decimals === decimals ? entry.model : undefined;
  }

  keepBuffer(stored: StoredBuffer, limits: V3VaultLimits | undefined, decimals: string, model: PoolModel): void {
    this.buffers.set(stored, { limits, decimals, model });
  }
}
