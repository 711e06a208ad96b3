import { byRank, MAX_CANDIDATES, type Candidate, type PairFocus } from './candidates';
import type { Edge } from './graph';
import type { PoolModel } from './poolModel';

/**
 * A pair's candidates carried from one pool version to the next. A candidate is a sequence of
 * hops, each the best pool of its token pair (or, for direct and end-only hops, one of the best
 * few), scored from those pools alone; which sequences exist depends on the pairs that exist and
 * on which tokens are BPTs. So when a version changes some pools:
 *  - a candidate with no hop on a token pair of a changed pool is the same sequence, same score;
 *  - every sequence that has such a hop is found again by a search focused on those pairs
 *    (`pairSequences` with a focus: it skips every loop that cannot reach one);
 *  - the pair's kept prefix of the ranking (`RankedCandidates`) merges the two. When the prefix
 *    was cut, a sequence left out of it and not through a changed pair still ranks after the
 *    prefix's last entry, so the merged entries up to that entry are exactly the new ranking's
 *    start; when fewer than `MAX_CANDIDATES` remain the pair is searched afresh.
 * A version that adds or removes a BPT (four-hop paths depend on which tokens are BPTs) searches
 * every pair afresh. The outcome is the list a search from nothing over the new graph gives,
 * entry for entry (test/domain/swap/candidateUpdates.test.ts).
 */

/** Entries kept beyond the ones a quote reads, so a version that pushes a few out does not cost a search. */
export const RESERVE = 200;

export interface RankedCandidates {
  /** The start of the pair's ranking (`byRank`), at most `MAX_CANDIDATES + RESERVE` entries. */
  readonly ranked: readonly Candidate[];
  /** Whether `ranked` is every candidate; else every one left out ranks after its last entry. */
  readonly complete: boolean;
  /** What a quote reads: the first `MAX_CANDIDATES`. */
  readonly list: readonly Candidate[];
}

export function rankedFrom(all: Candidate[]): RankedCandidates {
  all.sort(byRank);
  const cap = MAX_CANDIDATES + RESERVE;
  const ranked = all.length > cap ? all.slice(0, cap) : all;
  return withList(ranked, all.length <= cap);
}

function withList(ranked: readonly Candidate[], complete: boolean): RankedCandidates {
  return { ranked, complete, list: ranked.length > MAX_CANDIDATES ? ranked.slice(0, MAX_CANDIDATES) : ranked };
}

/**
 * The ranking after the changes `touched`: `fresh` are the sequences through a touched pair in the
 * new graph (a focused search). Undefined when the kept prefix would be shorter than what a quote
 * reads (search the pair afresh).
 */
export function updateRanked(
  before: RankedCandidates,
  touched: TouchedPairs,
  fresh: Candidate[],
): RankedCandidates | undefined {
  const ranked = before.ranked;
  const kept: Candidate[] = [];
  for (let k = 0; k < ranked.length; k++) if (!touched.crosses(ranked[k]!)) kept.push(ranked[k]!);
  if (kept.length === ranked.length && fresh.length === 0) return before;
  // When the prefix was cut, a fresh sequence ranking after its last entry may rank after
  // sequences nobody kept: it is not part of the known start, so it is not sorted or merged.
  const last = before.complete ? undefined : ranked[ranked.length - 1]!;
  const placed = last ? fresh.filter((c) => byRank(c, last) <= 0) : fresh;
  placed.sort(byRank);
  const cap = MAX_CANDIDATES + RESERVE;
  const total = kept.length + placed.length;
  const n = Math.min(total, cap);
  const merged: Candidate[] = [];
  let a = 0;
  let b = 0;
  while (merged.length < n) {
    if (b >= placed.length || (a < kept.length && byRank(kept[a]!, placed[b]!) < 0)) merged.push(kept[a++]!);
    else merged.push(placed[b++]!);
  }
  if (!last) return withList(merged, total <= cap);
  return merged.length < MAX_CANDIDATES ? undefined : withList(merged, false);
}

/**
 * The ordered token pairs of changed pools (their models before and after, both directions),
 * whatever kind of pool (through or end-only) they are: a pair listed here may have new pools,
 * new best pools or new scores; a pair not listed has the same pools in the same order.
 */
export class TouchedPairs implements PairFocus {
  private readonly byFrom = new Map<string, Set<string>>();
  private readonly byTo = new Map<string, Set<string>>();
  /**
   * Every pool a kept candidate's hop on a touched pair can be (the changed models and the pools
   * listed on those pairs in the graph before the change), or undefined when not known: a hop
   * through any other pool is on an untouched pair, which one identity lookup tells without
   * reading the pool's tokens (a pool model's fields are read through many classes' shapes,
   * which made that check the larger part of carrying a pair's candidates across a version).
   */
  private readonly suspects: Set<PoolModel> | undefined;

  /** `before`: the graph the change was made to; with it, `crosses` looks at the pools listed on the touched pairs only. */
  constructor(models: Iterable<PoolModel>, before?: PairLists) {
    const changed = [...models];
    for (const m of changed) for (const a of m.tokens) for (const b of m.tokens) if (a !== b) this.add(a, b);
    if (!before) return;
    this.suspects = new Set(changed);
    for (const [a, tos] of this.byFrom)
      for (const b of tos) {
        for (const e of before.between(a, b)) this.suspects.add(e.hop.pool);
        for (const e of before.lbpBetween(a, b)) this.suspects.add(e.hop.pool);
      }
  }

  /** The union of several steps' pairs (a pair carried across several versions). */
  static union(steps: readonly TouchedPairs[]): TouchedPairs {
    if (steps.length === 1) return steps[0]!;
    const known = steps.every((s) => s.suspects !== undefined);
    const out = new TouchedPairs([], known ? NO_PAIRS : undefined);
    for (const s of steps) {
      for (const [a, tos] of s.byFrom) for (const b of tos) out.add(a, b);
      if (known) for (const m of s.suspects!) out.suspects!.add(m);
    }
    return out;
  }

  private add(a: string, b: string): void {
    let tos = this.byFrom.get(a);
    if (!tos) this.byFrom.set(a, (tos = new Set()));
    tos.add(b);
    let froms = this.byTo.get(b);
    if (!froms) this.byTo.set(b, (froms = new Set()));
    froms.add(a);
  }

  get size(): number {
    return this.byFrom.size;
  }

  has(from: string, to: string): boolean {
    return this.byFrom.get(from)?.has(to) === true;
  }

  fromOf(token: string): ReadonlySet<string> | undefined {
    return this.byFrom.get(token);
  }

  intoOf(token: string): ReadonlySet<string> | undefined {
    return this.byTo.get(token);
  }

  fromAny(tokens: ReadonlySet<string>): boolean {
    for (const t of this.byFrom.keys()) if (tokens.has(t)) return true;
    return false;
  }

  /** Whether a candidate has a hop on a touched pair. */
  crosses(c: Candidate): boolean {
    const suspects = this.suspects;
    for (const h of c.path) {
      if (suspects && !suspects.has(h.pool)) continue;
      if (this.has(h.pool.tokens[h.i]!, h.pool.tokens[h.j]!)) return true;
    }
    return false;
  }
}

/** Where a graph lists the pools of a pair (graph.ts): every candidate's hop is taken from these lists. */
export interface PairLists {
  between(from: string, to: string): readonly Edge[];
  lbpBetween(from: string, to: string): readonly Edge[];
}

const NO_PAIRS: PairLists = { between: () => [], lbpBetween: () => [] };
