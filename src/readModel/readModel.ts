import { isDeepStrictEqual } from 'node:util';
import type { Logger } from '../log/logger';
import { applyChainState, type ChainState, type PoolChainState } from '../domain/chainState';
import type { ChainMeta, StoredPool } from '../domain/pool';
import type { PoolChanges, Store, Unsubscribe } from '../store/Store';
import { ChainSnapshot } from './chainSnapshot';

export type ReloadListener = (next: ChainSnapshot, previous: ChainSnapshot | undefined) => void;

/**
 * Per-chain in-memory snapshot of pools and tokens. Read paths never query the store: they take
 * the current snapshot, which is swapped whole when the chain's `poolsVersion` or `tokensVersion`
 * moves (store notification, plus a slow periodic check in case a notification was lost).
 *
 * Where a node is followed (`jobs/headFollower.ts`), the chain's state at the followed block
 * (`setChainState`) is laid over the store's pools: every snapshot, including one reloaded from
 * the store after a subgraph update, shows the chain's values for every pool the follower has read,
 * and the store's (subgraph) values for the rest. The chain state is never written to the store.
 *
 * A reload after the store's `poolsVersion` moved reads only the pools changed since the version
 * held (`Store.listPoolChanges`) and keeps the objects of every other pool, so the snapshot and
 * everything built on it by object identity (the quote threads' pool deltas, the chain state
 * overlay) cost O(changed pools); it reads every pool when the store cannot say what changed or
 * the merged set does not add up.
 */
export class ReadModel {
  private readonly snapshots = new Map<number, ChainSnapshot>();
  private readonly loading = new Map<number, Promise<ChainSnapshot>>();
  private readonly pending = new Set<number>();
  private readonly listeners = new Set<ReloadListener>();
  /** Per chain: the pools as the store holds them, and the followed chain state laid over them. */
  private readonly stored = new Map<number, StorePools>();
  private readonly chainStates = new Map<number, ChainState>();
  /** Each pool state applied once: a block that changes k pools builds k pool objects. */
  private readonly applied = new WeakMap<PoolChainState, { readonly base: StoredPool; readonly pool: StoredPool }>();
  private readonly unsubscribes: Unsubscribe[] = [];
  private check: NodeJS.Timeout | undefined;

  private readonly store: Store;
  readonly chainIds: readonly number[];
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly checkIntervalMs: number;

  constructor(options: {
    readonly store: Store;
    readonly chainIds: readonly number[];
    readonly logger: Logger;
    readonly now?: () => number;
    /** How often versions are checked in case a store notification was lost; 0 = never. */
    readonly checkIntervalMs?: number;
  }) {
    this.store = options.store;
    this.chainIds = options.chainIds;
    this.logger = options.logger;
    this.now = options.now ?? Date.now;
    this.checkIntervalMs = options.checkIntervalMs ?? 30_000;
  }

  /** Loads every chain and starts following changes. */
  async start(): Promise<void> {
    await Promise.all(this.chainIds.map((id) => this.reload(id)));
    for (const id of this.chainIds) {
      this.unsubscribes.push(this.store.onMetaChange(id, (meta) => this.onMeta(meta)));
    }
    if (this.checkIntervalMs > 0) {
      this.check = setInterval(() => {
        for (const id of this.chainIds) {
          this.store.getMeta(id).then(
            (m) => this.onMeta(m),
            (e: Error) => this.logger.warn({ chainId: id, err: e.message }, 'read model version check failed'),
          );
        }
      }, this.checkIntervalMs);
      this.check.unref();
    }
  }

  stop(): void {
    for (const u of this.unsubscribes.splice(0)) u();
    if (this.check) clearInterval(this.check);
    this.listeners.clear();
  }

  get(chainId: number): ChainSnapshot | undefined {
    return this.snapshots.get(chainId);
  }

  isLoaded(): boolean {
    return this.chainIds.every((id) => this.snapshots.has(id));
  }

  onReload(listener: ReloadListener): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The store's pools (without the chain state), in id order, at the pools version last loaded:
   * they are at least that version, so a commit conditional on it (`ifPoolsVersion`) never
   * applies over newer pools. Undefined while the chain is not loaded.
   */
  storePools(chainId: number): StorePools | undefined {
    return this.stored.get(chainId);
  }

