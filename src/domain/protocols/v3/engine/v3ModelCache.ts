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
 * changed) and its type does not price with the timestamp (`PoolTypeDef.timeDependent`); a
 * buffer's while its stored object and decimals are. Both also need the same Vault limits.
 */
export class V3ModelCache {
  private readonly pools = new WeakMap<
    StoredPool,
    { readonly limits: V3VaultLimits | undefined; readonly kept: KeptPoolModel }
  >();
  private readonly buffers = new WeakMap<
    StoredBuffer,
    { readonly limits: V3VaultLimits | undefined; readonly decimals: string; readonly model: PoolModel }
  >();

  pool(pool: StoredPool, limits: V3VaultLimits | undefined): KeptPoolModel | undefined {
    const entry = this.pools.get(pool);
    return entry !== undefined && entry.limits === limits ? entry.kept : undefined;
  }

  keepPool(pool: StoredPool, limits: V3VaultLimits | undefined, kept: KeptPoolModel): void {
    if (poolTypeDef(pool.poolType, 3)?.timeDependent === false) this.pools.set(pool, { limits, kept });
  }

  buffer(stored: StoredBuffer, limits: V3VaultLimits | undefined, decimals: string): PoolModel | undefined {
    const entry = this.buffers.get(stored);
    return entry !== undefined && entry.limits === limits && entry.decimals === decimals ? entry.model : undefined;
  }

  keepBuffer(stored: StoredBuffer, limits: V3VaultLimits | undefined, decimals: string, model: PoolModel): void {
    this.buffers.set(stored, { limits, decimals, model });
  }
}
