import {
  rankedFrom,
  TouchedPairs,
  TouchLog,
  updateRanked,
  type PairChanges,
  type RankedCandidates,
} from './candidateUpdates';
import { pairSequences, twoHopSequences, withParallelPools, type Candidate } from './candidates';
import { PoolGraph, type Edge } from './graph';
import { joinExitPools, type JoinExitPool } from './joinExitPools';
import type { PoolModel } from './poolModel';
import { replayBatchSwap } from './replay';
import { toBatchSwap, type OrderKind, type Route } from './route';
import { RouteSearch } from './search';
import { bestSplit, type Allocation } from './split';

/**
 * The routing engine over one pool set (one pool version): candidate paths per token pair
 * (cached), ranked by a float estimate, evaluated exactly, split when splitting pays. Pure and
 * synchronous; bigint amounts in and out.
 */

export interface EngineRequest {
  /** Lower-case addresses as the pools hold them (the wrapped native token, never a marker). */
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly kind: OrderKind;
  /** Sell: exact amount in; buy: exact amount out (raw units). */
  readonly amount: bigint;
  /** Gas of one swap step in raw units of `token`; 0n when gas is not priced. */
  readonly gasPerSwap: (token: string) => bigint;
  /** The best single path only, no split (a caller that feeds the route from one exact amount). */
  readonly singlePath?: boolean;
}

/** Candidate lists kept per engine (token pairs). */
const PAIR_CACHE = 4096;
/**
 * Candidates kept per lineage (a line of engines derived from one another: a chain's V2 engines at
 * one liquidity floor, its V3 engines), summed over its pairs' lists, least recently asked pair
 * dropped first. A candidate with its path, and the parallel pools and key kept beside it, is a few
 * hundred bytes: a dense pair's 600 cost about 100 KiB, and 4,096 of them would hold hundreds of
 * MiB on every thread. A thread quoting several chains gives each chain's lineages an equal share
 * (routing/routerHost.ts): the whole per chain kept its heap near its cap at three chains, where
 * full collections took half the CPU.
 */
export const CANDIDATE_BUDGET = 100_000;
/** A change to more than this share of the pools builds the graph afresh rather than deriving it. */
const MAX_DERIVED_SHARE = 0.25;
/**
 * Pairs `carryFrom` carries ahead, the most recently asked first: each costs a search through what
 * changed, and those of a busy block are what the next block is asked for again.
 */
const CARRY_AHEAD = 256;
/** Versions a pair's candidates are carried across; a pair not asked for that long is searched afresh. */
const MAX_STEPS = 32;

/** What one engine changed from the engine it was derived from, per graph: the touched pairs, or everything. */
interface Step {
  readonly parent: number;
  readonly through: TouchedPairs | 'rebuilt';
  readonly joins: TouchedPairs | 'rebuilt';
}

/** A pair's candidates and the engine (epoch) whose graph they are for. */
interface PairEntry {
  readonly epoch: number;
  readonly value: RankedCandidates;
}

/**
 * What the engines derived from one another share: each pair's latest candidates (any engine of
 * the line carries them to its own graph through the steps between), and per candidate object its
 * parallel pools and key, which hold as long as the candidate does (a carried candidate whose
 * parallel pools changed is a new object, candidateUpdates.ts).
 */
class Lineage {
  /** Read at each pair kept, so that a budget shared with lineages that come later shrinks. */
  constructor(private readonly budget: () => number) {}

  private next = 0;
  private readonly steps = new Map<number, Step>();
  /** Per graph: when each part of its pair lists last changed, along the line of epochs since `breakAt`. */
  private readonly logs = { through: new TouchLog(), joins: new TouchLog() };
  /**
   * Per graph: the last epoch its log cannot stand for (no step, derived from another epoch than
   * the one before it, or rebuilt): from there on each epoch's parent is the one before it.
   */
  private readonly breakAt = { through: 0, joins: 0 };
  /** Each pair's latest candidates, least recently asked first. */
  private readonly pairs = new Map<string, PairEntry>();
  /** Candidates in `pairs`, summed (`CANDIDATE_BUDGET`). */
  private held = 0;
  readonly parallel = new WeakMap<Candidate, Candidate[]>();
  readonly keys = new WeakMap<Candidate, string>();