  /** The chain state last set for the chain, if a node is followed. */
  chainState(chainId: number): ChainState | undefined {
    return this.chainStates.get(chainId);
  }

  /**
   * Lays `state` over the chain's store pools (replacing any earlier state) and publishes the
   * snapshot at its block; undefined while the chain is not loaded (the state is kept for the load).
   */
  setChainState(chainId: number, state: ChainState): ChainSnapshot | undefined {
    this.chainStates.set(chainId, state);
    const cur = this.snapshots.get(chainId);
    const base = this.stored.get(chainId);
    if (!cur || !base) return undefined;
    const pools = this.overlay(base.pools, state);
    const unchanged = pools.length === cur.pools.length && pools.every((p, i) => p === cur.pools[i]);
    const next = cur.atBlock(unchanged ? cur.pools : pools, state.block, this.now(), state.buffers, state.pricedAt);
    this.publish(next, cur);
    return next;
  }

  private overlay(stored: readonly StoredPool[], state: ChainState | undefined): readonly StoredPool[] {
    if (!state) return stored;
    // Pools only the chain knows yet (registered after the catalogue's read), until it lists them.
    let base = stored;
    const registered = state.registered;
    if (registered !== undefined && registered.size > 0) {
      const known = new Set(stored.map((p) => p.id));
      const extra = [...registered.values()].filter((p) => !known.has(p.id));
      if (extra.length > 0) base = [...stored, ...extra];
    }
    return base.map((p) => {
      const s = state.pools.get(p.id);
      if (!s) return p;
      const done = this.applied.get(s);
      if (done && done.base === p) return done.pool;
      const pool = applyChainState(p, s);
      this.applied.set(s, { base: p, pool });
      return pool;
    });
  }

  /** Resolves once the snapshot reflects at least the store's current versions. */
  async refresh(chainId: number): Promise<ChainSnapshot> {
    const meta = await this.store.getMeta(chainId);
    const cur = this.snapshots.get(chainId);
    if (cur && cur.poolsVersion >= meta.poolsVersion && cur.tokensVersion >= meta.tokensVersion) return cur;
    return this.reload(chainId);
  }

  private onMeta(meta: ChainMeta): void {
    const cur = this.snapshots.get(meta.chainId);
    if (cur && cur.poolsVersion === meta.poolsVersion && cur.tokensVersion === meta.tokensVersion) return;
    this.reload(meta.chainId).catch((e: Error) =>
      this.logger.error({ chainId: meta.chainId, err: e.message }, 'read model reload failed'),
    );
  }

  /** One load per chain at a time; a change that arrives during a load triggers one more. */
  private reload(chainId: number): Promise<ChainSnapshot> {
    const inFlight = this.loading.get(chainId);
    if (inFlight) {
      this.pending.add(chainId);
      return inFlight.then(() => this.loading.get(chainId) ?? this.snapshots.get(chainId)!);
    }
    const run = this.load(chainId).finally(() => {
      this.loading.delete(chainId);
      if (this.pending.delete(chainId)) void this.reload(chainId).catch(() => undefined);
    });
    this.loading.set(chainId, run);
    return run;
  }

