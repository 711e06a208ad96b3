import { isDeepStrictEqual } from 'node:util';
import type { AppContext } from '../appContext';
import { appStateKey } from '../appState';
import { vaultOf, type ChainInfo } from '../config/chains';
import type { BlockRef, ChainState, PoolChainState } from '../domain/chainState';
import {
  movesWithTime,
  needsReread,
  nextBlockTime,
  stateAt,
  swapsMoveBalancesOnly,
  watchedContracts,
} from '../domain/chainTime';
import type { StoredPool } from '../domain/pool';
import { readHead } from '../sources/chainState/headReads';
import { LogsRefusedError } from '../sources/chainState/logReads';
import {
  addMoved,
  protocolOf,
  v2ChainStateSource,
  v3ChainStateSource,
  type ChainStateSource,
  type MovedInBlocks,
} from '../sources/chainState/chainStateSource';
import type { BufferBalances } from '../sources/chainState/movedInBlocks';
import { registeredV3Pool } from '../domain/protocols/v3/stored/registeredPool';
import type { StoredBuffer } from '../domain/protocols/v3/stored/storedV3';
import { MalformedAnswerError } from '../sources/rpc/jsonRpc';
import type { AggregateHealth, PinnedRpcOptions } from '../sources/rpc/multicall';
import {
  checkBufferLogs,
  checkCashChanges,
  checkV3CashChanges,
  nextRecheck,
  RecheckBudget,
  sameState,
} from './followChecks';
import { NO_RETRY } from '../sources/upstream';

/**
 * Follows one chain's head through its node and keeps the read model's pools at the newest block
 * (docs/ARCHITECTURE.md, "Chain state"). Each poll reads the head; for each new block the Vault's
 * balance logs since the state's block name the pools to re-read, and those are read at the head
 * in one batch of `eth_call`s. A head whose block at the state's height is not the state's block
 * (a reorg, or a chain rewound) re-reads every pool; a head below the state's block on the same
 * chain is ignored. Nothing is published before a whole block is read and checked
 * (`followChecks.ts`): a node that fails or answers something that is not an answer keeps the
 * last state, and the follower retries with back-off. A few pools nothing named are read again
 * with each new block, healing what no check could tell.
 *
 * When to read comes from a head source: the poll timer (`FOLLOW_INTERVAL_MS`), a `newHeads`
 * subscription when the RPC URL is a WebSocket URL (jobs/triggers/headFollowFeature.ts; the timer
 * then only backs it up, and polls at its own pace again while the subscription is down), and
 * `nudge` from whoever waits for a block (jobs/headGate.ts): each wakes the loop at once.
 */

/** What `/readyz` shows per followed chain. */
export interface FollowStatus {
  readonly chainId: number;
  /** The newest head the node reported, and when (unix ms). */
  head: BlockRef | null;
  headSeenAt: number | null;
  /** When the head's number last moved (unix ms; the start until the first head). */
  headMovedAt: number;
  /** Whether a head that stops moving is stale: the chain makes blocks on a timer (`blockSeconds`). */
  readonly headAgeCounts: boolean;
  /** The block the published state was read at. */
  stateBlock: BlockRef | null;
  /** When the follower started and when a poll last succeeded (unix ms). */
  readonly startedAt: number;
  lastSuccessAt: number | null;
  /** Consecutive failed polls and the last failure. */
  failures: number;
  lastError: string | null;
  /** What tells the follower a block came: `subscription` while a newHeads subscription is up, else `polling`. */
  heads: 'polling' | 'subscription';
  /** Since when (unix ms) a block newer than the served state is known to exist; null while the state is at the head. */
  behindSince: number | null;
  /** Polls failed since the start because the node's answer was not a real one (`MalformedAnswerError`). */
  malformedAnswers: number;
  /**
   * Heads below the state's block whose chain still holds the state's block (a load-balanced
   * node's lagging backend), ignored: the served block never goes back unless the chain did.
   */
  headsBehind: number;
  lastHeadBehind: { number: number; seenAt: number } | null;
  /**
   * The slow re-read of pools nothing named and of tokens found without a buffer: how many were
   * re-read, and those found differing (then healed; `poolId` is the wrapped token for a buffer).
   */
  rechecked: number;
  recheckMismatches: number;
  lastRecheckMismatch: { poolId: string; block: number; at: number } | null;
  /**
   * Pools and buffers dropped after a good answer: the Vault refused a pool it had answered for
   * (its unknown-pool revert), or a buffer's wrapped token refused its share price. Each is asked
   * again at every next block until it answers.
   */
  droppedPools: number;
  droppedBuffers: number;
  lastDropped: { id: string; reason: string; block: number; at: number } | null;
  /**
   * How the pools' getters reach the node: `aggregate3` through the chain's Multicall3, or `batch`
   * (plain `eth_call`s in JSON-RPC batches: the chain has no Multicall3 in its row,
   * `FOLLOW_AGGREGATE_CALLS` is 0, or the node said Multicall3 has no code, `transportReason`).
   */
  transport: 'aggregate3' | 'batch';
  transportReason: string | null;
}

