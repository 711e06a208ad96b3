import type { DocumentReference, DocumentSnapshot, Firestore, WriteBatch } from '@google-cloud/firestore';
import {
  ChainMeta,
  emptyMeta,
  historyBucket,
  JobRecord,
  PoolHistoryPoint,
  StoredPool,
  StoredToken,
} from '../domain/pool';
import { TokenBucket } from './rateBudget';
import {
  ChainChange,
  checkDocumentSize,
  HistoryQuery,
  LeaseInfo,
  LeaseRequest,
  PoolChanges,
  Store,
  StoreError,
  Unsubscribe,
  VersionConflict,
} from './Store';

/**
 * Cloud store on Firestore (the contract both stores keep: docs/ARCHITECTURE.md, "The store contract"):
 *   chains/{chainId}                      meta: poolsVersion, tokensVersion, jobs
 *   chains/{chainId}/pools/{poolId}         the pool, plus `writtenAtVersion`
 *   chains/{chainId}/poolTombstones/{poolId} `writtenAtVersion` of the pool's deletion
 *   chains/{chainId}/tokens/{address}
 *   chains/{chainId}/poolSnapshots/{poolId}_{hourBucket}
 *   chains/{scope}/leases/{job}
 *
 * A change larger than one batch (500 writes) cannot be one Firestore transaction, so `commit`
 * writes batches in order with the meta (version bump) last, and if a batch fails it writes the
 * documents' previous contents back. Readers only reload on a version bump, so they never see a
 * half-applied change.
 *
 * Pool changes since a version (`listPoolChanges`) are the pools and tombstones whose
 * `writtenAtVersion` (the version before their commit + 1) is newer; the meta's `changesFrom` is the
 * oldest version they can answer from. A writer that does not know these fields replaces the meta
 * without `changesFrom`, so readers fall back to reading every pool until the next commit here.
 * Documents a failed commit puts back are stamped anew, so a reader that saw them mid-commit
 * reads them again.
 */
export interface FirestoreBudgets {
  readonly poolsRead: TokenBucket;
  readonly poolsWrite: TokenBucket;
  readonly tokensRead: TokenBucket;
  readonly tokensWrite: TokenBucket;
}

const BATCH_LIMIT = 500;
const GET_ALL_CHUNK = 300;
/** Stamp on pool and tombstone documents; never part of a `StoredPool`. */
const VERSION_FIELD = 'writtenAtVersion';
/** A count aggregation costs one read per this many index entries. */
const COUNT_ENTRIES_PER_READ = 1000;

type Op = {
  ref: DocumentReference;
  /** null deletes the document. */
  data: Record<string, unknown> | null;
  bucket: TokenBucket;
  /** Write only if the document is unchanged since this read (`create` when it did not exist). */
  unchangedSince?: DocumentSnapshot;
  /** The pool a pool document's write or deletion is for. */
  poolId?: string;
};

function poolFrom(data: Record<string, unknown>): StoredPool {
  const { [VERSION_FIELD]: _stamp, ...pool } = data;
  return pool as unknown as StoredPool;
}

export class FirestoreStore implements Store {
  readonly kind = 'firestore' as const;

  constructor(
    private readonly db: Firestore,
    private readonly budgets: FirestoreBudgets,
    /** Tombstones older than this many versions are pruned; readers further behind read everything. */
    private readonly changeVersionsKept = 10_000,
  ) {}

  private chain(chainId: number | string): DocumentReference {
    return this.db.collection('chains').doc(String(chainId));
  }

  private static metaFrom(chainId: number, snap: DocumentSnapshot): ChainMeta {
    if (!snap.exists) return emptyMeta(chainId);
    const d = snap.data() as { poolsVersion?: number; tokensVersion?: number; jobs?: Record<string, JobRecord> };
    return { chainId, poolsVersion: d.poolsVersion ?? 0, tokensVersion: d.tokensVersion ?? 0, jobs: d.jobs ?? {} };
  }

  async getMeta(chainId: number): Promise<ChainMeta> {
    await this.budgets.poolsRead.take(1);
    return FirestoreStore.metaFrom(chainId, await this.chain(chainId).get());
  }

  async listPools(chainId: number): Promise<StoredPool[]> {
    const snap = await this.chain(chainId).collection('pools').get();
    await this.budgets.poolsRead.take(snap.size);
    return snap.docs.map((d) => poolFrom(d.data()));
  }

  async getPool(chainId: number, id: string): Promise<StoredPool | undefined> {
    await this.budgets.poolsRead.take(1);
    const snap = await this.chain(chainId).collection('pools').doc(id.toLowerCase()).get();
    return snap.exists ? poolFrom(snap.data()!) : undefined;
  }

