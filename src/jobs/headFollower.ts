import type { AppContext } from '../appContext';
import { appStateKey } from '../appState';
import { vaultOf, type ChainInfo } from '../config/chains';
import type { BlockRef, ChainState, PoolChainState } from '../domain/chainState';
import { movesWithTime, nextBlockTime, stateAt } from '../domain/chainTime';
import type { StoredPool } from '../domain/pool';
import { readHead } from '../sources/chainState/headReads';
import {
  addMoved,
  v2ChainStateSource,
  v3ChainStateSource,
  type ChainStateSource,
  type MovedInBlocks,
} from '../sources/chainState/chainStateSource';
import { MalformedAnswerError } from '../sources/rpc/jsonRpc';
import type { AggregateHealth, PinnedRpcOptions } from '../sources/rpc/multicall';
import { NO_RETRY } from '../sources/upstream';
import { checkCashChanges, checkV3CashChanges, sameState } from './follow/followChecks';
import { newFollowStatus, type FollowStatus } from './follow/followStatus';
import { laggingHead } from './follow/laggingHeads';
import { movedInHalves } from './follow/logRange';
import { nextDelay, NO_BLOCK_WANTED, WANTED_MS, wantedAfter } from './follow/pacing';
import { PoolReads } from './follow/poolReads';
import { bufferCandidates, inCatalogue, merged, needsFullRead, planBlockRead, timedStates } from './follow/readPlan';
import { servedState } from './follow/servedState';
import { SlowReread } from './follow/slowReread';
import { V3Buffers } from './follow/v3Buffers';
import { readRegisteredPools } from './follow/v3Registration';

/**
 * Follows one chain's head through its node and keeps the read model's pools at the newest block
 * (docs/ARCHITECTURE.md, "Chain state"). Each poll reads the head; for each new block the Vault's
 * balance logs since the state's block name the pools to re-read, and those are read at the head
 * in one batch of `eth_call`s. A head whose block at the state's height is not the state's block
 * (a reorg, or a chain rewound) re-reads every pool; a head below the state's block on the same
 * chain is ignored. Nothing is published before a whole block is read and checked
 * (`follow/followChecks.ts`): a node that fails or answers something that is not an answer keeps the
 * last state, and the follower retries with back-off. A few pools nothing named are read again
 * with each new block, healing what no check could tell.
 *
 * When to read comes from a head source: the poll timer (`FOLLOW_INTERVAL_MS`), a `newHeads`
 * subscription when the RPC URL is a WebSocket URL (jobs/triggers/headFollowFeature.ts; the timer
 * then only backs it up, and polls at its own pace again while the subscription is down), and
 * `nudge` from whoever waits for a block (jobs/headGate.ts): each wakes the loop at once.
 */

/** The follow status of each followed chain of this app. */
export const followStatusKey = appStateKey('head follower status', () => new Map<number, FollowStatus>());

/** Each followed chain's follower, for those who wait for a block to be published (jobs/headGate.ts). */
export const followersKey = appStateKey('head followers', () => new Map<number, HeadFollower>());

/** Multicall3 aggregates in flight at once (each one HTTP request). */
const AGGREGATES_IN_FLIGHT = 8;
/** One warning for the first failure, then one per this many failures in a row. */
const WARN_EVERY = 30;

export interface StepResult {
  /**
   * `full`: every pool re-read (start, reorg, long gap); `blocks`: new blocks; `idle`: none;
   * `behind`: a head below the state's block, ignored (`HeadFollower.behind`).
   */
  readonly kind: 'full' | 'blocks' | 'idle' | 'behind' | 'not loaded';
  readonly block: BlockRef | null;
  readonly poolsRead: number;
}

/**
 * Composes the follow's parts (`follow/`): it owns the loop, the status it fills, and the order of
 * a poll's reads; each part keeps its own concern and what it remembers between blocks.
 */