/**
 * True once a chain state is served (the overlay hides the subgraph's values) and the chain's node
 * has failed every poll for longer than `staleMs` since the last good poll: the served state may
 * be that old, and `/order` refuses to build a transaction on it. While no state was ever
 * published the pools are the subgraph's, as without a follower, and nothing is stale.
 */
export function isStale(status: FollowStatus, nowMs: number, staleMs: number): boolean {
  return staleReason(status, nowMs, staleMs) !== null;
}

/**
 * Why the served state is stale, for `/order`'s 503, or null: every poll failed for `staleMs`, or
 * (on chains that make blocks on a timer) the node answers but its head has not moved for `staleMs`,
 * a stuck node serving an old block as its newest.
 */
export function staleReason(status: FollowStatus, nowMs: number, staleMs: number): string | null {
  if (status.stateBlock === null) return null;
  const failingMs = nowMs - (status.lastSuccessAt ?? status.startedAt);
  if (status.failures > 0 && failingMs > staleMs)
    return `has failed every read for ${Math.round(failingMs / 1000)} s (last error: ${status.lastError ?? 'unknown'})`;
  const stuckMs = nowMs - status.headMovedAt;
  if (status.headAgeCounts && stuckMs > staleMs)
    return `has reported block ${status.head?.number ?? 'none'} as its head for ${Math.round(stuckMs / 1000)} s`;
  return null;
}

/** How far behind the node's head the served state may be before `/order` refuses it and `/readyz` degrades. */
export interface LagLimits {
  readonly maxBlocks: number;
  readonly maxSeconds: number;
}

/**
 * Why the served state is too far behind the node's head, or null: more than `maxBlocks` behind
 * `head` (the newest head known, the follower's or one asked for a request), or a newer block
 * known to exist for more than `maxSeconds` (a slow node or a follower that cannot keep up).
 */
export function lagReason(status: FollowStatus, head: number | null, nowMs: number, limits: LagLimits): string | null {
  const state = status.stateBlock?.number;
  if (state === undefined) return null;
  const newest = Math.max(head ?? -1, status.head?.number ?? -1);
  if (newest - state > limits.maxBlocks)
    return `reports block ${newest} as its head, ${newest - state} blocks past the served state (more than FOLLOW_MAX_LAG_BLOCKS=${limits.maxBlocks})`;
  const behindMs = status.behindSince === null ? 0 : nowMs - status.behindSince;
  if (newest > state && behindMs > limits.maxSeconds * 1000)
    return `has had blocks past the served state for ${Math.round(behindMs / 1000)} s (more than FOLLOW_MAX_LAG_SECONDS=${limits.maxSeconds}); its head is block ${newest}`;
  return null;
}

/** The follow status of each followed chain of this app. */
export const followStatusKey = appStateKey('head follower status', () => new Map<number, FollowStatus>());

/** Each followed chain's follower, for those who wait for a block to be published (jobs/headGate.ts). */
export const followersKey = appStateKey('head followers', () => new Map<number, HeadFollower>());

/**
 * With a live subscription the timer only backs it up (a lost notification is caught by the next
 * block's anyway): it polls this many times less often, at most every 30 s.
 */