  async listPoolChanges(chainId: number, sinceVersion: number): Promise<PoolChanges | undefined> {
    const chainRef = this.chain(chainId);
    await this.budgets.poolsRead.take(1);
    const metaSnap = await chainRef.get();
    if (!metaSnap.exists) return sinceVersion === 0 ? { version: 0, pools: [], deletedIds: [], total: 0 } : undefined;
    const version = FirestoreStore.metaFrom(chainId, metaSnap).poolsVersion;
    const changesFrom = (metaSnap.data() as { changesFrom?: unknown }).changesFrom;
    if (typeof changesFrom !== 'number' || sinceVersion < changesFrom || sinceVersion > version) return undefined;
    const [written, tombstones, count] = await Promise.all([
      chainRef.collection('pools').where(VERSION_FIELD, '>', sinceVersion).get(),
      chainRef.collection('poolTombstones').where(VERSION_FIELD, '>', sinceVersion).get(),
      chainRef.collection('pools').count().get(),
    ]);
    const total = count.data().count;
    await this.budgets.poolsRead.take(
      Math.max(1, written.size) + Math.max(1, tombstones.size) + Math.max(1, Math.ceil(total / COUNT_ENTRIES_PER_READ)),
    );
    const pools = written.docs.map((d) => poolFrom(d.data()));
    const ids = new Set(pools.map((p) => p.id));
    const deletedIds = tombstones.docs.map((d) => d.id).filter((id) => !ids.has(id));
    return { version, pools, deletedIds, total };
  }

  async listTokens(chainId: number): Promise<StoredToken[]> {
    const snap = await this.chain(chainId).collection('tokens').get();
    await this.budgets.tokensRead.take(snap.size);
    return snap.docs.map((d) => d.data() as StoredToken);
  }

  async commit(chainId: number, change: ChainChange): Promise<ChainMeta> {
    const chainRef = this.chain(chainId);
    const beforeSnap = await chainRef.get();
    const before = FirestoreStore.metaFrom(chainId, beforeSnap);
    if (change.ifPoolsVersion !== undefined && before.poolsVersion !== change.ifPoolsVersion) {
      throw new VersionConflict(chainId, change.ifPoolsVersion, before.poolsVersion);
    }
    const stamp = before.poolsVersion + 1;
    const ops: Op[] = [];
    for (const p of change.pools ?? []) {
      checkDocumentSize('pool', p.id, JSON.stringify(p));
      ops.push({
        ref: chainRef.collection('pools').doc(p.id),
        data: { ...plainObject(p), [VERSION_FIELD]: stamp },
        bucket: this.budgets.poolsWrite,
        poolId: p.id,
      });
    }
    for (const id of change.deletePoolIds ?? []) {
      ops.push({ ref: chainRef.collection('pools').doc(id), data: null, bucket: this.budgets.poolsWrite, poolId: id });
      ops.push({
        ref: chainRef.collection('poolTombstones').doc(id),
        data: { [VERSION_FIELD]: stamp },
        bucket: this.budgets.poolsWrite,
      });
    }
    for (const t of change.tokens ?? []) {
      checkDocumentSize('token', t.address, JSON.stringify(t));
      ops.push({
        ref: chainRef.collection('tokens').doc(t.address),
        data: plainObject(t),
        bucket: this.budgets.tokensWrite,
      });
    }
    for (const h of change.history ?? []) {
      const bucket = historyBucket(h.timestamp);
      ops.push({
        ref: chainRef.collection('poolSnapshots').doc(`${h.poolId}_${bucket}`),
        data: { ...plainObject(h), bucket },
        bucket: this.budgets.poolsWrite,
      });
    }

    const previous = await this.readPrevious(ops.map((o) => o.ref));
    // A new chain has every change recorded; one last written without stamps, those from here on.
    const recorded = (beforeSnap.data() as { changesFrom?: unknown } | undefined)?.changesFrom;
    let changesFrom = !beforeSnap.exists ? 0 : typeof recorded === 'number' ? recorded : stamp;
    const prune = (change.deletePoolIds?.length ?? 0) > 0 ? await this.oldTombstones(chainRef, stamp) : [];
    // A reader behind the newest pruned tombstone could miss that deletion.
    for (const t of prune) changesFrom = Math.max(changesFrom, t.get(VERSION_FIELD) as number);
    const meta: ChainMeta = {
      chainId,
      poolsVersion: before.poolsVersion + (change.bumpPoolsVersion ? 1 : 0),
      tokensVersion: before.tokensVersion + (change.bumpTokensVersion ? 1 : 0),
      jobs: { ...before.jobs, ...(change.jobs ?? {}) },
    };

    const chunks: Op[][] = [];
    for (let i = 0; i < ops.length; i += BATCH_LIMIT) chunks.push(ops.slice(i, i + BATCH_LIMIT));
    const metaOp: Op = {
      ref: chainRef,
      data: { poolsVersion: meta.poolsVersion, tokensVersion: meta.tokensVersion, jobs: meta.jobs, changesFrom },
      bucket: this.budgets.poolsWrite,
      // The version bump is the last write; made conditional it fails (and the earlier batches are
      // restored) if another commit moved the chain after the check above.
      ...(change.ifPoolsVersion !== undefined ? { unchangedSince: beforeSnap } : {}),
    };
    const last = chunks[chunks.length - 1];
    if (last && last.length < BATCH_LIMIT) last.push(metaOp);
    else chunks.push([metaOp]);

    const written: Op[][] = [];
    try {
      for (const chunk of chunks) {
        await this.writeChunk(chunk);
        written.push(chunk);
      }
    } catch (e) {
      // A reader may have seen the failed writes under the version a winning commit has moved to
      // meanwhile (the usual failure is that conflict): the restored documents must be newer than
      // any version it holds, so they are stamped after the chain's version as it is now.
      const now = await chainRef.get().then(
        (m) => Number((m.data() as { poolsVersion?: number } | undefined)?.poolsVersion ?? before.poolsVersion),
        () => before.poolsVersion,
      );
      await this.restore(written.flat(), previous, chainRef, Math.max(stamp, now + 1));
      throw new StoreError(`firestore commit for chain ${chainId} failed and was rolled back: ${(e as Error).message}`);
    }
    // After the meta has raised `changesFrom` past them; left behind, they only cost storage.
    if (prune.length > 0) await this.deleteDocs(prune.map((t) => t.ref)).catch(() => undefined);
    return meta;
  }