  epoch(step: Omit<Step, 'parent'> | undefined, parent: number | undefined): number {
    const epoch = this.next++;
    if (step && parent !== undefined) this.steps.set(epoch, { ...step, parent });
    for (const graph of ['through', 'joins'] as const) {
      const touched = step?.[graph];
      if (parent !== epoch - 1 || touched === undefined || touched === 'rebuilt') this.breakAt[graph] = epoch;
      else if (!this.logs[graph].record(epoch, touched)) this.breakAt[graph] = epoch;
    }
    this.steps.delete(epoch - MAX_STEPS * 4);
    return epoch;
  }

  /** The changes from engine `from` to engine `to` (one of its descendants), or undefined when they cannot be told. */
  between(from: number, to: number, graph: 'through' | 'joins'): PairChanges | undefined {
    // The latest engine of a straight line: the log answers at once, whatever the steps between.
    if (to === this.next - 1 && from >= this.breakAt[graph] && to - from <= MAX_STEPS)
      return this.logs[graph].since(from);
    const touched: TouchedPairs[] = [];
    for (let at = to; at !== from;) {
      const step = this.steps.get(at);
      if (!step || at < from || touched.length >= MAX_STEPS) return undefined;
      const t = step[graph];
      if (t === 'rebuilt') return undefined;
      touched.push(t);
      at = step.parent;
    }
    return TouchedPairs.union(touched);
  }

  /** The pair's entry, now the most recently asked. */
  asked(key: string): PairEntry | undefined {
    const entry = this.pairs.get(key);
    if (entry) {
      this.pairs.delete(key);
      this.pairs.set(key, entry);
    }
    return entry;
  }

  get heldCandidates(): number {
    return this.held;
  }

  /** The entry of a pair, leaving its place in the recency order. */
  peek(key: string): PairEntry | undefined {
    return this.pairs.get(key);
  }

  /** The keys of the pairs whose latest candidates are at `epoch`, most recently asked first, at most `max`. */
  keysAt(epoch: number, max: number): string[] {
    const keys: string[] = [];
    for (const [key, entry] of this.pairs) if (entry.epoch === epoch) keys.push(key);
    return keys.reverse().slice(0, max);
  }

  remember(key: string, entry: PairEntry): void {
    const old = this.pairs.get(key);
    if (old) {
      this.pairs.delete(key);
      this.held -= old.value.ranked.length;
    }
    this.pairs.set(key, entry);
    this.held += entry.value.ranked.length;
    const budget = this.budget();
    for (const [k, e] of this.pairs) {
      if (k === key || (this.held <= budget && this.pairs.size <= PAIR_CACHE)) break;
      this.pairs.delete(k);
      this.held -= e.value.ranked.length;
    }
  }
}

/**
 * What the changed pools changed of their pairs' lists (candidateUpdates.ts), or 'rebuilt' when a pool that came or went is itself a token of
 * the graph: four-hop paths turn on which tokens are BPTs.
 */
function stepOf(
  removed: readonly PoolModel[],
  added: readonly PoolModel[],
  before: PoolGraph,
  after: PoolGraph,
): TouchedPairs | 'rebuilt' {
  const was = new Set(removed.map((m) => m.address));
  const is = new Set(added.map((m) => m.address));
  for (const a of was) if (!is.has(a) && (before.has(a) || after.has(a))) return 'rebuilt';
  for (const a of is) if (!was.has(a) && (before.has(a) || after.has(a))) return 'rebuilt';
  return new TouchedPairs([...removed, ...added], { before, after });
}

/**
 * Which of `before` are not in `after`, and which of `after` are new, by object identity. The
 * lists of two versions mostly hold the same objects in the same places: those are passed over
 * side by side, and only the rest compared as sets.
 */
