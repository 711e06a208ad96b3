import { candidatePaths, twoHopVariants, withParallelPools, type Candidate } from './candidates';
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
/** A change to more than this share of the pools builds the graph afresh rather than deriving it. */
const MAX_DERIVED_SHARE = 0.25;

/** Which of `before` are not in `after`, and which of `after` are new, by object identity. */
function changed<T>(before: readonly T[], after: readonly T[]): { removed: T[]; added: T[] } {
  const was = new Set(before);
  const is = new Set(after);
  return { removed: before.filter((m) => !is.has(m)), added: after.filter((m) => !was.has(m)) };
}

export class SwapEngine {
  readonly graph: PoolGraph;
  private readonly byId: Map<string, PoolModel>;
  private readonly pairs = new Map<string, Candidate[]>();
  private readonly pairVariants = new Map<string, Candidate[]>();
  /** Per candidate (fixed for the pool version): its parallel-pool variants, and its pools as a key. */
  private readonly parallel = new WeakMap<Candidate, Candidate[]>();
  private readonly keys = new WeakMap<Candidate, string>();
  /** Join/exit hops (joinExitPools.ts), their BPTs, and the graph with them, built on first use. */
  private readonly joinExitHops: readonly JoinExitPool[];
  private readonly joinExitBpts: ReadonlySet<string>;
  private joinExitGraph: PoolGraph | undefined;

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
    } = {},
  ) {
    this.byId = new Map(models.map((m) => [m.id, m]));
    this.joinExitHops = options.joinExit ? joinExitPools(models, options.hopCache) : [];
    this.joinExitBpts = new Set(this.joinExitHops.map((h) => h.address));
    const prev = options.previous;
    const change = prev ? changed(prev.models, models) : undefined;
    if (prev && change && change.removed.length + change.added.length <= models.length * MAX_DERIVED_SHARE) {
      this.graph = prev.graph.withChanges(change.removed, change.added, edgeCache);
      if (prev.joinExitGraph && this.joinExitHops.length > 0) {
        const hops = changed(prev.joinExitHops, this.joinExitHops);
        this.joinExitGraph = prev.joinExitGraph.withChanges(
          [...change.removed, ...hops.removed],
          [...change.added, ...hops.added],
          edgeCache,
        );
      }
    } else {
      this.graph = PoolGraph.build(models, edgeCache);
    }
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

  model(poolId: string): PoolModel | undefined {
    return this.byId.get(poolId.toLowerCase());
  }

  candidates(tokenIn: string, tokenOut: string, graph: PoolGraph = this.graph): Candidate[] {
    const key = `${tokenIn}>${tokenOut}${graph === this.graph ? '' : '+joins'}`;
    let list = this.pairs.get(key);
    if (!list) {
      list = candidatePaths(graph, tokenIn, tokenOut);
      if (this.pairs.size >= PAIR_CACHE) this.pairs.delete(this.pairs.keys().next().value!);
      this.pairs.set(key, list);
    }
    return list;
  }

  variants(tokenIn: string, tokenOut: string, graph: PoolGraph = this.graph): Candidate[] {
    const key = `${tokenIn}>${tokenOut}${graph === this.graph ? '' : '+joins'}`;
    let list = this.pairVariants.get(key);
    if (!list) {
      list = twoHopVariants(graph, tokenIn, tokenOut);
      if (this.pairVariants.size >= PAIR_CACHE) this.pairVariants.delete(this.pairVariants.keys().next().value!);
      this.pairVariants.set(key, list);
    }
    return list;
  }

  private parallelOf(graph: PoolGraph, c: Candidate): Candidate[] {
    let list = this.parallel.get(c);
    if (!list) {
      list = withParallelPools(graph, c);
      this.parallel.set(c, list);
    }
    return list;
  }

  private keyOf(c: Candidate): string {
    let key = this.keys.get(c);
    if (key === undefined) {
      key = c.path.map((h) => `${h.pool.id}:${h.i}:${h.j}`).join('/');
      this.keys.set(c, key);
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