  /** Tombstones older than the versions kept (checked only by commits that delete, which add them). */
  private async oldTombstones(chainRef: DocumentReference, stamp: number): Promise<DocumentSnapshot[]> {
    const snap = await chainRef
      .collection('poolTombstones')
      .where(VERSION_FIELD, '<=', stamp - this.changeVersionsKept)
      .get();
    await this.budgets.poolsRead.take(Math.max(1, snap.size));
    return snap.docs;
  }

  private async deleteDocs(refs: DocumentReference[]): Promise<void> {
    for (let i = 0; i < refs.length; i += BATCH_LIMIT) {
      const batch = this.db.batch();
      const chunk = refs.slice(i, i + BATCH_LIMIT);
      for (const ref of chunk) batch.delete(ref);
      await this.budgets.poolsWrite.take(chunk.length);
      await batch.commit();
    }
  }

  private async writeChunk(chunk: Op[]): Promise<void> {
    const batch: WriteBatch = this.db.batch();
    const perBucket = new Map<TokenBucket, number>();
    for (const op of chunk) {
      if (op.data === null) batch.delete(op.ref);
      else if (op.unchangedSince?.exists)
        batch.update(op.ref, op.data, { lastUpdateTime: op.unchangedSince.updateTime! });
      else if (op.unchangedSince) batch.create(op.ref, op.data);
      else batch.set(op.ref, op.data);
      perBucket.set(op.bucket, (perBucket.get(op.bucket) ?? 0) + 1);
    }
    for (const [bucket, n] of perBucket) await bucket.take(n);
    await batch.commit();
  }

  private async readPrevious(refs: DocumentReference[]): Promise<Map<string, Record<string, unknown> | null>> {
    const out = new Map<string, Record<string, unknown> | null>();
    for (let i = 0; i < refs.length; i += GET_ALL_CHUNK) {
      const chunk = refs.slice(i, i + GET_ALL_CHUNK);
      if (chunk.length === 0) continue;
      const snaps = await this.db.getAll(...chunk);
      await this.budgets.poolsRead.take(chunk.length);
      for (const s of snaps) out.set(s.ref.path, s.exists ? (s.data() as Record<string, unknown>) : null);
    }
    return out;
  }

  private async restore(
    written: Op[],
    previous: Map<string, Record<string, unknown> | null>,
    chainRef: DocumentReference,
    stamp: number,
  ): Promise<void> {
    const writes: { ref: DocumentReference; data: Record<string, unknown> | null }[] = [];
    for (const op of written) {
      if (!previous.has(op.ref.path)) continue; // the meta document: it was never changed
      const prev = previous.get(op.ref.path) ?? null;
      if (op.poolId === undefined) writes.push({ ref: op.ref, data: prev });
      else if (prev !== null) writes.push({ ref: op.ref, data: { ...prev, [VERSION_FIELD]: stamp } });
      else {
        writes.push({ ref: op.ref, data: null });
        writes.push({ ref: chainRef.collection('poolTombstones').doc(op.poolId), data: { [VERSION_FIELD]: stamp } });
      }
    }
    for (let i = 0; i < writes.length; i += BATCH_LIMIT) {
      const batch = this.db.batch();
      for (const w of writes.slice(i, i + BATCH_LIMIT)) {
        if (w.data === null) batch.delete(w.ref);
        else batch.set(w.ref, w.data);
      }
      await batch.commit();
    }
  }

