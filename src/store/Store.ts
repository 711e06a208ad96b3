import type { ChainMeta, JobRecord, PoolHistoryPoint, StoredPool, StoredToken } from '../domain/pool';

/**
 * The only way to persistence. Both adapters (`SqliteStore`, `FirestoreStore`) pass the same
 * contract suite in `test/store/`. Times are passed in (no clock reads here) so leases can be
 * tested with an injected clock.
 */

/** One all-or-nothing change to a chain's data. */
export interface ChainChange {
  readonly pools?: readonly StoredPool[];
  readonly deletePoolIds?: readonly string[];
  readonly tokens?: readonly StoredToken[];
  readonly history?: readonly PoolHistoryPoint[];
  readonly bumpPoolsVersion?: boolean;
  readonly bumpTokensVersion?: boolean;
  /** Job bookkeeping merged into the chain meta. */
  readonly jobs?: Readonly<Record<string, JobRecord>>;
  /**
   * Optimistic concurrency: apply the change only if the chain's `poolsVersion` still equals this
   * (the version the caller read its pools at); otherwise `VersionConflict` and nothing is written.
   * Jobs that rewrite whole pools (update, decoration) use it so one never rolls back the other.
   */
  readonly ifPoolsVersion?: number;
}

export interface HistoryQuery {
  readonly poolId?: string;
  /** Unix seconds, inclusive. */
  readonly from: number;
  /** Unix seconds, inclusive. */
  readonly to: number;
}

export interface LeaseRequest {
  /** Chain id as a string, or `global` for jobs that span chains. */
  readonly scope: string;
  readonly job: string;
  readonly owner: string;
  readonly ttlMs: number;
  readonly nowMs: number;
}

/** Who holds a lease, since when, and until when unless renewed (unix ms, the callers' clock). */
export interface LeaseInfo {
  readonly owner: string;
  readonly acquiredAtMs: number;
  readonly expiresAtMs: number;
}

export type Unsubscribe = () => void;

/**
 * What changed in a chain's pools since a version the caller holds: applying it to the pools the
 * caller read at that version gives the store's current pools.
 */
export interface PoolChanges {
  /** The chain's `poolsVersion` the caller holds once it has applied the changes. */
  readonly version: number;
  /** Pools written since (their current contents); may include pools whose contents are unchanged. */
  readonly pools: readonly StoredPool[];
  /** Ids of pools deleted since and not written again. */
  readonly deletedIds: readonly string[];
  /** How many pools the chain holds now, when the store can say so cheaply (a consistency check). */
  readonly total?: number;
}

export interface Store {
  readonly kind: 'sqlite' | 'firestore';
  getMeta(chainId: number): Promise<ChainMeta>;
  listPools(chainId: number): Promise<StoredPool[]>;
  getPool(chainId: number, id: string): Promise<StoredPool | undefined>;
  /**
   * The pools written and deleted since `sinceVersion` (writes of commits that did not bump the
   * version included), or undefined when the store cannot say (a version older than its change
   * record, or newer than the chain's): the caller then reads every pool with `listPools`.
   */
  listPoolChanges(chainId: number, sinceVersion: number): Promise<PoolChanges | undefined>;
  listTokens(chainId: number): Promise<StoredToken[]>;
  /** Applies the change atomically: on failure nothing of it is visible. Returns the new meta. */
  commit(chainId: number, change: ChainChange): Promise<ChainMeta>;
  readHistory(chainId: number, query: HistoryQuery): Promise<PoolHistoryPoint[]>;
  /** Deletes history points older than `beforeTimestamp` (unix seconds); returns how many. */
  pruneHistory(chainId: number, beforeTimestamp: number): Promise<number>;
  /** True when the caller now holds the lease (it was absent, expired, or already the caller's). */
  acquireLease(req: LeaseRequest): Promise<boolean>;
  /** Extends the caller's lease; false when it is no longer the caller's. */
  renewLease(req: LeaseRequest): Promise<boolean>;
  releaseLease(scope: string, job: string, owner: string): Promise<void>;
  /** The lease as stored (it may have expired), or undefined when there is none. */
  readLease(scope: string, job: string): Promise<LeaseInfo | undefined>;
  /** Called with the new meta whenever the chain's meta changes (also from other processes). */
  onMetaChange(chainId: number, listener: (meta: ChainMeta) => void): Unsubscribe;
  /** Resolves when the store answers; rejects otherwise (for `/readyz`). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/** Firestore's limit on one document; both adapters refuse larger ones before writing anything. */
export const MAX_DOCUMENT_BYTES = 1_000_000;

export class StoreError extends Error {
  override readonly name: string = 'StoreError';
}

/** The chain's pools changed since the caller read them (`ChainChange.ifPoolsVersion`). */
export class VersionConflict extends StoreError {
  override readonly name: string = 'VersionConflict';
  constructor(chainId: number, expected: number, actual: number) {
    super(`pools of chain ${chainId} changed meanwhile (version ${actual}, expected ${expected}); nothing was written`);
  }
}

export function checkDocumentSize(kind: string, id: string, json: string): void {
  if (Buffer.byteLength(json) > MAX_DOCUMENT_BYTES) {
    throw new StoreError(
      `${kind} ${id} is ${Buffer.byteLength(json)} bytes, over the ${MAX_DOCUMENT_BYTES}-byte document limit`,
    );
  }
}
