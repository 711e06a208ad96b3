import type { ChainMeta, StoredPool } from '../domain/pool';
import { ChainChange, Store, VersionConflict } from '../store/Store';

/**
 * Jobs that rewrite whole pools (pool update, decoration) run under different leases and may
 * overlap. Each builds its change from the pools as stored and commits it only if they are still
 * that version; if another job committed meanwhile, the pools are read again and the change built
 * again, so neither job ever rolls back the other's fields.
 */
export const COMMIT_ATTEMPTS = 3;

export interface PoolsAt {
  readonly version: number;
  readonly pools: readonly StoredPool[];
}

/**
 * The chain's stored pools and their version. `held`: the pools as the caller already holds them
 * (the read model's, `ReadModel.storePools`), taken when they are the store's current version:
 * every pool write moves the version, so they are then exactly what the store would list, without
 * reading every document again.
 */
export async function readPoolsAt(
  store: Store,
  chainId: number,
  held?: { readonly version: number; readonly pools: readonly StoredPool[] },
): Promise<PoolsAt> {
  // Meta first: pools read after it are at least that version, so a commit conditional on it
  // can only be refused, never applied over newer pools.
  const meta = await store.getMeta(chainId);
  if (held?.version === meta.poolsVersion) return { version: meta.poolsVersion, pools: held.pools };
  return { version: meta.poolsVersion, pools: await store.listPools(chainId) };
}

/**
 * `build` turns the current pools into a change (null: nothing to write). Returns the new meta,
 * or null when nothing was written.
 */
export async function commitOnCurrentPools(
  store: Store,
  chainId: number,
  build: (current: PoolsAt) => Promise<ChainChange | null> | ChainChange | null,
  options: {
    readonly first?: PoolsAt;
    readonly signal?: AbortSignal;
    /** How the pools are read (again, after a conflict); default every stored pool. */
    readonly read?: () => Promise<PoolsAt>;
    /** For the default read: the pools the caller holds, used when they are the store's version. */
    readonly held?: () => PoolsAt | undefined;
  } = {},
): Promise<ChainMeta | null> {
  const read = options.read ?? (() => readPoolsAt(store, chainId, options.held?.()));
  let current = options.first ?? (await read());
  for (let attempt = 1; ; attempt++) {
    const change = await build(current);
    if (change === null) return null;
    // Losing the lease mid-run means another instance may be writing: do not commit over it.
    options.signal?.throwIfAborted();
    try {
      return await store.commit(chainId, { ...change, ifPoolsVersion: current.version });
    } catch (e) {
      if (!(e instanceof VersionConflict) || attempt >= COMMIT_ATTEMPTS) throw e;
      current = await read();
    }
  }
}
