import { normalizePool, NormalizeResult } from '../domain/normalizePool';

/**
 * Remembers, per pool id, the raw subgraph pool of the last successful run and its normalized
 * form, so a scheduled re-run in the same process validates only pools whose raw answer changed.
 * Comparing the raw JSON costs a tenth of validating it again, and most pools do not change
 * between two runs five minutes apart. Results are shared and must not be mutated.
 */
export class NormalizeMemo {
  private last = new Map<string, { readonly json: string; readonly result: NormalizeResult }>();
  private next = new Map<string, { readonly json: string; readonly result: NormalizeResult }>();

  /** Hits and misses of the current run (for the report and the benchmark). */
  hits = 0;
  misses = 0;

  readonly normalize = (raw: unknown): NormalizeResult => {
    const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
    if (typeof id !== 'string') return normalizePool(raw);
    const json = JSON.stringify(raw);
    const seen = this.last.get(id);
    if (seen && seen.json === json) {
      this.hits++;
      this.next.set(id, seen);
      return seen.result;
    }
    this.misses++;
    const result = normalizePool(raw);
    this.next.set(id, { json, result });
    return result;
  };

  /** Keeps this run's pools for the next run (call only when the run succeeded). */
  commitRun(): void {
    this.last = this.next;
    this.next = new Map();
    this.hits = 0;
    this.misses = 0;
  }

  /** Forgets this run (it failed): the next run compares against the last successful one. */
  abandonRun(): void {
    this.next = new Map();
    this.hits = 0;
    this.misses = 0;
  }
}
