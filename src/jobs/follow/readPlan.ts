import type { BlockRef, ChainState, PoolChainState } from '../../domain/chainState';
import { movesWithTime, needsReread, stateAt, swapsMoveBalancesOnly, watchedContracts } from '../../domain/chainTime';
import type { StoredPool } from '../../domain/pool';
import { protocolOf } from '../../sources/chainState/chainStateSource';
import type { MovedInBlocks } from '../../sources/chainState/movedInBlocks';
import { MAX_LOG_SPAN } from './logRange';

/**
 * What a poll reads, decided from the head, the served state and the logs since its block. Pure:
 * the follower reads what these name and lays the answers over the state.
 */

/**
 * Whether the head calls for every pool read again: no state yet, the state's block no longer on
 * the chain (a reorg, or a node rewound to an older block), or more blocks past it than logs are
 * worth asking for.
 */
export function needsFullRead(
  state: ChainState | undefined,
  head: BlockRef,
  atKnown: BlockRef | null | undefined,
): boolean {
  const known = state?.block;
  return !state || !known || !atKnown || atKnown.hash !== known.hash || head.number - known.number > MAX_LOG_SPAN;
}

export interface BlockReadPlan {
  readonly toRead: StoredPool[];
  /** Pools of `toRead` only swaps moved, read by their balances alone, by their state before. */
  readonly swappedSince: Map<string, PoolChainState>;
}

/**
 * The pools of `pools` to read at a new block: those the logs name (by id or address), those a
 * watched contract's event names, those `unread` says the state lacks, and those whose state
 * moves without an event at `at` (rate providers behind an expired cache, linear wrapped rates).
 * Amp ramps and weight updates only need evaluating at the new time (`timedStates`).
 *
 * One pass decides both what to read and how: a pool only swapped in (no join, exit or event of
 * its own, nothing else calling for it) whose type says a swap moves its balances alone is read
 * by those (a weighted pool: 1 call instead of 5-10).
 */
export function planBlockRead(
  pools: readonly StoredPool[],
  held: ReadonlyMap<string, PoolChainState>,
  moved: Pick<MovedInBlocks, 'pools' | 'swapsOnly'>,
  unread: (p: StoredPool) => boolean,
  at: number,
): BlockReadPlan {
  const toRead: StoredPool[] = [];
  const swappedSince = new Map<string, PoolChainState>();
  for (const p of pools) {
    const s = held.get(p.id);
    // A weighted v1 or legacy stable pool's protocol fee is the collector's: its change event names the collector.
    const beyondSwaps =
      moved.pools.has(p.address) ||
      unread(p) ||
      (s !== undefined && (watchedContracts(s).some((c) => moved.pools.has(c)) || needsReread(s, at)));
    if (!beyondSwaps && !moved.pools.has(p.id)) continue;
    toRead.push(p);
    if (!beyondSwaps && s !== undefined && moved.swapsOnly.has(p.id) && swapsMoveBalancesOnly(s))
      swappedSince.set(p.id, s);
  }
  return { toRead, swappedSince };
}

/**
 * The held states of pools not read again whose values move with time (a schedule), as a swap at
 * `at` sees them; only those that changed. A pool the catalogue dropped stays dropped, however its
 * schedule moves.
 */
export function timedStates(
  held: ReadonlyMap<string, PoolChainState>,
  read: ReadonlyMap<string, PoolChainState>,
  catalogue: ReadonlySet<string>,
  at: number,
): Map<string, PoolChainState> {
  const timed = new Map<string, PoolChainState>();
  for (const [id, s] of held) {
    if (!movesWithTime(s) || read.has(id) || !catalogue.has(id)) continue;
    const now = stateAt(s, at);
    if (now !== s) timed.set(id, now);
  }
  return timed;
}

/** The tokens of the V3 pools among `pools`: where the Vault may hold a buffer. */
export function bufferCandidates(pools: readonly StoredPool[]): string[] {
  return [...new Set(pools.filter((p) => protocolOf(p) === 3).flatMap((p) => p.tokens.map((t) => t.address)))];
}

/** The state without the pools the catalogue no longer lists (the same map when none left). */
export function inCatalogue(
  pools: ReadonlyMap<string, PoolChainState>,
  catalogue: ReadonlySet<string>,
): ReadonlyMap<string, PoolChainState> {
  for (const id of pools.keys()) if (!catalogue.has(id)) return new Map([...pools].filter(([k]) => catalogue.has(k)));
  return pools;
}

/** `before` with each of `reads` laid over it, later ones winning (the same map when all are empty). */
export function merged(
  before: ReadonlyMap<string, PoolChainState>,
  ...reads: readonly ReadonlyMap<string, PoolChainState>[]
): ReadonlyMap<string, PoolChainState> {
  // One copy of the whole state for all of a block's reads, later ones winning.
  if (reads.every((r) => r.size === 0)) return before;
  const out = new Map(before);
  for (const read of reads) for (const [id, s] of read) out.set(id, s);
  return out;
}