export class HeadFollower {
  private readonly rpc: PinnedRpcOptions;
  /** What the reads learn of the chain's Multicall3 (`rpc/multicall.ts`): whether it has code. */
  private readonly aggregateHealth: AggregateHealth = {};
  private readonly pools: PoolReads;
  private readonly buffers: V3Buffers;
  private readonly reread: SlowReread;
  private readonly status: FollowStatus;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;
  /** Set by `nudge` during a step: read again at once instead of sleeping. */
  private nudged = false;
  private wanted = NO_BLOCK_WANTED;
  /** The catalogue's ids, kept while its pools array is the same (a new block does not change it). */
  private catalogue: { readonly pools: readonly StoredPool[]; readonly ids: ReadonlySet<string> } | undefined;
  /** The catalogue and state an idle poll last found complete: while both are the same objects, so is the answer. */
  private settled:
    { readonly pools: readonly StoredPool[]; readonly state: ReadonlyMap<string, PoolChainState> } | undefined;
  /** Since when the node has answered that it has no block at the state's height (unix ms). */
  private missingKnownSince: number | undefined;
  /** One per protocol deployed on the chain, each owning what its reads keep across blocks. */
  private readonly sources: readonly ChainStateSource[];

  constructor(
    private readonly ctx: AppContext,
    private readonly chain: ChainInfo,
    rpcUrl: string,
  ) {
    // No retry inside a poll: the next poll is the retry, after the back-off.
    // Four batches in flight make a full read (start, reorg) about four times faster on a remote node.
    // A chain's Multicall3 carries its getters, `FOLLOW_AGGREGATE_CALLS` to a call, more of them
    // in flight: a full read's latency is its rounds of aggregates.
    const callsPerAggregate = ctx.config.follow.aggregateCalls;
    const multicall3 = callsPerAggregate > 0 ? chain.multicall3 : undefined;
    const aggregated = multicall3 !== undefined;
    this.rpc = {
      url: rpcUrl,
      timeoutMs: 10_000,
      retry: NO_RETRY,
      batchSize: 100,
      concurrency: 4,
      ...(multicall3 !== undefined
        ? {
            aggregate: {
              address: multicall3,
              callsPerAggregate,
              inFlight: AGGREGATES_IN_FLIGHT,
              health: this.aggregateHealth,
            },
          }
        : {}),
    };
    const v3Vault = vaultOf(chain, 3);
    this.sources = [
      v2ChainStateSource(this.rpc, chain.vault),
      ...(v3Vault !== undefined ? [v3ChainStateSource(this.rpc, v3Vault)] : []),
    ];
    this.pools = new PoolReads(
      this.sources,
      () => ctx.readModel.chainState(chain.id)?.pools,
      (id, reason, block) => this.dropped('pool', id, reason, block),
    );
    this.buffers = new V3Buffers(
      this.sources.find((s) => s.readBuffers !== undefined),
      {
        rechecked: (count) => void (this.status.rechecked += count),
        foundBuffer: (t, block) => {
          this.status.recheckMismatches++;
          this.status.lastRecheckMismatch = { poolId: t, block, at: this.ctx.now() };
          this.ctx.logger.warn(
            { chainId: this.chain.id, wrappedToken: t, block },
            'head follower: the slow re-read found a buffer where an earlier answer said none (a wrong answer before); it is served from now',
          );
        },
        dropped: (t, reason, block) => this.dropped('buffer', t, reason, block),
      },
    );
    this.reread = new SlowReread(ctx.config.follow.recheckCallsPerSecond, ctx.now());
    this.status = newFollowStatus(chain, ctx.now(), {
      transport: aggregated ? 'aggregate3' : 'batch',
      transportReason: aggregated
        ? null
        : chain.multicall3 === undefined
          ? "the chain's row names no Multicall3"
          : 'FOLLOW_AGGREGATE_CALLS is 0',
    });
    ctx.state.get(followStatusKey).set(chain.id, this.status);
    ctx.state.get(followersKey).set(chain.id, this);
  }

  /**
   * Read the head now rather than at the next tick: a block `target` (when given) was announced
   * or is waited for. During a step, the next step follows at once.
   */
  nudge(target?: number, forMs = WANTED_MS): void {
    if (target !== undefined) this.wanted = wantedAfter(this.wanted, target, this.ctx.now(), forMs);
    this.nudged = true;
    this.wake?.();
  }

  /** Whether a newHeads subscription tells the follower of new blocks (the timer backs it up then). */
  setSubscribed(live: boolean): void {
    this.status.heads = live ? 'subscription' : 'polling';
    // Back to polling: the next poll should not wait out the subscribed pace.
    if (!live) this.wake?.();
  }