  private async load(chainId: number): Promise<ChainSnapshot> {
    const started = this.now();
    const prev = this.snapshots.get(chainId);
    const meta = await this.store.getMeta(chainId);
    let next: ChainSnapshot;
    if (prev && prev.poolsVersion === meta.poolsVersion) {
      const tokens = byKey(await this.store.listTokens(chainId), (t) => t.address);
      // A block the follower published meanwhile is newer than `prev`: keep its pools.
      next = (this.snapshots.get(chainId) ?? prev).withTokens(meta, tokens, this.now());
    } else {
      const sameTokens = prev !== undefined && prev.tokensVersion === meta.tokensVersion;
      const [base, tokens] = await Promise.all([
        this.loadStorePools(chainId, meta.poolsVersion),
        sameTokens ? prev.tokens : this.store.listTokens(chainId).then((t) => byKey(t, (x) => x.address)),
      ]);
      this.stored.set(chainId, base);
      const state = this.chainStates.get(chainId);
      // The snapshot now current: a block the follower published meanwhile is newer than `prev`.
      const cur = this.snapshots.get(chainId);
      const pools = this.overlay(base.pools, state);
      // No pool changed (a bump that rewrote pools as they were): keep the pools and their body.
      next =
        cur && samePools(pools, cur.pools)
          ? cur.withTokens(meta, tokens, this.now())
          : new ChainSnapshot({
              chainId,
              meta,
              pools,
              tokens,
              loadedAt: this.now(),
              block: state?.block ?? null,
              ...(state?.buffers ? { buffers: state.buffers } : {}),
              ...(state?.pricedAt !== undefined ? { pricedAt: state.pricedAt } : {}),
            });
    }
    this.publish(next, this.snapshots.get(chainId));
    this.logger.debug(
      {
        chainId,
        poolsVersion: next.poolsVersion,
        tokensVersion: next.tokensVersion,
        pools: next.pools.length,
        ms: this.now() - started,
      },
      'read model loaded',
    );
    return next;
  }

  /**
   * The store's pools at `version` or later: the held pools with the changes since their version
   * applied, or every pool when the store cannot say what changed or the result does not add up.
   */
  private async loadStorePools(chainId: number, version: number): Promise<StorePools> {
    const held = this.stored.get(chainId);
    // Twice: a store whose reads of the changes are not one snapshot (Firestore) can see a commit
    // land between them, and the next try, a few documents, is far cheaper than every pool.
    for (let attempt = 1; held && attempt <= 2; attempt++) {
      const changes = await this.store.listPoolChanges(chainId, held.version);
      if (!changes) break;
      const pools = applyPoolChanges(held.pools, changes);
      if (changes.version >= version && (changes.total === undefined || changes.total === pools.length))
        return { version: changes.version, pools };
      if (attempt === 2)
        this.logger.warn(
          { chainId, held: held.version, version: changes.version, total: changes.total, merged: pools.length },
          'pool changes did not add up; reading every pool',
        );
    }
    // Pools read after the meta are at least its version.
    return { version, pools: byKey(await this.store.listPools(chainId), (p) => p.id) };
  }

  private publish(next: ChainSnapshot, prev: ChainSnapshot | undefined): void {
    const { chainId } = next;
    this.snapshots.set(chainId, next);
    for (const l of this.listeners) {
      try {
        l(next, prev);
      } catch (e) {
        this.logger.error({ chainId, err: (e as Error).message }, 'read model listener failed');
      }
    }
  }
}

/** A chain's pools as the store holds them, at (at least) one pools version. */
export interface StorePools {
  readonly version: number;
  /** In id order. */
  readonly pools: readonly StoredPool[];
}

function samePools(a: readonly StoredPool[], b: readonly StoredPool[]): boolean {
  return a.length === b.length && a.every((p, i) => p === b[i]);
}

/**
 * `held` (in id order) with `changes` applied, in id order, keeping the object of every pool the
 * changes leave alone or rewrite with the same contents (a store may report a pool written again
 * unchanged); the same array when nothing changed.
 */
export function applyPoolChanges(held: readonly StoredPool[], changes: PoolChanges): readonly StoredPool[] {
  if (changes.pools.length === 0 && changes.deletedIds.length === 0) return held;
  const written = byKey([...changes.pools], (p) => p.id);
  const gone = new Set(changes.deletedIds);
  const out: StoredPool[] = [];
  let j = 0;
  let changed = false;
  for (const p of held) {
    while (j < written.length && written[j]!.id < p.id) {
      out.push(written[j++]!);
      changed = true;
    }
    const w = j < written.length && written[j]!.id === p.id ? written[j++] : undefined;
    if (w) {
      const same = isDeepStrictEqual(w, p);
      out.push(same ? p : w);
      changed ||= !same;
    } else if (gone.has(p.id)) changed = true;
    else out.push(p);
  }
  if (j < written.length) {
    out.push(...written.slice(j));
    changed = true;
  }
  return changed ? out : held;
}

/** Stores differ in the order they list documents; the API always answers in id order. */
function byKey<T>(items: T[], key: (item: T) => string): T[] {
  return items.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
