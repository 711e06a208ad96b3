import { candidatePaths, twoHopVariants, withParallelPools, type Candidate } from './candidates';
import { PoolGraph, type Edge } from './graph';
import { joinExitPools, type JoinExitPool } from './joinExitPools';
import type { PoolModel, PoolState } from './poolModel';
import { replayBatchSwap } from './replay';
import { StateBook, toBatchSwap, type OrderKind, type Route } from './route';
import { QuoteCache } from './evaluate';
import { bestSplit, MAX_PATHS, value, type Allocation, type PathCost } from './split';

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

/** Paths the exact stage evaluates per quote, and sequences whose parallel pools it tries. */
const EXACT_CANDIDATES = 10;
const EXPANDED_SEQUENCES = 6;
/** Candidates (best spot first) scanned for split partners beyond the exact stage's. */
const PARTNER_SCAN = 200;
/** Pool-disjoint paths handed to the split search, which keeps at most MAX_PATHS of them. */
const SPLIT_CANDIDATES = 6;
/** Leading partner candidates measured exactly once before the split picks among them. */
const PARTNER_PROBES = 12;
/** Relative gain below which a split is not searched for (the differential suite's tolerance is 1e-7). */
const NEGLIGIBLE_GAIN = 1e-8;
/** Candidate lists kept per engine (token pairs). */
const PAIR_CACHE = 4096;

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
   */
  constructor(
    private readonly models: readonly PoolModel[],
    private readonly edgeCache?: WeakMap<PoolModel, readonly Edge[]>,
    options: {
      readonly joinExit?: boolean;
      /** Join/exit hops already made for a model (kept by the owner, like `edgeCache`). */
      readonly hopCache?: WeakMap<PoolModel, JoinExitPool | null>;
    } = {},
  ) {
    this.graph = new PoolGraph(models, edgeCache);
    this.byId = new Map(models.map((m) => [m.id, m]));
    this.joinExitHops = options.joinExit ? joinExitPools(models, options.hopCache) : [];
    this.joinExitBpts = new Set(this.joinExitHops.map((h) => h.address));
  }

  private graphFor(kind: OrderKind, tokenIn: string, tokenOut: string): PoolGraph {
    if (kind === 'buy' || this.joinExitHops.length === 0) return this.graph;
    if (
      this.joinExitBpts.has(tokenIn) ||
      this.joinExitBpts.has(tokenOut) ||
      this.candidates(tokenIn, tokenOut).length === 0
    ) {
      return (this.joinExitGraph ??= new PoolGraph([...this.models, ...this.joinExitHops], this.edgeCache));
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

  route(req: EngineRequest): Route | undefined {
    const { kind, amount } = req;
    if (amount <= 0n) return undefined;
    const graph = this.graphFor(kind, req.tokenIn, req.tokenOut);
    const all = this.candidates(req.tokenIn, req.tokenOut, graph);
    if (all.length === 0) return undefined;
    const returnToken = kind === 'sell' ? req.tokenOut : req.tokenIn;
    const gasPerSwap = req.gasPerSwap(returnToken);
    const gasFloat = Number(gasPerSwap) / 10 ** (graph.decimals.get(returnToken) ?? 18);
    const human = Number(amount) / 10 ** (graph.decimals.get(kind === 'sell' ? req.tokenIn : req.tokenOut) ?? 18);

    // Float estimate of each path's net value: spot price, softened by the path's depth.
    const estimates = new Map<Candidate, number>();
    const estimate = (c: Candidate): number => {
      let e = estimates.get(c);
      if (e === undefined) {
        e = roughValue(c);
        estimates.set(c, e);
      }
      return e;
    };
    const roughValue = (c: Candidate): number => {
      if (kind === 'sell') {
        const atSpot = human / c.spot;
        return (atSpot * c.depth) / (c.depth + atSpot) - gasFloat * c.path.length;
      }
      if (human >= c.depth) return -Infinity;
      return -((human * c.spot * c.depth) / (c.depth - human) + gasFloat * c.path.length);
    };
    const byEstimate = rank(all, estimate);
    const ranked = byEstimate.slice(0, EXPANDED_SEQUENCES);
    const seen = new Set<string>();
    const pool: Candidate[] = [];
    for (const c of [
      ...ranked,
      ...ranked.flatMap((c) => this.parallelOf(graph, c)),
      ...byEstimate.slice(EXPANDED_SEQUENCES, EXACT_CANDIDATES * 2),
    ]) {
      const k = this.keyOf(c);
      if (!seen.has(k)) {
        seen.add(k);
        pool.push(c);
      }
    }
    // The exact stage: the best estimates compete as single paths.
    // Direct pools always compete: the estimate is only a float sketch of depth.
    const direct = all.filter((c) => c.path.length === 1);
    const chosen = [
      ...new Set([
        ...direct,
        ...rank(pool, (c) => (Number.isFinite(estimate(c)) ? estimate(c) : -1e300 + c.depth)).slice(
          0,
          EXACT_CANDIDATES,
        ),
      ]),
    ];
    const book = new StateBook();
    const stateOf = (m: PoolModel): PoolState => book.of(m);
    const quotes = new QuoteCache(kind, stateOf);
    // The most the pool taking the given amount accepts (the graph read it with the edge).
    const limitOf = (c: Candidate): bigint | undefined => {
      const edge = graph.edgeOf(c.path[kind === 'sell' ? 0 : c.path.length - 1]!);
      return edge && (kind === 'sell' ? edge.maxIn : edge.maxOut);
    };
    const gasOf = (c: Candidate) => gasPerSwap * BigInt(c.path.length);
    let single: Allocation | undefined;
    let singleCandidate: Candidate | undefined;
    for (const c of chosen) {
      if ((limitOf(c) ?? amount) < amount) continue;
      const result = quotes.result(c.path, amount);
      if (result === undefined) continue;
      const s: Allocation = { parts: [{ path: c.path, given: amount, result }], total: result, gas: gasOf(c) };
      if (!single || value(kind, s) > value(kind, single)) {
        single = s;
        singleCandidate = c;
      }
    }

    if (req.singlePath) return single ? this.finish(req, single, [...pool, ...all]) : undefined;

    // Split partners: what a path could add next to the best single path, from its spot price
    // against the best path's marginal rate after the whole order, and its depth (constant-product
    // estimate: depth x (sqrt(spot rate) - sqrt(marginal))^2). Pool-disjoint, best first.
    const decIn = graph.decimals.get(req.tokenIn) ?? 18;
    const decOut = graph.decimals.get(req.tokenOut) ?? 18;
    const rawRate = (spot: number) => (kind === 'sell' ? 10 ** (decOut - decIn) / spot : spot * 10 ** (decIn - decOut));
    const lambda = singleCandidate ? quotes.marginal(singleCandidate.path, amount) : undefined;
    const benefits = new Map<Candidate, number>();
    const benefit = (c: Candidate): number => {
      let b = benefits.get(c);
      if (b === undefined) {
        b = roughBenefit(c);
        benefits.set(c, b);
      }
      return b;
    };
    const roughBenefit = (c: Candidate): number => {
      const m0 = rawRate(c.spot);
      const depthGiven = kind === 'sell' ? c.depth * c.spot * 10 ** decIn : c.depth * 10 ** decOut;
      if (lambda === undefined) return depthGiven;
      const gain = kind === 'sell' ? Math.sqrt(m0) - Math.sqrt(lambda) : Math.sqrt(lambda) - Math.sqrt(m0);
      return gain > 0 ? depthGiven * gain * gain : 0;
    };
    const rough = rank([...new Set([...pool, ...all.slice(0, PARTNER_SCAN)])], benefit).filter((c) => benefit(c) > 0);
    // The depth estimate is rough (limits, not curvature): the leading partners are probed once
    // exactly and their benefit re-fitted to the measured marginal before they are chosen.
    // Each probe is taken where the rough fit puts the path's share at the leader's marginal rate
    // (halved until the path can carry it), so the re-fit describes the part that matters.
    const probe = (c: Candidate): number => {
      if (lambda === undefined) return benefit(c);
      const m0 = rawRate(c.spot);
      const depthGiven = kind === 'sell' ? c.depth * c.spot * 10 ** decIn : c.depth * 10 ** decOut;
      const share = depthGiven * (kind === 'sell' ? Math.sqrt(m0 / lambda) - 1 : 1 - Math.sqrt(m0 / lambda));
      let given = share > 0 && share < Number(amount) ? BigInt(Math.floor(share)) : amount;
      const limit = limitOf(c);
      if (limit !== undefined && limit < given) given = limit;
      let m: number | undefined;
      for (let tries = 0; tries < 4 && given > 0n && m === undefined; tries++) {
        m = quotes.marginal(c.path, given);
        if (m === undefined) given /= 4n;
      }
      if (m === undefined || given === 0n) return 0;
      const ratio = Math.sqrt(m0 / m);
      const denom = kind === 'sell' ? ratio - 1 : 1 - ratio;
      const depth = denom > 1e-15 ? Number(given) / denom : Infinity;
      const gain = kind === 'sell' ? Math.sqrt(m0) - Math.sqrt(lambda) : Math.sqrt(lambda) - Math.sqrt(m0);
      return gain > 0 ? Math.min(depth, 1e300) * gain * gain : 0;
    };
    const measured = new Map(rough.slice(0, PARTNER_PROBES).map((c) => [c, probe(c)] as const));
    const partners = rank(rough, (c) => measured.get(c) ?? benefit(c)).filter(
      (c) => (measured.get(c) ?? benefit(c)) > 0,
    );
    // A small order on a deep path: what any split could add is below the answer's precision
    // worth having, so the single path stands without the split search.
    const score = (c: Candidate) => measured.get(c) ?? benefit(c);
    // Two-hop paths through the other pools of their hops compete in a partner set of their own
    // (added, not mixed in: they share pools with the paths above, and a noisy estimate would
    // otherwise push a better partner out of the sets that already work).
    const variants = this.variants(req.tokenIn, req.tokenOut, graph).filter((c) => benefit(c) > 0);
    const wideRough = rank([...rough, ...variants], benefit);
    for (const c of wideRough.slice(0, PARTNER_PROBES)) if (!measured.has(c)) measured.set(c, probe(c));
    const wide = rank(wideRough, score).filter((c) => score(c) > 0);
    const possibleGain = Math.max(
      ...[partners, wide].map((list) => list.slice(0, MAX_PATHS).reduce((sum, c) => sum + score(c), 0)),
    );
    if (single && possibleGain < Number(single.total) * NEGLIGIBLE_GAIN)
      return this.finish(req, single, [...pool, ...all]);
    // Two pool-disjoint partner sets: by benefit, and by benefit per hop squared (a long path
    // through a shared pool can otherwise shut out a shorter, better one).
    const disjointSet = (order: readonly Candidate[], leader = singleCandidate): PathCost[] => {
      const set: PathCost[] = [];
      const used = new Set<string>();
      for (const c of [...(leader ? [leader] : []), ...order, ...chosen]) {
        if (set.length >= SPLIT_CANDIDATES) break;
        if (c.path.some((h) => used.has(h.pool.id))) continue;
        c.path.forEach((h) => used.add(h.pool.id));
        set.push({ path: c.path, gas: gasOf(c), limit: limitOf(c) });
      }
      return set;
    };
    const byBenefit = disjointSet(partners);
    const byShortBenefit = disjointSet(rank(partners, (c) => score(c) / c.path.length ** 2));
    // A third set led by the best direct pool: the best part of a large order is often a pool
    // that cannot take all of it, so no feasible single path leads there.
    const leaders = direct
      .filter((c) => (kind === 'sell' ? c.depth * c.spot : c.depth) >= human * 0.01)
      .sort((a, b) => a.spot - b.spot);
    const byDirect = leaders[0] ? disjointSet(partners, leaders[0]) : [];
    const byWide = variants.length > 0 ? disjointSet(wide) : [];
    const sets = [byBenefit, byShortBenefit, byDirect, byWide].filter(
      (set, k, all) => set.length > 0 && all.findIndex((o) => sameSet(o, set)) === k,
    );
    let best = single;
    for (const set of sets) best = bestSplit(set, amount, quotes, best);
    if (!best) return undefined;
    if (kind === 'sell' ? best.total <= 0n : best.total <= 0n) return undefined;

    return this.finish(req, best, [...pool, ...all, ...variants]);
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

function rank(list: readonly Candidate[], estimate: (c: Candidate) => number): Candidate[] {
  return list
    .map((c) => [c, estimate(c)] as const)
    .sort((a, b) => b[1] - a[1])
    .map(([c]) => c);
}

function sameSet(a: readonly PathCost[], b: readonly PathCost[]): boolean {
  return a.length === b.length && a.every((p, k) => p.path === b[k]!.path);
}