  start(): void {
    this.running ??= this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    const followers = this.ctx.state.get(followersKey);
    if (followers.get(this.chain.id) === this) followers.delete(this.chain.id);
    if (this.timer) clearTimeout(this.timer);
    this.wake?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      this.nudged = false;
      try {
        await this.step();
        if (this.status.failures > 0)
          this.ctx.logger.info(
            { chainId: this.chain.id, failures: this.status.failures },
            'head follower: the node answers again',
          );
        this.status.failures = 0;
        this.status.lastError = null;
        this.status.lastSuccessAt = this.ctx.now();
      } catch (e) {
        const message = (e as Error).message;
        if (e instanceof MalformedAnswerError) this.status.malformedAnswers++;
        this.status.failures++;
        this.status.lastError = message;
        if (this.status.failures === 1 || this.status.failures % WARN_EVERY === 0)
          this.ctx.logger.warn(
            { chainId: this.chain.id, failures: this.status.failures, err: message },
            'head follower: reading the chain failed; keeping the last state',
          );
      }
      if (this.stopped) break;
      const delay = nextDelay({
        failures: this.status.failures,
        nudged: this.nudged,
        heads: this.status.heads,
        intervalMs: this.ctx.config.follow.intervalMs,
        wanted: this.wanted,
        stateBlock: this.status.stateBlock?.number ?? -1,
        now: this.ctx.now(),
      });
      if (delay === 0) continue;
      await new Promise<void>((resolve) => {
        this.wake = () => {
          clearTimeout(this.timer);
          this.wake = undefined;
          resolve();
        };
        this.timer = setTimeout(resolve, delay);
        this.timer.unref();
      });
      this.wake = undefined;
    }
  }

  private catalogueOf(pools: readonly StoredPool[]): ReadonlySet<string> {
    if (this.catalogue?.pools !== pools) this.catalogue = { pools, ids: new Set(pools.map((p) => p.id)) };
    return this.catalogue.ids;
  }

  /** One poll: brings the chain's state to the head, or throws and leaves it as it was. */
  async step(): Promise<StepResult> {
    try {
      return await this.poll();
    } finally {
      this.noteTransport();
    }
  }

  /** Says once, in the log and `/readyz`, that the reads left Multicall3 for plain calls. */
  private noteTransport(): void {
    const codeless = this.aggregateHealth.codeless;
    if (!codeless || this.status.transport === 'batch') return;
    this.status.transport = 'batch';
    this.status.transportReason = `Multicall3 ${this.chain.multicall3 ?? ''} has no code at block ${Number(codeless.block)}: every getter goes as its own eth_call`;
    this.ctx.logger.warn(
      { chainId: this.chain.id, multicall3: this.chain.multicall3, block: Number(codeless.block) },
      "head follower: the chain's Multicall3 has no code; reading through plain eth_calls in JSON-RPC batches",
    );
  }

  private async poll(): Promise<StepResult> {
    const { ctx, chain } = this;
    const snap = ctx.readModel.get(chain.id);
    if (!snap) return { kind: 'not loaded', block: null, poolsRead: 0 };
    const state = ctx.readModel.chainState(chain.id);
    const known = state?.block;
    // The refused pools are asked again, though a version that rewrote pools as they were keeps the array.
    if (this.pools.catalogueVersion(snap.poolsVersion)) this.settled = undefined;
    const catalogue = this.catalogueOf(snap.pools);
    const unread = (p: StoredPool) => this.pools.unread(p, state?.pools);
    const { head, atKnown } = await readHead(this.rpc, known);
    if (known && this.behind(head, known, atKnown)) return { kind: 'behind', block: known, poolsRead: 0 };
    if (this.status.head?.number !== head.number) this.status.headMovedAt = ctx.now();
    this.status.head = head;
    this.status.headSeenAt = ctx.now();
    if (known && head.number > known.number) this.status.behindSince ??= ctx.now();

    if (!state || !known || needsFullRead(state, head, atKnown)) return this.fullRead(snap.pools, head);

    if (head.hash === known.hash) {
      // Nothing changed since an idle poll found every pool read and none dropped: no pass over them.
      if (this.settled?.pools === snap.pools && this.settled.state === state.pools)
        return { kind: 'idle', block: known, poolsRead: 0 };
      // No new block; pools the catalogue gained since (a pool update) are read at the same block.
      const missing = snap.pools.filter(unread);
      const pruned = inCatalogue(state.pools, catalogue);
      if (missing.length === 0) {
        if (pruned !== state.pools) this.publish({ ...state, block: known, pools: pruned });
        // A pool the Vault refuses later only shrinks what is missing, so this holds until either
        // changes or the pools version moves (the refused are asked again then).
        else this.settled = { pools: snap.pools, state: state.pools };
        return { kind: 'idle', block: known, poolsRead: 0 };
      }
      // At the time the state's pools hold at: an order may have retimed them (`jobs/retime.ts`).
      const at = state.pricedAt ?? this.quoteTime(known);
      const read = await this.pools.read(missing, known.number, at);
      const buffers = await this.buffers.read(state.buffers, bufferCandidates(missing), known.number);
      this.publish({
        block: known,
        pools: this.pools.withoutDropped(merged(pruned, read)),
        ...buffers,
        ...(state.pricedAt !== undefined ? { pricedAt: state.pricedAt } : {}),
      });
      return { kind: 'idle', block: known, poolsRead: missing.length };
    }

    const movedIn = await this.moved(known.number + 1, head.number);
    // Even one block's logs were refused: only a full read brings the state to the head.
    if (!movedIn) return this.fullRead(snap.pools, head);
    const moved = movedIn.pools;
    const at = this.quoteTime(head);
    const { toRead, swappedSince } = planBlockRead(snap.pools, state.pools, movedIn, unread, at);
    // The slow re-read: a few pools nothing named, in turn, read with this block's (`follow/slowReread.ts`).
    const recheck = this.reread.pools(
      snap.pools,
      new Set(toRead.map((p) => p.id)),
      (p) => this.pools.callsOf(p),
      ctx.now(),
    );
    const all = [...toRead, ...recheck.pools];
    const read =
      all.length > 0 ? await this.pools.read(all, head.number, at, swappedSince) : new Map<string, PoolChainState>();
    checkCashChanges(read, moved, head.number);
    checkV3CashChanges(read, state.pools, moved, head.number);
    recheck.passed();
    this.compareRechecked(recheck.pools, state.pools, read, head, at);
    const timed = timedStates(state.pools, read, catalogue, at);
    // Every known buffer is read again: its token's share price moves with no Vault event.
    // The slow re-read's calls left after the pools ask again, in turn, tokens found without a
    // buffer (a lying zero asset would otherwise hide a buffer until its next event).
    const noBufferRecheck = this.reread.tokens(this.buffers.withoutBuffer(), ctx.now());
    const buffers = await this.buffers.read(
      state.buffers,
      [...bufferCandidates(toRead.filter(unread)), ...movedIn.buffers],
      head.number,
      movedIn.bufferBalances,
      noBufferRecheck,
    );
    // Pools the V3 Vault registered that no one has catalogued yet: quotable from this block.
    const fresh = await readRegisteredPools(movedIn.registered, snap.pools, (pools) =>
      this.pools.read(pools, head.number, at),
    );
    this.publish({
      block: head,
      pools: this.pools.withoutDropped(merged(inCatalogue(state.pools, catalogue), read, timed, fresh.read)),
      ...buffers,
      ...(fresh.registered.size > 0 ? { registered: new Map([...(state.registered ?? []), ...fresh.registered]) } : {}),
    });
    return { kind: 'blocks', block: head, poolsRead: all.length + fresh.registered.size };
  }

  /** Whether to ignore this head (`follow/laggingHeads.ts`), counted and logged when it is. */
  private behind(head: BlockRef, known: BlockRef, atKnown: BlockRef | null | undefined): boolean {
    const staleMs = this.ctx.config.follow.staleSeconds * 1000;
    const verdict = laggingHead(head, known, atKnown, this.missingKnownSince, this.ctx.now(), staleMs);
    this.missingKnownSince = verdict.missingSince;
    if (!verdict.ignore) return false;
    this.status.headsBehind++;
    this.status.lastHeadBehind = { number: head.number, seenAt: this.ctx.now() };
    if (this.status.headsBehind === 1 || this.status.headsBehind % WARN_EVERY === 0)
      this.ctx.logger.warn(
        { chainId: this.chain.id, head: head.number, stateBlock: known.number, headsBehind: this.status.headsBehind },
        "head follower: the node's head is behind the state's block (or it lacks that block); ignoring it",
      );
    return true;
  }

  /** Counts and logs the re-read pools whose fresh read differs from the state (the read replaces it). */
  private compareRechecked(
    pools: readonly StoredPool[],
    before: ReadonlyMap<string, PoolChainState>,
    read: ReadonlyMap<string, PoolChainState>,
    head: BlockRef,
    at: number,
  ): void {
    this.status.rechecked += pools.length;
    for (const p of pools) {
      const old = before.get(p.id);
      const expected = old && movesWithTime(old) ? stateAt(old, at) : old;
      if (sameState(expected, read.get(p.id))) continue;
      this.status.recheckMismatches++;
      this.status.lastRecheckMismatch = { poolId: p.id, block: head.number, at: this.ctx.now() };
      this.ctx.logger.warn(
        { chainId: this.chain.id, poolId: p.id, block: head.number },
        'head follower: a pool re-read differs from the state though nothing named it (a wrong answer before); the fresh read replaces it',
      );
    }
  }

  /**
   * The timestamp of the block after `block`, the earliest a quote's transaction lands in
   * (`nextBlockTime` with no clock: on demand, a second past the head).
   */
  private quoteTime(block: BlockRef): number {
    return nextBlockTime(this.chain, block.timestamp, undefined);
  }

  private async fullRead(pools: readonly StoredPool[], head: BlockRef): Promise<StepResult> {
    this.pools.forgetAbsent();
    this.buffers.forget();
    const read = await this.pools.read(pools, head.number, this.quoteTime(head));
    const buffers = await this.buffers.read(undefined, bufferCandidates(pools), head.number);
    this.publish({ block: head, pools: read, ...buffers });
    return { kind: 'full', block: head, poolsRead: pools.length };
  }

  /** Counts and logs a pool or buffer dropped after a good answer (`FollowStatus.droppedPools`). */
  private dropped(what: 'pool' | 'buffer', id: string, reason: string, block: number): void {
    if (what === 'pool') this.status.droppedPools++;
    else this.status.droppedBuffers++;
    this.status.lastDropped = { id, reason, block, at: this.ctx.now() };
    this.ctx.logger.warn(
      { chainId: this.chain.id, [what === 'pool' ? 'poolId' : 'wrappedToken']: id, block, reason },
      `head follower: a ${what} that answered before is refused now; it is asked again at the next block`,
    );
  }

  /**
   * What moved in `from`..`to` in each protocol's Vault: the pools its logs name and addresses of
   * the pools that emitted a state event of their own, buffers, registrations. A refused range is
   * halved (`follow/logRange.ts`); null when even a single block is refused. A node that does not
   * answer at all fails the step as usual.
   */
  private async moved(from: number, to: number): Promise<MovedInBlocks | null> {
    // Each protocol's logs at once: a block's step waits one round trip for them, not one each.
    const named = await Promise.all(
      this.sources.map((source) => movedInHalves(from, to, (a, b) => source.moved(a, b))),
    );
    let moved: MovedInBlocks | undefined;
    for (const n of named) {
      if (!n) return null;
      moved = moved ? addMoved(moved, n) : n;
    }
    this.buffers.named(moved?.buffers ?? []);
    return moved ?? null;
  }

  /** Publishes `next` over the served state (`follow/servedState.ts`). */
  private publish(next: ChainState): void {
    if (this.stopped) return;
    const prev = this.ctx.readModel.chainState(this.chain.id);
    const state = servedState(
      prev,
      next,
      () => new Set(this.ctx.readModel.storePools(this.chain.id)?.pools.map((p) => p.id) ?? []),
    );
    this.ctx.readModel.setChainState(this.chain.id, state);
    this.status.stateBlock = state.block;
    // Lag counts from heads the node reported, never from a block a client only asked for.
    if (state.block.number >= (this.status.head?.number ?? -1)) this.status.behindSince = null;
  }
}