const SUBSCRIBED_POLL_FACTOR = 10;
/** While a wanted block is missing the follower asks again this often, for `WANTED_MS` unless the waiter says how long. */
const CATCH_UP_MS = 100;
const WANTED_MS = 5_000;
const SUBSCRIBED_POLL_MAX_MS = 30_000;
/** Multicall3 aggregates in flight at once (each one HTTP request). */
const AGGREGATES_IN_FLIGHT = 8;

/** What a buffer's read costs (`v3/bufferReads.ts`: the Vault's three getters, the token's eleven, the asset's two). */
const BUFFER_READ_CALLS = 16;
/** Reads in a row (tries of one step, or blocks) before a buffer's disagreeing tokens are taken at their word. */
const INCONSISTENT_BUFFER_READS = 5;

/** Beyond this many blocks behind, re-reading every pool is cheaper than asking for the logs. */
export const MAX_LOG_SPAN = 2_000;
const MAX_BACKOFF_MS = 30_000;
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

export class HeadFollower {
  private readonly rpc: PinnedRpcOptions;
  /** What the reads learn of the chain's Multicall3 (`rpc/multicall.ts`): whether it has code. */
  private readonly aggregateHealth: AggregateHealth = {};
  /** One per protocol deployed on the chain, each owning what its reads keep across blocks. */
  private readonly sources: readonly ChainStateSource[];
  private readonly status: FollowStatus;
  private stopped = false;
  private timer: NodeJS.Timeout | undefined;
  private wake: (() => void) | undefined;
  private running: Promise<void> | undefined;
  /** Set by `nudge` during a step: read again at once instead of sleeping. */
  private nudged = false;
  /**
   * The newest head announced (subscription) or waited for, and until when (unix ms): until the
   * state has it, the follower asks again every `CATCH_UP_MS` instead of every interval (a node
   * whose \`latest\` lags the head announced or seen elsewhere).
   */
  private wanted = { block: -1, until: 0 };
  /**
   * Pools the Vault refused (not registered there), not asked again until the catalogue changes
   * (the store's `poolsVersion` moves): otherwise every poll would re-read them for nothing.
   */
  private absent = new Set<string>();
  private absentVersion: number | undefined;
  /** V3 pool tokens the Vault has no buffer for, not asked again until a buffer log names them. */
  private noBuffer = new Set<string>();
  /** Pools and buffers dropped after a good answer (`FollowStatus.droppedPools`): asked again at each block. */
  private droppedPools = new Set<string>();
  private droppedBuffers = new Set<string>();
  /** Per wrapped token, the reads in a row at which its tokens' answers disagreed (`judgeInconsistentBuffers`). */
  private readonly inconsistentBufferReads = new Map<string, number>();
  /** The catalogue's ids, kept while its pools array is the same (a new block does not change it). */
  private catalogue: { readonly pools: readonly StoredPool[]; readonly ids: ReadonlySet<string> } | undefined;
  /** The catalogue and state an idle poll last found complete: while both are the same objects, so is the answer. */
  private settled:
    { readonly pools: readonly StoredPool[]; readonly state: ReadonlyMap<string, PoolChainState> } | undefined;
  /** The last pool id the slow re-read reached (`nextRecheck`), and the last token without a buffer. */
  private recheckCursor = '';
  private noBufferCursor = '';
  /** The calls the slow re-read may spend (`FOLLOW_RECHECK_CALLS_PER_SECOND`). */
  private readonly recheckBudget: RecheckBudget;
  /** Since when the node has answered that it has no block at the state's height (unix ms). */
  private missingKnownSince: number | undefined;

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
    this.recheckBudget = new RecheckBudget(ctx.config.follow.recheckCallsPerSecond, ctx.now());
    this.status = {
      chainId: chain.id,
      head: null,
      headSeenAt: null,
      headMovedAt: ctx.now(),
      headAgeCounts: chain.blockSeconds !== undefined,
      stateBlock: null,
      startedAt: ctx.now(),
      lastSuccessAt: null,
      failures: 0,
      lastError: null,
      heads: 'polling',
      behindSince: null,
      malformedAnswers: 0,
      headsBehind: 0,
      lastHeadBehind: null,
      rechecked: 0,
      recheckMismatches: 0,
      lastRecheckMismatch: null,
      droppedPools: 0,
      droppedBuffers: 0,
      lastDropped: null,
      transport: aggregated ? 'aggregate3' : 'batch',
      transportReason: aggregated
        ? null
        : chain.multicall3 === undefined
          ? "the chain's row names no Multicall3"
          : 'FOLLOW_AGGREGATE_CALLS is 0',
    };
    ctx.state.get(followStatusKey).set(chain.id, this.status);
    ctx.state.get(followersKey).set(chain.id, this);
  }

  /**
   * Read the head now rather than at the next tick: a block `target` (when given) was announced
   * or is waited for. During a step, the next step follows at once.
   */
  nudge(target?: number, forMs = WANTED_MS): void {
    if (target !== undefined) {
      const until = this.ctx.now() + forMs;
      if (target > this.wanted.block || this.ctx.now() > this.wanted.until) this.wanted = { block: target, until };
      else if (target === this.wanted.block) this.wanted = { block: target, until: Math.max(until, this.wanted.until) };
    }
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
    const interval = this.ctx.config.follow.intervalMs;
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
      const behind = this.wanted.block > (this.status.stateBlock?.number ?? -1) && this.ctx.now() < this.wanted.until;
      const delay =
        this.status.failures > 0
          ? Math.min(MAX_BACKOFF_MS, interval * 2 ** Math.min(this.status.failures, 10))
          : this.nudged
            ? 0
            : behind
              ? Math.min(interval, CATCH_UP_MS)
              : this.status.heads === 'subscription'
                ? Math.max(interval, Math.min(SUBSCRIBED_POLL_MAX_MS, interval * SUBSCRIBED_POLL_FACTOR))
                : interval;
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
    if (this.absentVersion !== snap.poolsVersion) {
      this.absent = new Set();
      this.absentVersion = snap.poolsVersion;
      // The refused pools are asked again, though a version that rewrote pools as they were keeps the array.
      this.settled = undefined;
    }
    const catalogue = this.catalogueOf(snap.pools);
    const unread = (p: StoredPool) =>
      this.droppedPools.has(p.id) || (!state?.pools.has(p.id) && !this.absent.has(p.id));
    const { head, atKnown } = await readHead(this.rpc, known);
    if (known && this.behind(head, known, atKnown)) return { kind: 'behind', block: known, poolsRead: 0 };
    if (this.status.head?.number !== head.number) this.status.headMovedAt = ctx.now();
    this.status.head = head;
    this.status.headSeenAt = ctx.now();
    if (known && head.number > known.number) this.status.behindSince ??= ctx.now();

    // The state's block is no longer on the chain (a reorg, or a node rewound to an older block).
    const full =
      !state || !known || !atKnown || atKnown.hash !== known.hash || head.number - known.number > MAX_LOG_SPAN;
    if (full) {
      return this.fullRead(snap.pools, head);
    }

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
      const read = await this.readPools(missing, known.number, at);
      const buffers = await this.readBuffers(state.buffers, bufferCandidates(missing), known.number);
      this.publish({
        block: known,
        pools: this.withoutDropped(merged(pruned, read)),
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
    // Pools whose state moves without a Vault event (rate providers behind an expired cache,
    // linear wrapped rates) are read again too; amp ramps and weight updates only need evaluating
    // at the new time.
    // One pass decides both what to read and how: a pool only swapped in (no join, exit or event
    // of its own, nothing else calling for it) whose type says a swap moves its balances alone is
    // read by those (a weighted pool: 1 call instead of 5-10).
    const toRead: StoredPool[] = [];
    const swappedSince = new Map<string, PoolChainState>();
    for (const p of snap.pools) {
      const s = state.pools.get(p.id);
      // A weighted v1 or legacy stable pool's protocol fee is the collector's: its change event names the collector.
      const beyondSwaps =
        moved.has(p.address) ||
        unread(p) ||
        (s !== undefined && (watchedContracts(s).some((c) => moved.has(c)) || needsReread(s, at)));
      if (!beyondSwaps && !moved.has(p.id)) continue;
      toRead.push(p);
      if (!beyondSwaps && s !== undefined && movedIn.swapsOnly.has(p.id) && swapsMoveBalancesOnly(s))
        swappedSince.set(p.id, s);
    }
    // The slow re-read: a few pools nothing named, in turn, read with this block's (`followChecks.ts`).
    const reading = new Set(toRead.map((p) => p.id));
    const recheck = nextRecheck(
      snap.pools,
      this.recheckCursor,
      this.recheckBudget.available(ctx.now()),
      (p) => reading.has(p.id),
      (p) => this.callsOf(p),
    );
    // Charged as sent: a step that fails and is retried pays for its calls again.
    this.recheckBudget.spend(recheck.pools.reduce((n, p) => n + this.callsOf(p), 0));
    const all = [...toRead, ...recheck.pools];
    const read =
      all.length > 0 ? await this.readPools(all, head.number, at, swappedSince) : new Map<string, PoolChainState>();
    checkCashChanges(read, moved, head.number);
    checkV3CashChanges(read, state.pools, moved, head.number);
    this.recheckCursor = recheck.cursor;
    this.compareRechecked(recheck.pools, state.pools, read, head, at);
    const timed = new Map<string, PoolChainState>();
    for (const [id, s] of state.pools) {
      // A pool the catalogue dropped stays dropped, however its schedule moves.
      if (!movesWithTime(s) || read.has(id) || !catalogue.has(id)) continue;
      const now = stateAt(s, at);
      if (now !== s) timed.set(id, now);
    }
    // Every known buffer is read again: its token's share price moves with no Vault event.
    // The slow re-read's calls left after the pools ask again, in turn, tokens found without a
    // buffer (a lying zero asset would otherwise hide a buffer until its next event).
    const noBufferRecheck = this.nextNoBufferRecheck(this.recheckBudget.available(ctx.now()));
    this.recheckBudget.spend(noBufferRecheck.length * BUFFER_READ_CALLS);
    const buffers = await this.readBuffers(
      state.buffers,
      [...bufferCandidates(toRead.filter(unread)), ...movedIn.buffers],
      head.number,
      movedIn.bufferBalances,
      noBufferRecheck,
    );
    // Pools the V3 Vault registered that no one has catalogued yet: quotable from this block.
    const fresh = await this.readRegistered(movedIn.registered, snap.pools, head.number, at);
    this.publish({
      block: head,
      pools: this.withoutDropped(merged(inCatalogue(state.pools, catalogue), read, timed, fresh.read)),
      ...buffers,
      ...(fresh.registered.size > 0 ? { registered: new Map([...(state.registered ?? []), ...fresh.registered]) } : {}),
    });
    return { kind: 'blocks', block: head, poolsRead: all.length + fresh.registered.size };
  }

  /**
   * Whether to ignore this head: it is below the state's block while the node still has the
   * state's block (a lagging backend behind a load balancer, whose `latest` flips back and forth),
   * or the node does not have the state's block at all, for less than the stale bound (a lagging
   * backend answered that question, or the chain really went back: past the bound the state is
   * read again at the head, as for a reorg). A state's block the node has with another hash is a
   * reorg, never ignored.
   */
  private behind(head: BlockRef, known: BlockRef, atKnown: BlockRef | null | undefined): boolean {
    const onChain = atKnown?.hash === known.hash;
    if (atKnown === null) {
      const since = (this.missingKnownSince ??= this.ctx.now());
      if (this.ctx.now() - since > this.ctx.config.follow.staleSeconds * 1000) {
        this.missingKnownSince = undefined;
        return false;
      }
    } else {
      this.missingKnownSince = undefined;
      if (!onChain || head.number >= known.number) return false;
    }
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

  /** How many calls the first round of a read of `p` makes (the slow re-read's budget). */
  private callsOf(p: StoredPool): number {
    return this.sources.find((source) => source.protocol === protocolOf(p))?.callsFor(p) ?? 0;
  }

  /**
   * The timestamp of the block after `block`, the earliest a quote's transaction lands in
   * (`nextBlockTime` with no clock: on demand, a second past the head).
   */
  private quoteTime(block: BlockRef): number {
    return nextBlockTime(this.chain, block.timestamp, undefined);
  }

  private async fullRead(pools: readonly StoredPool[], head: BlockRef): Promise<StepResult> {
    this.absent = new Set();
    this.noBuffer = new Set();
    this.droppedBuffers = new Set();
    const read = await this.readPools(pools, head.number, this.quoteTime(head));
    const buffers = await this.readBuffers(undefined, bufferCandidates(pools), head.number);
    this.publish({ block: head, pools: read, ...buffers });
    return { kind: 'full', block: head, poolsRead: pools.length };
  }

  /**
   * The pools of `named` (registered in the blocks read: address -> factory) the served pools do
   * not have, each typed like the catalogue's pools of its factory (a factory the catalogue has no
   * pool of is not known to make a type the service carries: left out), read at `blockNumber`.
   */
  private async readRegistered(
    named: ReadonlyMap<string, string>,
    pools: readonly StoredPool[],
    blockNumber: number,
    timestamp: number,
  ): Promise<{ registered: Map<string, StoredPool>; read: Map<string, PoolChainState> }> {
    const registered = new Map<string, StoredPool>();
    if (named.size === 0) return { registered, read: new Map() };
    const known = new Set(pools.map((p) => p.id));
    const byFactory = new Map<string, StoredPool>();
    for (const p of pools) if (protocolOf(p) === 3 && p.factory !== null) byFactory.set(p.factory, p);
    const skeletons: StoredPool[] = [];
    for (const [address, factory] of named) {
      const sibling = byFactory.get(factory);
      if (!known.has(address) && sibling !== undefined) skeletons.push(registeredV3Pool(address, factory, sibling));
    }
    if (skeletons.length === 0) return { registered, read: new Map() };
    const read = await this.readPools(skeletons, blockNumber, timestamp);
    for (const skeleton of skeletons) {
      const s = read.get(skeleton.id);
      const factory = skeleton.factory!;
      if (s) registered.set(skeleton.id, registeredV3Pool(skeleton.id, factory, byFactory.get(factory)!, s));
    }
    return { registered, read };
  }

  /**
   * A buffer whose tokens' answers disagree fails the step, as a lying node's answer would; one
   * that disagrees at `INCONSISTENT_BUFFER_READS` reads in a row is the token's own doing (anyone
   * can deploy such a token and give it a buffer), so it is refused instead and the chain goes on.
   */
  private judgeInconsistentBuffers(
    asked: ReadonlySet<string>,
    inconsistent: ReadonlyMap<string, string>,
    refused: Map<string, string>,
  ): void {
    for (const t of asked) if (!inconsistent.has(t)) this.inconsistentBufferReads.delete(t);
    let lie: string | undefined;
    for (const [t, reason] of inconsistent) {
      const reads = (this.inconsistentBufferReads.get(t) ?? 0) + 1;
      this.inconsistentBufferReads.set(t, reads);
      if (reads >= INCONSISTENT_BUFFER_READS) refused.set(t, `${reason}, at ${reads} reads in a row`);
      else lie ??= `${reason}: another call's or block's answer`;
    }
    if (lie !== undefined) throw new MalformedAnswerError(lie);
  }

  /**
   * The V3 Vault's buffers at `blockNumber`: those `known` holds, read again, and any of
   * `candidates` (V3 pool tokens, tokens the buffer logs name) not yet asked about; `{}` on a chain
   * without V3. A token found without a buffer is not asked again until a buffer log names it.
   */
  private async readBuffers(
    known: ReadonlyMap<string, StoredBuffer> | undefined,
    candidates: readonly string[],
    blockNumber: number,
    logged: ReadonlyMap<string, BufferBalances | null> = new Map(),
    recheck: readonly string[] = [],
  ): Promise<{ buffers?: ReadonlyMap<string, StoredBuffer> }> {
    const source = this.sources.find((s) => s.readBuffers !== undefined);
    if (!source?.readBuffers) return {};
    const ask = new Set([...(known?.keys() ?? []), ...this.droppedBuffers, ...recheck]);
    for (const t of candidates) if (!this.noBuffer.has(t)) ask.add(t);
    if (ask.size === 0) return known ? { buffers: known } : {};
    const { buffers, refused, inconsistent } = await source.readBuffers([...ask], blockNumber, known);
    this.judgeInconsistentBuffers(ask, inconsistent, refused);
    checkBufferLogs(buffers, logged, new Set(refused.keys()), blockNumber);
    this.status.rechecked += recheck.length;
    for (const t of recheck) {
      if (!buffers.has(t)) continue;
      // A buffer the re-read found where an earlier answer said none: counted, and served from now.
      this.noBuffer.delete(t);
      this.status.recheckMismatches++;
      this.status.lastRecheckMismatch = { poolId: t, block: blockNumber, at: this.ctx.now() };
      this.ctx.logger.warn(
        { chainId: this.chain.id, wrappedToken: t, block: blockNumber },
        'head follower: the slow re-read found a buffer where an earlier answer said none (a wrong answer before); it is served from now',
      );
    }
    for (const t of ask) {
      const reason = refused.get(t);
      if (buffers.has(t)) this.droppedBuffers.delete(t);
      else if (reason !== undefined && (known?.has(t) || this.droppedBuffers.has(t))) {
        // Dropped after a good answer: said in /readyz, asked again at the next block.
        if (!this.droppedBuffers.has(t)) this.dropped('buffer', t, reason, blockNumber);
        this.droppedBuffers.add(t);
      } else this.noBuffer.add(t);
    }
    // As for pools (`readPools`): a buffer found as it was keeps its object, and a block that moved
    // none keeps the map, so the V3 routing universe rebuilds nothing for them.
    let moved = known === undefined || known.size !== buffers.size;
    for (const [t, b] of buffers) {
      const before = known?.get(t);
      if (before !== undefined && isDeepStrictEqual(before, b)) buffers.set(t, before);
      else moved = true;
    }
    return { buffers: moved || known === undefined ? buffers : known };
  }

  /**
   * The tokens found without a buffer that the re-read asks again with `budget` calls left, in
   * turn after `noBufferCursor` (each costs a buffer's read).
   */
  private nextNoBufferRecheck(budget: number): string[] {
    const count = Math.min(Math.floor(budget / BUFFER_READ_CALLS), this.noBuffer.size);
    if (count === 0) return [];
    const sorted = [...this.noBuffer].sort();
    const start = Math.max(
      0,
      sorted.findIndex((t) => t > this.noBufferCursor),
    );
    const out = Array.from({ length: count }, (_, k) => sorted[(start + k) % sorted.length]!);
    this.noBufferCursor = out[out.length - 1]!;
    return out;
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

  /** `pools` without those dropped after a good answer (the same map when none). */
  private withoutDropped(pools: ReadonlyMap<string, PoolChainState>): ReadonlyMap<string, PoolChainState> {
    if (![...this.droppedPools].some((id) => pools.has(id))) return pools;
    return new Map([...pools].filter(([id]) => !this.droppedPools.has(id)));
  }

  /**
   * Reads `pools` at `blockNumber`, each state as a swap at `timestamp` sees it
   * (`domain/chainTime.ts`); those the Vault refuses are remembered as absent.
   */
  private async readPools(
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
    const held = this.ctx.readModel.chainState(this.chain.id)?.pools;
    for (const p of pools)
      if (read.has(p.id)) {
        this.absent.delete(p.id);
        this.droppedPools.delete(p.id);
      } else if (held?.has(p.id) || this.droppedPools.has(p.id)) {
        // The Vault refused a pool it answered for before: said in /readyz, asked again at the next block.
        if (!this.droppedPools.has(p.id))
          this.dropped('pool', p.id, `the Vault refused it as unknown at block ${blockNumber}`, blockNumber);
        this.droppedPools.add(p.id);
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

  /**
   * What moved in `from`..`to` in each protocol's Vault: the pools its logs name and addresses of
   * the pools that emitted a state event of their own, buffers, registrations. Providers cap
   * `eth_getLogs` by block range or result count, so a refused range is halved and each half asked
   * again; null when even a single block is refused. A node that does not answer at all fails the
   * step as usual.
   */
  private async moved(from: number, to: number): Promise<MovedInBlocks | null> {
    // Each protocol's logs at once: a block's step waits one round trip for them, not one each.
    const named = await Promise.all(this.sources.map((source) => halving(from, to, (a, b) => source.moved(a, b))));
    let moved: MovedInBlocks | undefined;
    for (const n of named) {
      if (!n) return null;
      moved = moved ? addMoved(moved, n) : n;
    }
    for (const t of moved?.buffers ?? []) this.noBuffer.delete(t);
    return moved ?? null;
  }

  /**
   * Publishes `state`, keeping the buffers and the chain-only pools of the state before where it
   * names none; a chain-only pool leaves once the catalogue (the store) lists it.
   */
  private publish(next: ChainState): void {
    if (this.stopped) return;
    const prev = this.ctx.readModel.chainState(this.chain.id);
    const buffers = next.buffers ?? prev?.buffers;
    const named = next.registered ?? prev?.registered;
    // Usually none: the set of catalogued ids is made only when the chain named pools of its own.
    const stored =
      named && named.size > 0
        ? new Set(this.ctx.readModel.storePools(this.chain.id)?.pools.map((p) => p.id) ?? [])
        : undefined;
    const registered = [...(named ?? [])].filter(([id]) => !stored?.has(id));
    // A retimed state's time holds for its block only: a new block's state is at the block after it.
    const { registered: _named, pricedAt, ...rest } = next;
    const sameBlock = prev !== undefined && prev.block.hash === next.block.hash;
    const state: ChainState = {
      ...rest,
      ...(pricedAt !== undefined && sameBlock ? { pricedAt } : {}),
      ...(buffers ? { buffers } : {}),
      ...(registered.length > 0 ? { registered: new Map(registered) } : {}),
    };
    this.ctx.readModel.setChainState(this.chain.id, state);
    this.status.stateBlock = state.block;
    // Lag counts from heads the node reported, never from a block a client only asked for.
    if (state.block.number >= (this.status.head?.number ?? -1)) this.status.behindSince = null;
  }
}

/**
 * `read` over `from`..`to`, the range halved while the node refuses it (a `LogsRefusedError`);
 * null when even a single block is refused.
 */
async function halving(
  from: number,
  to: number,
  read: (from: number, to: number) => Promise<MovedInBlocks>,
): Promise<MovedInBlocks | null> {
  try {
    return await read(from, to);
  } catch (e) {
    if (!(e instanceof LogsRefusedError)) throw e;
    if (from >= to) return null;
  }
  const mid = Math.floor((from + to) / 2);
  const low = await halving(from, mid, read);
  if (!low) return null;
  const high = await halving(mid + 1, to, read);
  if (!high) return null;
  return addMoved(low, high);
}

/** The tokens of the V3 pools among `pools`: where the Vault may hold a buffer. */
function bufferCandidates(pools: readonly StoredPool[]): string[] {
  return [...new Set(pools.filter((p) => protocolOf(p) === 3).flatMap((p) => p.tokens.map((t) => t.address)))];
}

/** The state without the pools the catalogue no longer lists (the same map when none left). */
function inCatalogue(
  pools: ReadonlyMap<string, PoolChainState>,
  catalogue: ReadonlySet<string>,
): ReadonlyMap<string, PoolChainState> {
  for (const id of pools.keys()) if (!catalogue.has(id)) return new Map([...pools].filter(([k]) => catalogue.has(k)));
  return pools;
}

function merged(
  before: ReadonlyMap<string, PoolChainState>,
  ...reads: readonly ReadonlyMap<string, PoolChainState>[]
): ReadonlyMap<string, PoolChainState> {
  // One copy of the whole state for all of a block's reads, later ones winning.
  if (reads.every((r) => r.size === 0)) return before;
  const out = new Map(before);
  for (const read of reads) for (const [id, s] of read) out.set(id, s);
  return out;
}
