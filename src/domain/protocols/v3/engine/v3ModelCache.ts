import type { StoredPool } from '../../../pool';
import { poolTypeDef } from '../../../poolTypes/registry';
import type { PoolModel } from '../../../swap/poolModel';
import type { StoredBuffer } from '../stored/storedV3';
import type { V3VaultLimits } from '../vault/limits';

export type KeptPoolModel =
  { readonly model: PoolModel } | { readonly skipped: { readonly id: string; readonly reason: string } };

/**
 * Models kept across universes, so a new block rebuilds only what it changed. A pool's model is
 * kept while its stored object is the same (the read model keeps the object of a pool no block
 * changed) and, for a type that prices with the timestamp (`PoolTypeDef.timeDependent`), while
 * the pricing timestamp is the same too; a buffer's while its stored object and decimals are.
 * Both also need the same Vault limits.
 */
export class V3ModelCache {
  private readonly pools = new WeakMap<
    StoredPool,
    {
      readonly limits: V3VaultLimits | undefined;
      /** The timestamp a time-dependent model was built at; undefined for one that holds at any time. */
      readonly timestamp: bigint | undefined;
      readonly kept: KeptPoolModel;
    }
  >();
  private readonly buffers = new WeakMap<
    StoredBuffer,
    { readonly limits: V3VaultLimits | undefined; readonly decimals: string; readonly model: PoolModel }
  >();

  pool(pool: StoredPool, limits: V3VaultLimits | undefined, timestamp: bigint): KeptPoolModel | undefined {
    const entry = this.pools.get(pool);
    if (entry === undefined || entry.limits !== limits) return undefined;
    return entry.timestamp === undefined || entry.timestamp === timestamp ? entry.kept : undefined;
  }

  keepPool(pool: StoredPool, limits: V3VaultLimits | undefined, timestamp: bigint, kept: KeptPoolModel): void {
    const timed = poolTypeDef(pool.poolType, 3)?.timeDependent;
    if (timed === undefined) return;
    this.pools.set(pool, { limits, timestamp: timed ? timestamp : undefined, kept });
  }

  buffer(stored: StoredBuffer, limits: V3VaultLimits | undefined, decimals: string): PoolModel | undefined {
    const entry = this.buffers.get(stored);
    return entry !== undefined && entry.limits === limits && entry.decimals === decimals ? entry.model : undefined;
  }

  keepBuffer(stored: StoredBuffer, limits: V3VaultLimits | undefined, decimals: string, model: PoolModel): void {
    this.buffers.set(stored, { limits, decimals, model });
  }
}