function changed<T>(before: readonly T[], after: readonly T[]): { removed: T[]; added: T[] } {
  const removed: T[] = [];
  const added: T[] = [];
  const restBefore: T[] = [];
  const restAfter: T[] = [];
  const n = Math.min(before.length, after.length);
  for (let k = 0; k < n; k++) {
    if (before[k] === after[k]) continue;
    restBefore.push(before[k]!);
    restAfter.push(after[k]!);
  }
  restBefore.push(...before.slice(n));
  restAfter.push(...after.slice(n));
  if (restBefore.length + restAfter.length > 64) {
    const was = new Set(restBefore);
    const is = new Set(restAfter);
    for (const m of restBefore) if (!is.has(m)) removed.push(m);
    for (const m of restAfter) if (!was.has(m)) added.push(m);
  } else {
    for (const m of restBefore) if (!restAfter.includes(m)) removed.push(m);
    for (const m of restAfter) if (!restBefore.includes(m)) added.push(m);
  }
  return { removed, added };
}

export class SwapEngine {
  readonly graph: PoolGraph;
  private readonly byId: Map<string, PoolModel>;
  private readonly lineage: Lineage;
  private readonly epoch: number;
  /** Pairs whose latest candidates in the lineage belong to a later engine (a quote on an older version). */
  private readonly own = new Map<string, RankedCandidates>();
  /** Join/exit hops (joinExitPools.ts), their BPTs, and the graph with them, built on first use. */
  private readonly joinExitHops: readonly JoinExitPool[];
  private readonly joinExitBpts: ReadonlySet<string>;
  private joinExitGraph: PoolGraph | undefined;
  /** What `carryFrom` has left to carry. */
  private carrying: { readonly keys: readonly string[]; next: number } | undefined;

  /**
   * `joinExit`: sells may also join and exit pools, for chains whose batch relayer can send such
   * routes. They are searched only for a sell from or to a joinable pool's BPT, or one with no
   * candidate path without them: every token would otherwise gain a dead-end hop into each BPT it
   * is part of, which costs every search and never helps a token -> token pair.
   *
   * `previous`: the engine of an earlier pool version or timestamp. Its graphs are carried over
   * with the models that differ swapped (graph.ts `withChanges`), so a version that changes k
   * pools costs those k pools' pairs, not the universe.
   */
  constructor(
    private readonly models: readonly PoolModel[],
    private readonly edgeCache?: WeakMap<PoolModel, readonly Edge[]>,
    options: {
      readonly joinExit?: boolean;
      /** Join/exit hops already made for a model (kept by the owner, like `edgeCache`). */
      readonly hopCache?: WeakMap<PoolModel, JoinExitPool | null>;
      readonly previous?: SwapEngine;
      /**
       * Candidates the engines derived from this one keep, over all pairs (default
       * `CANDIDATE_BUDGET`); a function is read each time a pair's list is kept.
       */
      readonly candidateBudget?: number | (() => number);
    } = {},
  ) {
    this.joinExitHops = options.joinExit ? joinExitPools(models, options.hopCache) : [];
    this.joinExitBpts = new Set(this.joinExitHops.map((h) => h.address));
    const prev = options.previous;
    const change = prev ? changed(prev.models, models) : undefined;
    if (prev && change) {
      this.byId = new Map(prev.byId);
      for (const m of change.removed) this.byId.delete(m.id);
      for (const m of change.added) this.byId.set(m.id, m);
    } else {
      this.byId = new Map(models.map((m) => [m.id, m]));
    }
    let through: TouchedPairs | 'rebuilt' = 'rebuilt';
    let joins: TouchedPairs | 'rebuilt' = 'rebuilt';
    if (prev && change && change.removed.length + change.added.length <= models.length * MAX_DERIVED_SHARE) {
      this.graph = prev.graph.withChanges(change.removed, change.added, edgeCache);
      through = stepOf(change.removed, change.added, prev.graph, this.graph);
      if (prev.joinExitGraph && this.joinExitHops.length > 0) {
        const hops = changed(prev.joinExitHops, this.joinExitHops);
        const removed = [...change.removed, ...hops.removed];
        const added = [...change.added, ...hops.added];
        this.joinExitGraph = prev.joinExitGraph.withChanges(removed, added, edgeCache);
        joins = stepOf(removed, added, prev.joinExitGraph, this.joinExitGraph);
      }
    } else {
      this.graph = PoolGraph.build(models, edgeCache);
    }
    const budget = options.candidateBudget ?? CANDIDATE_BUDGET;
    this.lineage = prev?.lineage ?? new Lineage(typeof budget === 'number' ? () => budget : budget);
    this.epoch = this.lineage.epoch(prev ? { through, joins } : undefined, prev?.epoch);
  }

