import type { StoredPool } from '../../domain/pool';
import { nextRecheck, RecheckBudget } from '../followChecks';

/**
 * The slow re-read (`followChecks.ts`): with each new block, a few pools nothing named and a few
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
