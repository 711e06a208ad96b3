import { byRank, MAX_CANDIDATES, type Candidate, type PairFocus } from './candidates';
import type { Edge } from './graph';
import type { PoolModel } from './poolModel';
import type { Hop } from './route';

/**
 * A pair's candidates carried from one pool version to the next. A candidate is a sequence of
 * hops scored from those hops' edges alone; a hop of a path of two or more is the best pool of its
 * through pair, a direct path's hop one of the pair's best few, an end-only hop one of its end-only
 * pair's best few (candidates.ts), and which sequences exist depends on the pairs that exist and on
 * which tokens are BPTs. So when a version changes some pools (`TouchedPairs`: the parts of pair
 * lists that now hold other edges):
 *  - a candidate with no hop on a changed part is the same sequence, same score; one whose only
 *    hop on a changed part is a longer path's hop on a pair whose best few changed but not its
 *    best pool keeps its score, and only its parallel pools changed (kept as a new object);
 *  - every sequence with a hop on a changed part is found again by a search focused on those
 *    parts (`pairSequences` with a focus: it skips every loop that cannot reach one);
 *  - the pair's kept prefix of the ranking (`RankedCandidates`) merges the two. When the prefix
 *    was cut, a sequence left out of it and not through a changed part still ranks after the
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

/** What a carried candidate becomes: the same object, a copy (only its parallel pools changed), or dropped (its score may have changed). */
export type Fate = 'keep' | 'renew' | 'drop';

/**
 * The ranking after a change: `fate` tells what became of each kept candidate, `fresh` are the
 * sequences the change may have made or rescored in the new graph (a focused search, exactly those
 * whose fate in the old graph would be 'drop'). Undefined when the kept prefix would be shorter
 * than what a quote reads (search the pair afresh).
 */