  private graphFor(kind: OrderKind, tokenIn: string, tokenOut: string): PoolGraph {
    if (kind === 'buy' || this.joinExitHops.length === 0) return this.graph;
    if (
      this.joinExitBpts.has(tokenIn) ||
      this.joinExitBpts.has(tokenOut) ||
      this.candidates(tokenIn, tokenOut).length === 0
    ) {
      return (this.joinExitGraph ??= PoolGraph.build([...this.models, ...this.joinExitHops], this.edgeCache));
    }
    return this.graph;
  }

  /** Candidates this engine's lineage keeps for its pairs now (at most its budget, or one pair's list). */
  get heldCandidates(): number {
    return this.lineage.heldCandidates;
  }

  model(poolId: string): PoolModel | undefined {
    return this.byId.get(poolId.toLowerCase());
  }

  candidates(tokenIn: string, tokenOut: string, graph: PoolGraph = this.graph): readonly Candidate[] {
    return this.ranked('paths', tokenIn, tokenOut, graph).list;
  }

  variants(tokenIn: string, tokenOut: string, graph: PoolGraph = this.graph): readonly Candidate[] {
    return this.ranked('variants', tokenIn, tokenOut, graph).list;
  }

  /**
   * A pair's ranked candidates (or two-hop variants) on this engine's graph: the lineage's latest
   * ones carried across the versions since (candidateUpdates.ts), else a search from nothing.
   */
  private ranked(what: 'paths' | 'variants', tokenIn: string, tokenOut: string, graph: PoolGraph): RankedCandidates {
    const which = graph === this.graph ? 'through' : 'joins';
    const key = `${what}|${tokenIn}>${tokenOut}|${which}`;
    const search = what === 'paths' ? pairSequences : twoHopSequences;
    const own = this.own.get(key);
    if (own) return own;
    const entry = this.lineage.asked(key);
    if (entry?.epoch === this.epoch) return entry.value;
    let value: RankedCandidates | undefined;
    if (entry && entry.epoch < this.epoch) {
      const touched = this.lineage.between(entry.epoch, this.epoch, which);
      if (touched && what === 'paths')
        value = touched.none
          ? entry.value
          : updateRanked(entry.value, touched.pathFate, pairSequences(graph, tokenIn, tokenOut, touched));
      else if (touched)
        value = touched.noVariant
          ? entry.value
          : updateRanked(entry.value, touched.variantFate, twoHopSequences(graph, tokenIn, tokenOut, touched));
    }
    value ??= rankedFrom(search(graph, tokenIn, tokenOut));
    if (!entry || entry.epoch <= this.epoch) this.lineage.remember(key, { epoch: this.epoch, value });
    else this.keepOwn(key, value);
    return value;
  }

  /**
   * Carries here, ahead of quotes, the candidates of the pairs last asked on `from` (the engine
   * this one derives from: the block's before, priced at the time this one is), until `enough()`
   * (one pair at least per call). The first quote of each pair here then pays for its route alone,
   * not for a search through every pool that moved with time. `from` keeps its own lists of them,
   * so its quotes until the next block do not search afresh. True once every such pair is carried.
   */
  carryFrom(from: SwapEngine, enough: () => boolean): boolean {
    if (from.lineage !== this.lineage || from.epoch >= this.epoch) return true;
    const carrying = (this.carrying ??= { keys: this.lineage.keysAt(from.epoch, CARRY_AHEAD), next: 0 });
    const start = carrying.next;
    while (carrying.next < carrying.keys.length) {
      if (carrying.next > start && enough()) return false;
      const key = carrying.keys[carrying.next++]!;
      const entry = this.lineage.peek(key);
      // Asked on a later engine meanwhile: carried there already.
      if (entry?.epoch !== from.epoch) continue;
      const [what, pair, which] = key.split('|') as ['paths' | 'variants', string, 'through' | 'joins'];
      const graph = which === 'through' ? this.graph : this.joinExitGraph;
      if (!graph) continue;
      from.keepOwn(key, entry.value);
      const [tokenIn, tokenOut] = pair.split('>') as [string, string];
      this.ranked(what, tokenIn, tokenOut, graph);
    }
    return true;
  }

