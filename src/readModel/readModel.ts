import type { Logger } from '../log/logger';
import type { ChainMeta } from '../domain/pool';
import type { Store, Unsubscribe } from '../store/Store';
import { ChainSnapshot } from './chainSnapshot';

export type ReloadListener = (next: ChainSnapshot, previous: ChainSnapshot | undefined) => void;

/**
 * Per-chain in-memory snapshot of pools and tokens. Read paths never query the store: they take
 * the current snapshot, which is swapped whole when the chain's `poolsVersion` or `tokensVersion`
 * moves (store notification, plus a slow periodic check in case a notification was lost).
 */
export class ReadModel {
  private readonly snapshots = new Map<number, ChainSnapshot>();
  private readonly loading = new Map<number, Promise<ChainSnapshot>>();
  private readonly pending = new Set<number>();
  private readonly listeners = new Set<ReloadListener>();
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
      next = prev.withTokens(
        meta,
        byKey(await this.store.listTokens(chainId), (t) => t.address),
        this.now(),
      );
    } else {
      const [pools, tokens] = await Promise.all([this.store.listPools(chainId), this.store.listTokens(chainId)]);
      next = new ChainSnapshot({
        chainId,
        meta,
        pools: byKey(pools, (p) => p.id),
        tokens: byKey(tokens, (t) => t.address),
        loadedAt: this.now(),
      });
    }
    this.snapshots.set(chainId, next);
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
    for (const l of this.listeners) {
      try {
        l(next, prev);
      } catch (e) {
        this.logger.error({ chainId, err: (e as Error).message }, 'read model listener failed');
      }
    }
    return next;
  }
}

/** Stores differ in the order they list documents; the API always answers in id order. */
function byKey<T>(items: T[], key: (item: T) => string): T[] {
  return items.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}
