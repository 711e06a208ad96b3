import { isDeepStrictEqual } from 'node:util';
import type { PoolChainState } from '../../domain/chainState';
import { stateAt } from '../../domain/chainTime';
import type { StoredPool } from '../../domain/pool';
import { protocolOf, type ChainStateSource } from '../../sources/chainState/chainStateSource';

/**
 * The pools' reads through each protocol's source, and what the follower remembers of them
 * between blocks: pools the Vault refused (not registered there), not asked again until the
 * catalogue changes, and pools dropped after a good answer, asked again at each block.
 */
export class PoolReads {
  /** Otherwise every poll would re-read the refused pools for nothing. */
  private absent = new Set<string>();
  private absentVersion: number | undefined;
  /** Pools dropped after a good answer (`FollowStatus.droppedPools`). */
  private readonly dropped = new Set<string>();

  constructor(
    /** One per protocol deployed on the chain, each owning what its reads keep across blocks. */
    private readonly sources: readonly ChainStateSource[],
    /** The pools the served state holds now. */
    private readonly held: () => ReadonlyMap<string, PoolChainState> | undefined,
    private readonly onDropped: (poolId: string, reason: string, block: number) => void,
  ) {}

  /**
   * Asks the refused pools again when the catalogue's `poolsVersion` moved; true then (a version
   * that rewrote pools as they were keeps the pools array, so the caller cannot tell).
   */
  catalogueVersion(version: number): boolean {
    if (this.absentVersion === version) return false;
    this.absent = new Set();
    this.absentVersion = version;
    return true;
  }

  /** A full read asks every pool again. */
  forgetAbsent(): void {
    this.absent = new Set();
  }

  /** Whether `p` is to be read though no log named it: dropped, or neither held nor refused. */
  unread(p: StoredPool, held: ReadonlyMap<string, PoolChainState> | undefined): boolean {
    return this.dropped.has(p.id) || (!held?.has(p.id) && !this.absent.has(p.id));
  }

  /** How many calls the first round of a read of `p` makes (the slow re-read's budget). */
  callsOf(p: StoredPool): number {
    return this.sources.find((source) => source.protocol === protocolOf(p))?.callsFor(p) ?? 0;
  }

  /** `pools` without those dropped after a good answer (the same map when none). */
  withoutDropped(pools: ReadonlyMap<string, PoolChainState>): ReadonlyMap<string, PoolChainState> {
    if (![...this.dropped].some((id) => pools.has(id))) return pools;
    return new Map([...pools].filter(([id]) => !this.dropped.has(id)));
  }

  /**
   * Reads `pools` at `blockNumber`, each state as a swap at `timestamp` sees it
   * (`domain/chainTime.ts`); those the Vault refuses are remembered as absent.
   */
  async read(
    pools: readonly StoredPool[],
    blockNumber: number,
    timestamp: number,
    swappedSince?: ReadonlyMap<string, PoolChainState>,
  ): Promise<Map<string, PoolChainState>> {
    const read = new Map<string, PoolChainState>();
    for (const source of this.sources) {
      const mine = pools.filter((p) => protocolOf(p) === source.protocol);
      if (mine.length > 0)
        for (const [id, s] of await source.readPools(mine, blockNumber, swappedSince)) read.set(id, s);
    }
    const held = this.held();
    for (const p of pools)
      if (read.has(p.id)) {
        this.absent.delete(p.id);
        this.dropped.delete(p.id);
      } else if (held?.has(p.id) || this.dropped.has(p.id)) {
        // The Vault refused a pool it answered for before: said in /readyz, asked again at the next block.
        if (!this.dropped.has(p.id))
          this.onDropped(p.id, `the Vault refused it as unknown at block ${blockNumber}`, blockNumber);
        this.dropped.add(p.id);
      } else this.absent.add(p.id);
    // A pool found as the state holds it keeps the object held: the read model, the routing
    // versions and the quote threads tell changed pools by object identity (routing/poolVersions.ts),
    // so a pool read again with nothing changed (the slow re-read, a rate provider that did not
    // move, a reorg's full read) costs the quote threads nothing.
    for (const [id, s] of read) {
      const now = stateAt(s, timestamp);
      const before = held?.get(id);
      read.set(id, before !== undefined && isDeepStrictEqual(before, now) ? before : now);
    }
    return read;
  }
}