  /**
   * Lets go of the lists this engine keeps apart from its lineage (`carryFrom`'s, a quote's on an
   * older version): once a later engine serves the chain, they would only hold memory.
   */
  dropOwnLists(): void {
    this.own.clear();
  }

  private keepOwn(key: string, value: RankedCandidates): void {
    if (this.own.size >= PAIR_CACHE) this.own.delete(this.own.keys().next().value!);
    this.own.set(key, value);
  }

  private parallelOf(graph: PoolGraph, c: Candidate): Candidate[] {
    let list = this.lineage.parallel.get(c);
    if (!list) {
      list = withParallelPools(graph, c);
      this.lineage.parallel.set(c, list);
    }
    return list;
  }

  private keyOf(c: Candidate): string {
    let key = this.lineage.keys.get(c);
    if (key === undefined) {
      key = c.path.map((h) => `${h.pool.id}:${h.i}:${h.j}`).join('/');
      this.lineage.keys.set(c, key);
    }
    return key;
  }

  /**
   * The route for one order, in named stages (search.ts): the pair's candidates, a shortlist by
   * float estimate, the exact single-path contest, then, unless one path is asked for or a split
   * could add nothing worth having, split partners and the split search over pool-disjoint sets.
   */
  route(req: EngineRequest): Route | undefined {
    const { kind, amount } = req;
    if (amount <= 0n) return undefined;
    const graph = this.graphFor(kind, req.tokenIn, req.tokenOut);
    const all = this.candidates(req.tokenIn, req.tokenOut, graph);
    if (all.length === 0) return undefined;
    const search = new RouteSearch(
      { kind, amount, tokenIn: req.tokenIn, tokenOut: req.tokenOut, gasPerSwap: req.gasPerSwap(returnToken(req)) },
      graph,
      all,
    );
    const shortlist = search.shortlist({ keyOf: (c) => this.keyOf(c), parallelOf: (c) => this.parallelOf(graph, c) });
    const contenders = search.contenders(shortlist);
    const single = search.bestSingle(contenders);
    if (req.singlePath)
      return single.allocation ? this.finish(req, single.allocation, [...shortlist, ...all]) : undefined;

    const partners = search.partners(shortlist, single, () => this.variants(req.tokenIn, req.tokenOut, graph));
    if (single.allocation && search.splitNegligible(single, partners))
      return this.finish(req, single.allocation, [...shortlist, ...all]);
    let best = single.allocation;
    for (const set of search.partnerSets(partners, single, contenders))
      best = bestSplit(set, amount, search.quotes, best);
    if (!best || best.total <= 0n) return undefined;
    return this.finish(req, best, [...shortlist, ...all, ...partners.variants]);
  }

  private finish(req: EngineRequest, best: Allocation, known: readonly Candidate[]): Route | undefined {
    const { kind, amount } = req;
    const paths = best.parts.map((p) => ({ path: p.path, given: p.given, result: p.result }));
    const draft = { kind, tokenIn: req.tokenIn, tokenOut: req.tokenOut, paths };
    // The answer is the Vault's own replay of the batch, not the sum the search saw.
    const batch = toBatchSwap(draft);
    const replay = replayBatchSwap(kind, batch.steps, batch.assets, (id) => this.byId.get(id));
    if (!replay.ok) return undefined;
    const returnAmount = kind === 'sell' ? -replay.deltas[1]! : replay.deltas[0]!;
    if (returnAmount <= 0n) return undefined;
    // The route's price before the trade: each path's spot price weighted by its share of the
    // order (a shallow pool at a better price carries little, so it moves this little).
    const spots = new Map(known.map((c) => [c.path, c.spot]));
    const shares = paths.map((p) => [Number(p.given) / Number(amount), spots.get(p.path) ?? Infinity] as const);
    const spotPrice =
      kind === 'sell'
        ? 1 / shares.reduce((sum, [w, spot]) => sum + w / spot, 0)
        : shares.reduce((sum, [w, spot]) => sum + w * spot, 0);
    return { ...draft, amount, returnAmount, stepAmounts: replay.amounts, gasCost: best.gas, spotPrice };
  }
}

/** The token the order's open side is paid in: what a sell returns, what a buy costs. */
function returnToken(req: EngineRequest): string {
  return req.kind === 'sell' ? req.tokenOut : req.tokenIn;
}
