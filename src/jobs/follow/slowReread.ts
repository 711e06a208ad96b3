import type { StoredPool } from '../../domain/pool';

/**
 * The slow re-read: with each new block, a few pools nothing named and a few
 * tokens found without a buffer are read again, in turn, within the calls
 * `FOLLOW_RECHECK_CALLS_PER_SECOND` allows. It heals what no check could tell.
 */

/** What a buffer's read costs (`v3/bufferReads.ts`: the Vault's three getters, the token's eleven, the asset's two). */
export const BUFFER_READ_CALLS = 16;

export class SlowReread {
  private readonly budget: RecheckBudget;
  /** The last pool id the re-read reached (`nextRecheck`), and the last token without a buffer. */
  private poolCursor = '';
  private tokenCursor = '';

  constructor(callsPerSecond: number, now: number) {
    this.budget = new RecheckBudget(callsPerSecond, now);
  }

  /**
   * The pools to re-read with this block, skipping those `reading`, charged as sent: a step that
   * fails and is retried pays for its calls again. `passed` moves the turn on once the block is read.
   */
  pools(
    catalogue: readonly StoredPool[],
    reading: ReadonlySet<string>,
    callsOf: (p: StoredPool) => number,
    now: number,
  ): { readonly pools: StoredPool[]; passed(): void } {
    const recheck = nextRecheck(
      catalogue,
      this.poolCursor,
      this.budget.available(now),
      (p) => reading.has(p.id),
      callsOf,
    );
    this.budget.spend(recheck.pools.reduce((n, p) => n + callsOf(p), 0));
    return { pools: recheck.pools, passed: () => void (this.poolCursor = recheck.cursor) };
  }

  /** The tokens found without a buffer to ask again with the calls left, each a buffer's read. */
  tokens(withoutBuffer: ReadonlySet<string>, now: number): string[] {
    const count = Math.min(Math.floor(this.budget.available(now) / BUFFER_READ_CALLS), withoutBuffer.size);
    const out = tokensInTurn(withoutBuffer, this.tokenCursor, count);
    if (out.length > 0) this.tokenCursor = out[out.length - 1]!;
    this.budget.spend(out.length * BUFFER_READ_CALLS);
    return out;
  }
}

/** `count` of `tokens` in sorted order, starting after `cursor` and wrapping round. */
export function tokensInTurn(tokens: Iterable<string>, cursor: string, count: number): string[] {
  if (count <= 0) return [];
  const sorted = [...tokens].sort();
  const start = Math.max(
    0,
    sorted.findIndex((t) => t > cursor),
  );
  return Array.from({ length: Math.min(count, sorted.length) }, (_, k) => sorted[(start + k) % sorted.length]!);
}

/** How many seconds' worth of calls the re-read may save up while no block comes (a halted chain, a slow poll). */
const SAVED_SECONDS = 60;

/**
 * The slow re-read's calls: `perSecond` accrue with wall time (a node bills calls, not blocks), and
 * each new block's re-read spends what has accrued, so a 250 ms chain and a 12 s chain pay the same
 * calls a day. A re-read takes a whole pool once one call has accrued (`nextRecheck`), overspending
 * by at most that pool's calls, which the next blocks pay back; at most a minute's worth (or one
 * call) is saved up, so a chain that stalled does not cost a burst when it resumes.
 */
export class RecheckBudget {
  private credit = 0;

  constructor(
    private readonly perSecond: number,
    private last: number,
  ) {}

  /** The whole calls a re-read at `now` (ms) may spend. */
  available(now: number): number {
    if (this.perSecond <= 0) return 0;
    const cap = Math.max(this.perSecond * SAVED_SECONDS, 1);
    this.credit = Math.min(this.credit + (this.perSecond * Math.max(0, now - this.last)) / 1000, cap);
    this.last = now;
    return Math.max(0, Math.floor(this.credit));
  }

  spend(calls: number): void {
    this.credit -= calls;
  }
}

/**
 * The next pools of the catalogue to re-read after `cursor` (a pool id; `pools` in id order, as
 * the read model holds them, taken wrapping round), skipping those in `skip`, until their calls reach `budget`; at least
 * one pool when the budget is above 0, so a pool with more calls than the budget is still reached.
 */
export function nextRecheck(
  pools: readonly StoredPool[],
  cursor: string,
  budget: number,
  skip: (p: StoredPool) => boolean,
  callsOf: (p: StoredPool) => number,
): { pools: StoredPool[]; cursor: string } {
  if (budget <= 0 || pools.length === 0) return { pools: [], cursor };
  const start = pools.findIndex((p) => p.id > cursor);
  const out: StoredPool[] = [];
  let calls = 0;
  let last = cursor;
  for (let k = 0; k < pools.length; k++) {
    const p = pools[((start < 0 ? 0 : start) + k) % pools.length]!;
    if (skip(p)) continue;
    const c = callsOf(p);
    if (out.length > 0 && calls + c > budget) break;
    out.push(p);
    calls += c;
    last = p.id;
  }
  return { pools: out, cursor: last };
}