  async readHistory(chainId: number, q: HistoryQuery): Promise<PoolHistoryPoint[]> {
    let query = this.chain(chainId)
      .collection('poolSnapshots')
      .where('timestamp', '>=', q.from)
      .where('timestamp', '<=', q.to);
    if (q.poolId !== undefined) query = query.where('poolId', '==', q.poolId);
    const snap = await query.get();
    await this.budgets.poolsRead.take(Math.max(1, snap.size));
    return snap.docs
      .map((d) => {
        const { bucket: _bucket, ...point } = d.data() as PoolHistoryPoint & { bucket: number };
        return point;
      })
      .sort((a, b) => a.timestamp - b.timestamp);
  }

  async pruneHistory(chainId: number, beforeTimestamp: number): Promise<number> {
    const snap = await this.chain(chainId).collection('poolSnapshots').where('timestamp', '<', beforeTimestamp).get();
    for (let i = 0; i < snap.docs.length; i += BATCH_LIMIT) {
      const batch = this.db.batch();
      const docs = snap.docs.slice(i, i + BATCH_LIMIT);
      for (const d of docs) batch.delete(d.ref);
      await this.budgets.poolsWrite.take(docs.length);
      await batch.commit();
    }
    return snap.size;
  }

  private lease(scope: string, job: string): DocumentReference {
    return this.chain(scope).collection('leases').doc(job);
  }

  async acquireLease(req: LeaseRequest): Promise<boolean> {
    const ref = this.lease(req.scope, req.job);
    const data = { owner: req.owner, expiresAt: req.nowMs + req.ttlMs, acquiredAt: req.nowMs };
    try {
      return await this.db.runTransaction(
        async (tx) => {
          const snap = await tx.get(ref);
          if (!snap.exists) {
            // create() fails if someone created it meanwhile, even where transactions do not isolate.
            tx.create(ref, data);
            return true;
          }
          const cur = snap.data() as { owner: string; expiresAt: number };
          if (cur.owner !== req.owner && cur.expiresAt > req.nowMs) return false;
          // Takeover of an expired (or own) lease: conditional on the version we just read.
          tx.update(ref, data, { lastUpdateTime: snap.updateTime! });
          return true;
        },
        { maxAttempts: 1 },
      );
    } catch (e) {
      const code = (e as { code?: number }).code;
      if (code === 6 /* ALREADY_EXISTS */ || code === 9 /* FAILED_PRECONDITION */ || code === 10 /* ABORTED */)
        return false;
      throw e;
    }
  }

  async renewLease(req: LeaseRequest): Promise<boolean> {
    const ref = this.lease(req.scope, req.job);
    const snap = await ref.get();
    if (!snap.exists || (snap.data() as { owner: string }).owner !== req.owner) return false;
    try {
      await ref.update({ expiresAt: req.nowMs + req.ttlMs }, { lastUpdateTime: snap.updateTime! });
      return true;
    } catch {
      return false;
    }
  }

  async releaseLease(scope: string, job: string, owner: string): Promise<void> {
    const ref = this.lease(scope, job);
    const snap = await ref.get();
    if (!snap.exists || (snap.data() as { owner: string }).owner !== owner) return;
    await ref.delete({ lastUpdateTime: snap.updateTime! }).catch(() => undefined);
  }

  async readLease(scope: string, job: string): Promise<LeaseInfo | undefined> {
    const snap = await this.lease(scope, job).get();
    if (!snap.exists) return undefined;
    const d = snap.data() as { owner: string; expiresAt: number; acquiredAt?: number };
    return { owner: d.owner, acquiredAtMs: d.acquiredAt ?? 0, expiresAtMs: d.expiresAt };
  }

  onMetaChange(chainId: number, listener: (meta: ChainMeta) => void): Unsubscribe {
    return this.chain(chainId).onSnapshot(
      (snap) => listener(FirestoreStore.metaFrom(chainId, snap)),
      // The client re-establishes listeners on transient errors; a terminal one is logged by the
      // read model's periodic version check instead.
      () => undefined,
    );
  }

  async ping(): Promise<void> {
    await this.db.collection('chains').limit(1).get();
  }

  async close(): Promise<void> {
    await this.db.terminate();
  }
}

/** Firestore refuses class instances and `undefined`; our documents are plain JSON already. */
function plainObject(value: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