export function updateRanked(
  before: RankedCandidates,
  fate: (c: Candidate) => Fate,
  fresh: Candidate[],
): RankedCandidates | undefined {
  const ranked = before.ranked;
  const kept: Candidate[] = [];
  let same = fresh.length === 0;
  for (let k = 0; k < ranked.length; k++) {
    const c = ranked[k]!;
    const f = fate(c);
    if (f === 'keep') kept.push(c);
    else {
      same = false;
      // A new object: the engine keeps a candidate's parallel pools by the object (engine.ts).
      if (f === 'renew') kept.push({ path: c.path, spot: c.spot, depth: c.depth });
    }
  }
  if (same) return before;
  if (fresh.length === 0 && kept.length === ranked.length) return withList(kept, before.complete);
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

/** Ordered token pairs, looked up from either end. */
class PairSet {
  readonly byFrom = new Map<string, Set<string>>();
  readonly byTo = new Map<string, Set<string>>();

  add(a: string, b: string): void {
    let tos = this.byFrom.get(a);
    if (!tos) this.byFrom.set(a, (tos = new Set()));
    tos.add(b);
    let froms = this.byTo.get(b);
    if (!froms) this.byTo.set(b, (froms = new Set()));
    froms.add(a);
  }

  addAll(other: PairSet): void {
    for (const [a, tos] of other.byFrom) for (const b of tos) this.add(a, b);
  }

  has(from: string, to: string): boolean {
    return this.byFrom.get(from)?.has(to) === true;
  }
}

/**
 * What a version changed of the graph's pair lists, by the part of a list a candidate's hop can
 * be (candidates.ts): the best pool of a through pair (every hop of a path of two or more), the
 * best few of a through pair (a direct path's hop, a two-hop variant's, a candidate's parallel
 * pools) and the best few of an end-only pair (an end-only hop). A pair's part not listed holds
 * the same edge objects in the same order, so every sequence with no hop on a listed part is the
 * same candidate. With the graphs before and after, a pair goes in a part only when that part's
 * edges differ (a changed model's edges are new objects); without them, every pair of a changed
 * model goes in every part. Most of a crowded pair's pools are neither its best nor among its
 * best few, and a change to one of them touches no candidate at all.
 */
/** What a change (or several) did to a graph's pair lists, as a pair's carried candidates read it. */
export interface PairChanges extends PairFocus {
  /** Whether no candidate path can have changed. */
  readonly none: boolean;
  /** Whether no two-hop variant can have changed. */
  readonly noVariant: boolean;
  /** A ranked candidate path's fate (`TouchedPairs.pathFate`). */
  readonly pathFate: (c: Candidate) => Fate;
  /** A ranked two-hop variant's fate (`TouchedPairs.variantFate`). */
  readonly variantFate: (c: Candidate) => Fate;
}

export class TouchedPairs implements PairChanges {
  /** Through pairs whose best pool changed. */
  private readonly best = new PairSet();
  /** Through pairs whose best few changed (every pair of `best` too). */
  private readonly lists = new PairSet();
  /** End-only pairs whose best few changed. */
  private readonly ends = new PairSet();
  /**
   * Every hop a kept candidate can have on a listed part (the hops listed on those pairs in the
   * graph before the change), or undefined when not known: true when every candidate with it
   * changes (its pair's best pool changed, or it is end-only), false when only a direct one does
   * (and a longer one's parallel pools). A hop is one pool's one token pair, so one identity
   * lookup tells, without reading the pool's tokens (a pool model's fields are read through many
   * classes' shapes, which made that check the larger part of carrying a pair's candidates).
   */
  private readonly hops: Map<Hop, boolean> | undefined;

  /** `graphs`: the graph the change was made to and the one it made; without them every pair of `models` is listed. */
  constructor(models: Iterable<PoolModel>, graphs?: { readonly before: PairLists; readonly after: PairLists }) {
    const changed = [...models];
    if (!graphs) {
      for (const m of changed)
        for (const a of m.tokens)
          for (const b of m.tokens)
            if (a !== b) {
              this.best.add(a, b);
              this.lists.add(a, b);
              this.ends.add(a, b);
            }
      return;
    }
    const { before, after } = graphs;
    const hops = (this.hops = new Map());
    for (const m of changed)
      for (const a of m.tokens)
        for (const b of m.tokens) {
          if (a === b || this.lists.has(a, b) || this.ends.has(a, b)) continue;
          const was = before.between(a, b);
          const is = after.between(a, b);
          if (was[0] !== is[0]) {
            this.best.add(a, b);
            this.lists.add(a, b);
            for (const e of was) hops.set(e.hop, true);
          } else if (!sameEdges(was, is)) {
            this.lists.add(a, b);
            for (const e of was) if (!hops.get(e.hop)) hops.set(e.hop, false);
          }
          const wasEnds = before.lbpBetween(a, b);
          if (!sameEdges(wasEnds, after.lbpBetween(a, b))) {
            this.ends.add(a, b);
            for (const e of wasEnds) hops.set(e.hop, true);
          }
        }
  }

  /** The union of several steps' pairs (a pair carried across several versions). */
  static union(steps: readonly TouchedPairs[]): TouchedPairs {
    if (steps.length === 1) return steps[0]!;
    const known = steps.every((s) => s.hops !== undefined);
    const out = new TouchedPairs([], known ? { before: NO_PAIRS, after: NO_PAIRS } : undefined);
    for (const s of steps) {
      out.best.addAll(s.best);
      out.lists.addAll(s.lists);
      out.ends.addAll(s.ends);
      if (known) for (const [h, all] of s.hops!) if (!out.hops!.get(h)) out.hops!.set(h, all);
    }
    return out;
  }

  /** Its parts, for a `TouchLog` to record. */
  parts(): {
    readonly best: PairSet;
    readonly lists: PairSet;
    readonly ends: PairSet;
    readonly hops: ReadonlyMap<Hop, boolean> | undefined;
  } {
    return { best: this.best, lists: this.lists, ends: this.ends, hops: this.hops };
  }

  /** Whether no candidate path can have changed. */
  get none(): boolean {
    return this.lists.byFrom.size === 0 && this.ends.byFrom.size === 0;
  }

  /** Whether no two-hop variant can have changed. */
  get noVariant(): boolean {
    return this.lists.byFrom.size === 0;
  }

  has(from: string, to: string): boolean {
    return this.best.has(from, to);
  }

  hasList(from: string, to: string): boolean {
    return this.lists.has(from, to);
  }

  hasEnd(from: string, to: string): boolean {
    return this.ends.has(from, to);
  }

  fromOf(token: string): ReadonlySet<string> | undefined {
    return this.best.byFrom.get(token);
  }

  intoOf(token: string): ReadonlySet<string> | undefined {
    return this.best.byTo.get(token);
  }

  sources(): Iterable<string> {
    return this.best.byFrom.keys();
  }

  listFromOf(token: string): ReadonlySet<string> | undefined {
    return this.lists.byFrom.get(token);
  }

  listIntoOf(token: string): ReadonlySet<string> | undefined {
    return this.lists.byTo.get(token);
  }

  endsInto(token: string): ReadonlySet<string> | undefined {
    return this.ends.byTo.get(token);
  }

  /**
   * A ranked candidate path's fate: dropped with a hop on a listed part (the focused search finds
   * it again if it still is one), a copy when only its parallel pools changed (a through hop of a
   * longer path on a pair whose best few changed, not its best), else kept.
   */
  readonly pathFate = (c: Candidate): Fate => {
    const path = c.path;
    const hops = this.hops;
    // Without the graphs every part lists the same pairs: a hop on any of them changed the candidate.
    if (!hops) return path.some((h) => this.lists.has(h.pool.tokens[h.i]!, h.pool.tokens[h.j]!)) ? 'drop' : 'keep';
    let fate: Fate = 'keep';
    for (let k = 0; k < path.length; k++) {
      const all = hops.get(path[k]!);
      if (all === undefined) continue;
      if (all || path.length === 1) return 'drop';
      fate = 'renew';
    }
    return fate;
  };

  /** A ranked two-hop variant's fate: dropped with a hop on a pair whose best few changed. */
  readonly variantFate = (c: Candidate): Fate => {
    const hops = this.hops;
    for (const h of c.path) {
      if (hops ? hops.has(h) : this.lists.has(h.pool.tokens[h.i]!, h.pool.tokens[h.j]!)) return 'drop';
    }
    return 'keep';
  };
}

/** Ordered token pairs with the last epoch each was listed at, looked up from either end. */
class EpochPairs {
  readonly byFrom = new Map<string, Map<string, number>>();
  readonly byTo = new Map<string, Map<string, number>>();
  /** The last epoch any pair was listed at. */
  last = -1;

  record(pairs: PairSet, epoch: number): void {
    for (const [a, tos] of pairs.byFrom)
      for (const b of tos) {
        stamp(this.byFrom, a, b, epoch);
        stamp(this.byTo, b, a, epoch);
      }
    if (pairs.byFrom.size > 0) this.last = epoch;
  }

  has(from: string, to: string, since: number): boolean {
    return (this.byFrom.get(from)?.get(to) ?? -1) > since;
  }
}

function stamp(map: Map<string, Map<string, number>>, a: string, b: string, epoch: number): void {
  let inner = map.get(a);
  if (!inner) map.set(a, (inner = new Map()));
  inner.set(b, epoch);
}

/** The keys of `stamps` listed after `since`; undefined for none (as a `PairSet` answers a token it has no pair of). */
function after(stamps: ReadonlyMap<string, number> | undefined, since: number): ReadonlySet<string> | undefined {
  if (!stamps) return undefined;
  let out: Set<string> | undefined;
  for (const [k, at] of stamps) if (at > since) (out ??= new Set()).add(k);
  return out;
}

/**
 * When each part of a graph's pair lists last changed, over a line of versions each derived from
 * the one before (a lineage's epochs, engine.ts). What changed from an epoch to the last one
 * recorded is then a lookup (`since`), the same answers as the union of the steps between
 * (`TouchedPairs.union`), whose cost grew with the steps: on a chain whose time-dependent pools
 * move every block, a pair asked a few blocks ago unioned each block's changes anew.
 */
export class TouchLog {
  readonly best = new EpochPairs();
  readonly lists = new EpochPairs();
  readonly ends = new EpochPairs();
  /** Per hop, the last epoch it was listed at, and the last one it was listed at as changing every candidate. */
  readonly hops = new WeakMap<Hop, { any: number; all: number }>();

  /** Records epoch `epoch`'s change; false (nothing recorded) when it does not know its hops. */
  record(epoch: number, touched: TouchedPairs): boolean {
    const parts = touched.parts();
    if (!parts.hops) return false;
    this.best.record(parts.best, epoch);
    this.lists.record(parts.lists, epoch);
    this.ends.record(parts.ends, epoch);
    for (const [hop, all] of parts.hops) {
      const known = this.hops.get(hop);
      if (known) {
        known.any = epoch;
        if (all) known.all = epoch;
      } else this.hops.set(hop, { any: epoch, all: all ? epoch : -1 });
    }
    return true;
  }

  /** What the epochs after `since`, up to the last recorded, changed. */
  since(since: number): PairChanges {
    return new ChangesSince(this, since);
  }
}

/** `TouchLog.since`: each token's sets found once. */
class ChangesSince implements PairChanges {
  private readonly memo = new Map<string, ReadonlySet<string> | undefined>();
  private sourceSet: ReadonlySet<string> | undefined;

  constructor(
    private readonly log: TouchLog,
    private readonly from: number,
  ) {}

  private set(kind: string, stamps: ReadonlyMap<string, number> | undefined): ReadonlySet<string> | undefined {
    if (this.memo.has(kind)) return this.memo.get(kind);
    const set = after(stamps, this.from);
    this.memo.set(kind, set);
    return set;
  }

  get none(): boolean {
    return this.log.lists.last <= this.from && this.log.ends.last <= this.from;
  }

  get noVariant(): boolean {
    return this.log.lists.last <= this.from;
  }

  has(from: string, to: string): boolean {
    return this.log.best.has(from, to, this.from);
  }

  hasList(from: string, to: string): boolean {
    return this.log.lists.has(from, to, this.from);
  }

  hasEnd(from: string, to: string): boolean {
    return this.log.ends.has(from, to, this.from);
  }

  fromOf(token: string): ReadonlySet<string> | undefined {
    return this.set(`b>${token}`, this.log.best.byFrom.get(token));
  }

  intoOf(token: string): ReadonlySet<string> | undefined {
    return this.set(`b<${token}`, this.log.best.byTo.get(token));
  }

  sources(): Iterable<string> {
    if (!this.sourceSet) {
      const out = new Set<string>();
      for (const [a, tos] of this.log.best.byFrom) {
        for (const at of tos.values())
          if (at > this.from) {
            out.add(a);
            break;
          }
      }
      this.sourceSet = out;
    }
    return this.sourceSet;
  }

  listFromOf(token: string): ReadonlySet<string> | undefined {
    return this.set(`l>${token}`, this.log.lists.byFrom.get(token));
  }

  listIntoOf(token: string): ReadonlySet<string> | undefined {
    return this.set(`l<${token}`, this.log.lists.byTo.get(token));
  }

  endsInto(token: string): ReadonlySet<string> | undefined {
    return this.set(`e<${token}`, this.log.ends.byTo.get(token));
  }

  /** As `TouchedPairs.hops`: true when a listing after `from` changed every candidate with the hop, false when one changed only a direct one. */
  private hop(h: Hop): boolean | undefined {
    const at = this.log.hops.get(h);
    if (!at || at.any <= this.from) return undefined;
    return at.all > this.from;
  }

  readonly pathFate = (c: Candidate): Fate => {
    const path = c.path;
    let fate: Fate = 'keep';
    for (let k = 0; k < path.length; k++) {
      const all = this.hop(path[k]!);
      if (all === undefined) continue;
      if (all || path.length === 1) return 'drop';
      fate = 'renew';
    }
    return fate;
  };

  readonly variantFate = (c: Candidate): Fate => {
    for (const h of c.path) if (this.hop(h) !== undefined) return 'drop';
    return 'keep';
  };
}

function sameEdges(a: readonly Edge[], b: readonly Edge[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/** Where a graph lists the pools of a pair (graph.ts): every candidate's hop is taken from these lists. */
export interface PairLists {
  between(from: string, to: string): readonly Edge[];
  lbpBetween(from: string, to: string): readonly Edge[];
}

const NO_PAIRS: PairLists = { between: () => [], lbpBetween: () => [] };
