import type { ChainInfo } from '../../config/chains';
import type { BlockRef } from '../../domain/chainState';

/**
 * The status policy of a followed chain: what `/readyz` shows of it, and when the served state
 * is too stale or too far behind the head to build an order on. Pure: the follower fills the
 * status, the read paths judge it here.
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

/** A chain's status before its first poll, at `now` (unix ms), with the reads' transport. */
export function newFollowStatus(
  chain: ChainInfo,
  now: number,
  transport: Pick<FollowStatus, 'transport' | 'transportReason'>,
): FollowStatus {
  return {
    chainId: chain.id,
    head: null,
    headSeenAt: null,
    headMovedAt: now,
    headAgeCounts: chain.blockSeconds !== undefined,
    stateBlock: null,
    startedAt: now,
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
    ...transport,
  };
}
