import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { ChainMeta, emptyMeta, historyBucket, PoolHistoryPoint, StoredPool, StoredToken } from '../domain/pool';
import {
  ChainChange,
  checkDocumentSize,
  HistoryQuery,
  LeaseInfo,
  LeaseRequest,
  PoolChanges,
  Store,
  Unsubscribe,
  VersionConflict,
} from './Store';

/**
 * Embedded store: one SQLite file (WAL), one table per Firestore collection, every change in one
 * transaction. Other processes (e.g. `npm run seed` while the server runs) are noticed by polling
 * `PRAGMA data_version`, which only moves when another connection commits.
 *
 * Pool changes since a version (`listPoolChanges`): each pool row carries the version its last
 * write belongs to (the version before the commit + 1, so a write that does not bump is still
 * newer than what a reader at the current version holds), deletions leave a tombstone with the
 * same stamp, and `chains.changes_from` is the oldest version the rows can answer from (NULL
 * until this code's first commit on a file written before stamps existed; raised when old
 * tombstones are pruned).
 */
export class SqliteStore implements Store {
  readonly kind = 'sqlite' as const;
  private readonly db: Database.Database;
  private readonly events = new EventEmitter();
  private readonly watched = new Map<number, ChainMeta>();
  private dataVersion: number;
  private poll: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    file: string,
    private readonly pollMs = 1000,
    /** Tombstones older than this many versions are pruned; readers further behind read everything. */
    private readonly changeVersionsKept = 10_000,
  ) {
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('synchronous = NORMAL');
    this.db.pragma('busy_timeout = 5000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS chains (chain_id INTEGER PRIMARY KEY, pools_version INTEGER NOT NULL,
        tokens_version INTEGER NOT NULL, jobs TEXT NOT NULL, changes_from INTEGER);
      CREATE TABLE IF NOT EXISTS pools (chain_id INTEGER NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL,
        version INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (chain_id, id)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS pool_tombstones (chain_id INTEGER NOT NULL, id TEXT NOT NULL,
        version INTEGER NOT NULL, PRIMARY KEY (chain_id, id)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS pool_tombstones_version ON pool_tombstones (chain_id, version);
      CREATE TABLE IF NOT EXISTS tokens (chain_id INTEGER NOT NULL, address TEXT NOT NULL, doc TEXT NOT NULL,
        PRIMARY KEY (chain_id, address)) WITHOUT ROWID;
      CREATE TABLE IF NOT EXISTS pool_snapshots (chain_id INTEGER NOT NULL, pool_id TEXT NOT NULL,
        bucket INTEGER NOT NULL, ts INTEGER NOT NULL, doc TEXT NOT NULL,
        PRIMARY KEY (chain_id, pool_id, bucket)) WITHOUT ROWID;
      CREATE INDEX IF NOT EXISTS pool_snapshots_ts ON pool_snapshots (chain_id, ts);
      CREATE TABLE IF NOT EXISTS leases (scope TEXT NOT NULL, job TEXT NOT NULL, owner TEXT NOT NULL,
        expires_at INTEGER NOT NULL, acquired_at INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (scope, job)) WITHOUT ROWID;
    `);
    // Files written before leases recorded their start.
    const leaseColumns = this.db.prepare("SELECT name FROM pragma_table_info('leases')").pluck().all() as string[];
    if (!leaseColumns.includes('acquired_at'))
      this.db.exec('ALTER TABLE leases ADD COLUMN acquired_at INTEGER NOT NULL DEFAULT 0');
    // Files written before pool rows carried their version: their chains answer no changes (NULL
    // `changes_from`) until the first commit here.
    const poolColumns = this.db.prepare("SELECT name FROM pragma_table_info('pools')").pluck().all() as string[];
    if (!poolColumns.includes('version'))
      this.db.exec('ALTER TABLE pools ADD COLUMN version INTEGER NOT NULL DEFAULT 0');
    const chainColumns = this.db.prepare("SELECT name FROM pragma_table_info('chains')").pluck().all() as string[];
    if (!chainColumns.includes('changes_from')) this.db.exec('ALTER TABLE chains ADD COLUMN changes_from INTEGER');
    this.db.exec('CREATE INDEX IF NOT EXISTS pools_version ON pools (chain_id, version)');
    this.events.setMaxListeners(0);
    this.dataVersion = this.readDataVersion();
  }

  private readDataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  private metaSync(chainId: number): ChainMeta {
    const row = this.db
      .prepare('SELECT pools_version, tokens_version, jobs FROM chains WHERE chain_id = ?')
      .get(chainId) as { pools_version: number; tokens_version: number; jobs: string } | undefined;
    if (!row) return emptyMeta(chainId);
    return { chainId, poolsVersion: row.pools_version, tokensVersion: row.tokens_version, jobs: JSON.parse(row.jobs) };
  }

  async getMeta(chainId: number): Promise<ChainMeta> {
    return this.metaSync(chainId);
  }

  async listPools(chainId: number): Promise<StoredPool[]> {
    const rows = this.db
      .prepare('SELECT doc FROM pools WHERE chain_id = ? ORDER BY id')
      .pluck()
      .all(chainId) as string[];
    return rows.map((d) => JSON.parse(d) as StoredPool);
  }

  async getPool(chainId: number, id: string): Promise<StoredPool | undefined> {
    const doc = this.db
      .prepare('SELECT doc FROM pools WHERE chain_id = ? AND id = ?')
      .pluck()
      .get(chainId, id.toLowerCase()) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as StoredPool);
  }

  async listPoolChanges(chainId: number, sinceVersion: number): Promise<PoolChanges | undefined> {
    const read = this.db.transaction((): PoolChanges | undefined => {
      const row = this.db.prepare('SELECT pools_version, changes_from FROM chains WHERE chain_id = ?').get(chainId) as
        { pools_version: number; changes_from: number | null } | undefined;
      if (!row) return sinceVersion === 0 ? { version: 0, pools: [], deletedIds: [], total: 0 } : undefined;
      if (row.changes_from === null || sinceVersion < row.changes_from || sinceVersion > row.pools_version)
        return undefined;
      // No ORDER BY: ordering by id walks the primary key through every pool instead of the
      // version index through the changed ones.
      const docs = this.db
        .prepare('SELECT doc FROM pools WHERE chain_id = ? AND version > ?')
        .pluck()
        .all(chainId, sinceVersion) as string[];
      const pools = docs.map((d) => JSON.parse(d) as StoredPool);
      const written = new Set(pools.map((p) => p.id));
      const deletedIds = (
        this.db
          .prepare('SELECT id FROM pool_tombstones WHERE chain_id = ? AND version > ? ORDER BY id')
          .pluck()
          .all(chainId, sinceVersion) as string[]
      ).filter((id) => !written.has(id));
      const total = this.db.prepare('SELECT COUNT(*) FROM pools WHERE chain_id = ?').pluck().get(chainId) as number;
      return { version: row.pools_version, pools, deletedIds, total };
    });
    return read();
  }

  async listTokens(chainId: number): Promise<StoredToken[]> {
    const rows = this.db
      .prepare('SELECT doc FROM tokens WHERE chain_id = ? ORDER BY address')
      .pluck()
      .all(chainId) as string[];
    return rows.map((d) => JSON.parse(d) as StoredToken);
  }

  async commit(chainId: number, change: ChainChange): Promise<ChainMeta> {
    // Serialize (and size-check) everything before the transaction opens: a bad document must not
    // cost a rollback, and must not leave anything half-written either way.
    const pools = (change.pools ?? []).map((p) => {
      const json = JSON.stringify(p);
      checkDocumentSize('pool', p.id, json);
      return [p.id, json] as const;
    });
    const tokens = (change.tokens ?? []).map((t) => {
      const json = JSON.stringify(t);
      checkDocumentSize('token', t.address, json);
      return [t.address, json] as const;
    });
    const history = (change.history ?? []).map(
      (h) => [h.poolId, historyBucket(h.timestamp), h.timestamp, JSON.stringify(h)] as const,
    );

    const putPool = this.db.prepare('INSERT OR REPLACE INTO pools (chain_id, id, doc, version) VALUES (?, ?, ?, ?)');
    const delPool = this.db.prepare('DELETE FROM pools WHERE chain_id = ? AND id = ?');
    const putTombstone = this.db.prepare(
      'INSERT OR REPLACE INTO pool_tombstones (chain_id, id, version) VALUES (?, ?, ?)',
    );
    const putToken = this.db.prepare('INSERT OR REPLACE INTO tokens (chain_id, address, doc) VALUES (?, ?, ?)');
    const putPoint = this.db.prepare(
      'INSERT OR REPLACE INTO pool_snapshots (chain_id, pool_id, bucket, ts, doc) VALUES (?, ?, ?, ?, ?)',
    );
    const putMeta = this.db.prepare(
      'INSERT OR REPLACE INTO chains (chain_id, pools_version, tokens_version, jobs, changes_from) VALUES (?, ?, ?, ?, ?)',
    );

    const run = this.db.transaction((): ChainMeta => {
      const before = this.metaSync(chainId);
      if (change.ifPoolsVersion !== undefined && before.poolsVersion !== change.ifPoolsVersion) {
        throw new VersionConflict(chainId, change.ifPoolsVersion, before.poolsVersion);
      }
      const stamp = before.poolsVersion + 1;
      const row = this.db.prepare('SELECT changes_from FROM chains WHERE chain_id = ?').get(chainId) as
        { changes_from: number | null } | undefined;
      // A new chain has every change recorded; one from before stamps, only those from here on.
      let changesFrom = row === undefined ? 0 : (row.changes_from ?? stamp);
      for (const [id, json] of pools) putPool.run(chainId, id, json, stamp);
      for (const id of change.deletePoolIds ?? []) {
        delPool.run(chainId, id);
        putTombstone.run(chainId, id, stamp);
      }
      if (change.bumpPoolsVersion) changesFrom = this.pruneTombstones(chainId, stamp, changesFrom);
      for (const [address, json] of tokens) putToken.run(chainId, address, json);
      for (const [poolId, bucket, ts, json] of history) putPoint.run(chainId, poolId, bucket, ts, json);
      const meta: ChainMeta = {
        chainId,
        poolsVersion: before.poolsVersion + (change.bumpPoolsVersion ? 1 : 0),
        tokensVersion: before.tokensVersion + (change.bumpTokensVersion ? 1 : 0),
        jobs: { ...before.jobs, ...(change.jobs ?? {}) },
      };
      putMeta.run(chainId, meta.poolsVersion, meta.tokensVersion, JSON.stringify(meta.jobs), changesFrom);
      return meta;
    });
    const meta = run.immediate();
    this.dataVersion = this.readDataVersion();
    this.notify(meta);
    return meta;
  }

  /** Drops tombstones too old to keep; returns the oldest version changes can then be read from. */
  private pruneTombstones(chainId: number, version: number, changesFrom: number): number {
    const cutoff = version - this.changeVersionsKept;
    const newest = this.db
      .prepare('SELECT MAX(version) FROM pool_tombstones WHERE chain_id = ? AND version <= ?')
      .pluck()
      .get(chainId, cutoff) as number | null;
    if (newest === null) return changesFrom;
    this.db.prepare('DELETE FROM pool_tombstones WHERE chain_id = ? AND version <= ?').run(chainId, cutoff);
    // A reader behind the newest dropped tombstone could miss that deletion.
    return Math.max(changesFrom, newest);
  }

  async readHistory(chainId: number, q: HistoryQuery): Promise<PoolHistoryPoint[]> {
    const rows = (
      q.poolId === undefined
        ? this.db
            .prepare('SELECT doc FROM pool_snapshots WHERE chain_id = ? AND ts BETWEEN ? AND ? ORDER BY ts')
            .pluck()
            .all(chainId, q.from, q.to)
        : this.db
            .prepare(
              'SELECT doc FROM pool_snapshots WHERE chain_id = ? AND pool_id = ? AND ts BETWEEN ? AND ? ORDER BY ts',
            )
            .pluck()
            .all(chainId, q.poolId, q.from, q.to)
    ) as string[];
    return rows.map((d) => JSON.parse(d) as PoolHistoryPoint);
  }

  async pruneHistory(chainId: number, beforeTimestamp: number): Promise<number> {
    return this.db.prepare('DELETE FROM pool_snapshots WHERE chain_id = ? AND ts < ?').run(chainId, beforeTimestamp)
      .changes;
  }

  async acquireLease(req: LeaseRequest): Promise<boolean> {
    const tx = this.db.transaction((): boolean => {
      const row = this.db
        .prepare('SELECT owner, expires_at FROM leases WHERE scope = ? AND job = ?')
        .get(req.scope, req.job) as { owner: string; expires_at: number } | undefined;
      if (row && row.owner !== req.owner && row.expires_at > req.nowMs) return false;
      this.db
        .prepare('INSERT OR REPLACE INTO leases (scope, job, owner, expires_at, acquired_at) VALUES (?, ?, ?, ?, ?)')
        .run(req.scope, req.job, req.owner, req.nowMs + req.ttlMs, req.nowMs);
      return true;
    });
    return tx.immediate();
  }

  async renewLease(req: LeaseRequest): Promise<boolean> {
    const res = this.db
      .prepare('UPDATE leases SET expires_at = ? WHERE scope = ? AND job = ? AND owner = ?')
      .run(req.nowMs + req.ttlMs, req.scope, req.job, req.owner);
    return res.changes === 1;
  }

  async releaseLease(scope: string, job: string, owner: string): Promise<void> {
    this.db.prepare('DELETE FROM leases WHERE scope = ? AND job = ? AND owner = ?').run(scope, job, owner);
  }

  async readLease(scope: string, job: string): Promise<LeaseInfo | undefined> {
    const row = this.db
      .prepare('SELECT owner, acquired_at, expires_at FROM leases WHERE scope = ? AND job = ?')
      .get(scope, job) as { owner: string; acquired_at: number; expires_at: number } | undefined;
    return row && { owner: row.owner, acquiredAtMs: row.acquired_at, expiresAtMs: row.expires_at };
  }

  onMetaChange(chainId: number, listener: (meta: ChainMeta) => void): Unsubscribe {
    const event = `meta:${chainId}`;
    this.events.on(event, listener);
    if (!this.watched.has(chainId)) this.watched.set(chainId, this.metaSync(chainId));
    this.startPolling();
    return () => {
      this.events.off(event, listener);
      if (this.events.listenerCount(event) === 0) this.watched.delete(chainId);
    };
  }

  private notify(meta: ChainMeta): void {
    if (this.watched.has(meta.chainId)) this.watched.set(meta.chainId, meta);
    this.events.emit(`meta:${meta.chainId}`, meta);
  }

  private startPolling(): void {
    if (this.poll || this.closed || this.pollMs <= 0) return;
    this.poll = setInterval(() => {
      const version = this.readDataVersion();
      if (version === this.dataVersion) return;
      this.dataVersion = version;
      for (const [chainId, seen] of this.watched) {
        const meta = this.metaSync(chainId);
        if (meta.poolsVersion !== seen.poolsVersion || meta.tokensVersion !== seen.tokensVersion) this.notify(meta);
      }
    }, this.pollMs);
    this.poll.unref();
  }

  async ping(): Promise<void> {
    this.db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.poll) clearInterval(this.poll);
    this.events.removeAllListeners();
    this.db.close();
  }
}
