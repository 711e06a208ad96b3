/**
 * When the follower reads the head next: at once when nudged, soon while a wanted block is
 * missing, at the poll interval, less often while a newHeads subscription is up, and with a
 * back-off after failures. Pure: the follower's loop sleeps what `nextDelay` says.
 */

/**
 * With a live subscription the timer only backs it up (a lost notification is caught by the next
 * block's anyway): it polls this many times less often, at most every 30 s.
 */
const SUBSCRIBED_POLL_FACTOR = 10;
const SUBSCRIBED_POLL_MAX_MS = 30_000;
/** While a wanted block is missing the follower asks again this often, for `WANTED_MS` unless the waiter says how long. */
const CATCH_UP_MS = 100;
export const WANTED_MS = 5_000;
const MAX_BACKOFF_MS = 30_000;

/**
 * The newest head announced (subscription) or waited for, and until when (unix ms): until the
 * state has it, the follower asks again every `CATCH_UP_MS` instead of every interval (a node
 * whose `latest` lags the head announced or seen elsewhere).
 */
export interface WantedBlock {
  readonly block: number;
  readonly until: number;
}

export const NO_BLOCK_WANTED: WantedBlock = { block: -1, until: 0 };

/** The wanted block once `target` is announced or waited for at `now`, for `forMs`. */
export function wantedAfter(wanted: WantedBlock, target: number, now: number, forMs: number): WantedBlock {
  const until = now + forMs;
  if (target > wanted.block || now > wanted.until) return { block: target, until };
  if (target === wanted.block) return { block: target, until: Math.max(until, wanted.until) };
  return wanted;
}

export interface PaceInput {
  /** Failed polls in a row. */
  readonly failures: number;
  /** `nudge` was called during the step. */
  readonly nudged: boolean;
  readonly heads: 'polling' | 'subscription';
  /** `FOLLOW_INTERVAL_MS`. */
  readonly intervalMs: number;
  readonly wanted: WantedBlock;
  /** The served state's block number, -1 before the first. */
  readonly stateBlock: number;
  readonly now: number;
}

/** How long (ms) the follower sleeps before its next poll; 0 for at once. */
export function nextDelay(p: PaceInput): number {
  const interval = p.intervalMs;
  if (p.failures > 0) return Math.min(MAX_BACKOFF_MS, interval * 2 ** Math.min(p.failures, 10));
  if (p.nudged) return 0;
  if (p.wanted.block > p.stateBlock && p.now < p.wanted.until) return Math.min(interval, CATCH_UP_MS);
  if (p.heads === 'subscription')
    return Math.max(interval, Math.min(SUBSCRIBED_POLL_MAX_MS, interval * SUBSCRIBED_POLL_FACTOR));
  return interval;
}
