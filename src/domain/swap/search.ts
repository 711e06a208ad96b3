import type { Candidate } from './candidates';
import { QuoteCache } from './evaluate';
import type { PoolGraph } from './graph';
import type { PoolModel, PoolState } from './poolModel';
import { StateBook, type OrderKind } from './route';
import { MAX_PATHS, value, type Allocation, type PathCost } from './split';

/**
 * One quote's search over a pair's candidate paths, in the stages `SwapEngine.route` runs: a
 * shortlist by float estimate, the exact single-path contest, split partners (estimated, a few
 * probed exactly), and the pool-disjoint partner sets the split search starts from. Float figures
 * only rank; every amount is an exact bigint from the quote cache.
 */

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

export interface SearchRequest {
  readonly kind: OrderKind;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly amount: bigint;
  /** Gas of one swap step in raw units of the token the order returns. */
  readonly gasPerSwap: bigint;
}

/** What the engine keeps per pool version and lends the search. */
export interface SearchLookups {
  /** A candidate's pools as a key (fixed per candidate). */
  keyOf(c: Candidate): string;
  /** A sequence through the other pools of its hops. */
  parallelOf(c: Candidate): Candidate[];
}

/** The exact stage's outcome: the best path that carries the whole order, if any. */
export interface SingleBest {
  readonly allocation: Allocation | undefined;
  readonly candidate: Candidate | undefined;
}

/** Split partners of the best single path, best first, with the score they were ranked by. */
export interface Partners {
  /** By measured (else estimated) benefit, before the two-hop variants were probed. */
  readonly byBenefit: readonly Candidate[];
  /** With the two-hop variants. */
  readonly wide: readonly Candidate[];
  readonly variants: readonly Candidate[];
  readonly score: (c: Candidate) => number;
}

export class RouteSearch {
  readonly quotes: QuoteCache;
  private readonly gasFloat: number;
  /** The order's amount in human units of the token it fixes. */
  private readonly human: number;
  private readonly decIn: number;
  private readonly decOut: number;
  private readonly estimates = new Map<Candidate, number>();
  private readonly benefits = new Map<Candidate, number>();

  constructor(
    private readonly req: SearchRequest,
    private readonly graph: PoolGraph,
    /** Every candidate path of the pair, best spot first. */
    private readonly all: readonly Candidate[],
  ) {
    const { kind, amount, tokenIn, tokenOut } = req;
    const book = new StateBook();
    const stateOf = (m: PoolModel): PoolState => book.of(m);
    this.quotes = new QuoteCache(kind, stateOf);
    const returnToken = kind === 'sell' ? tokenOut : tokenIn;
    this.gasFloat = Number(req.gasPerSwap) / 10 ** (graph.decimals.get(returnToken) ?? 18);
    this.human = Number(amount) / 10 ** (graph.decimals.get(kind === 'sell' ? tokenIn : tokenOut) ?? 18);
    this.decIn = graph.decimals.get(tokenIn) ?? 18;
    this.decOut = graph.decimals.get(tokenOut) ?? 18;
  }

  /** Float estimate of a path's net value: spot price, softened by the path's depth. */
  estimate(c: Candidate): number {
    let e = this.estimates.get(c);
    if (e === undefined) {
      e = this.roughValue(c);
      this.estimates.set(c, e);
    }
    return e;
  }

  private roughValue(c: Candidate): number {
    const { human, gasFloat } = this;
    if (this.req.kind === 'sell') {
      const atSpot = human / c.spot;
      return (atSpot * c.depth) / (c.depth + atSpot) - gasFloat * c.path.length;
    }
    if (human >= c.depth) return -Infinity;
    return -((human * c.spot * c.depth) / (c.depth - human) + gasFloat * c.path.length);
  }

  /** The most the pool taking the given amount accepts (the graph read it with the edge). */
  limitOf(c: Candidate): bigint | undefined {
    const { kind } = this.req;
    const edge = this.graph.edgeOf(c.path[kind === 'sell' ? 0 : c.path.length - 1]!);
    return edge && (kind === 'sell' ? edge.maxIn : edge.maxOut);
  }

  gasOf(c: Candidate): bigint {
    return this.req.gasPerSwap * BigInt(c.path.length);
  }

  /**
   * Stage 1: the best estimates, the parallel pools of the leading sequences, and the next
   * estimates, one entry per distinct path.
   */
  shortlist(lookups: SearchLookups): Candidate[] {
    const byEstimate = rank(this.all, (c) => this.estimate(c));
    const ranked = byEstimate.slice(0, EXPANDED_SEQUENCES);
    const seen = new Set<string>();
    const out: Candidate[] = [];
    for (const c of [
      ...ranked,
      ...ranked.flatMap((c) => lookups.parallelOf(c)),
      ...byEstimate.slice(EXPANDED_SEQUENCES, EXACT_CANDIDATES * 2),
    ]) {
      const k = lookups.keyOf(c);
      if (!seen.has(k)) {
        seen.add(k);
        out.push(c);
      }
    }
    return out;
  }

  /** Direct pools: they always compete, the estimate is only a float sketch of depth. */
  direct(): Candidate[] {
    return this.all.filter((c) => c.path.length === 1);
  }

  /** Stage 2: the paths that compete exactly as single paths: every direct pool and the best estimates. */
  contenders(shortlist: readonly Candidate[]): Candidate[] {
    const estimate = (c: Candidate) => this.estimate(c);
    return [
      ...new Set([
        ...this.direct(),
        ...rank(shortlist, (c) => (Number.isFinite(estimate(c)) ? estimate(c) : -1e300 + c.depth)).slice(
          0,
          EXACT_CANDIDATES,
        ),
      ]),
    ];
  }

  /** Stage 3: the best contender that carries the whole order, measured exactly. */
  bestSingle(contenders: readonly Candidate[]): SingleBest {
    const { kind, amount } = this.req;
    let allocation: Allocation | undefined;
    let candidate: Candidate | undefined;
    for (const c of contenders) {
      if ((this.limitOf(c) ?? amount) < amount) continue;
      const result = this.quotes.result(c.path, amount);
      if (result === undefined) continue;
      const s: Allocation = { parts: [{ path: c.path, given: amount, result }], total: result, gas: this.gasOf(c) };
      if (!allocation || value(kind, s) > value(kind, allocation)) {
        allocation = s;
        candidate = c;
      }
    }
    return { allocation, candidate };
  }

  /**
   * Stage 4: what a path could add next to the best single path, from its spot price against the
   * best path's marginal rate after the whole order, and its depth (constant-product estimate:
   * depth x (sqrt(spot rate) - sqrt(marginal))^2). The estimate is rough (limits, not curvature):
   * the leading partners are probed once exactly and their benefit re-fitted to the measured
   * marginal before they are ranked. Two-hop paths through the other pools of their hops
   * (`variants`) compete in a list of their own (added, not mixed in: they share pools with the
   * paths above, and a noisy estimate would otherwise push a better partner out of the sets that
   * already work).
   */
  partners(shortlist: readonly Candidate[], single: SingleBest, variantsOf: () => readonly Candidate[]): Partners {
    const lambda = single.candidate ? this.quotes.marginal(single.candidate.path, this.req.amount) : undefined;
    const benefit = (c: Candidate) => this.benefit(c, lambda);
    const rough = rank([...new Set([...shortlist, ...this.all.slice(0, PARTNER_SCAN)])], benefit).filter(
      (c) => benefit(c) > 0,
    );
    const measured = new Map(rough.slice(0, PARTNER_PROBES).map((c) => [c, this.probe(c, lambda)] as const));
    const byBenefit = rank(rough, (c) => measured.get(c) ?? benefit(c)).filter(
      (c) => (measured.get(c) ?? benefit(c)) > 0,
    );
    const score = (c: Candidate) => measured.get(c) ?? benefit(c);
    const variants = variantsOf().filter((c) => benefit(c) > 0);
    const wideRough = rank([...rough, ...variants], benefit);
    for (const c of wideRough.slice(0, PARTNER_PROBES)) if (!measured.has(c)) measured.set(c, this.probe(c, lambda));
    const wide = rank(wideRough, score).filter((c) => score(c) > 0);
    return { byBenefit, wide, variants, score };
  }

  /**
   * A small order on a deep path: what any split could add is below the answer's precision worth
   * having, so the single path stands without the split search.
   */
  splitNegligible(single: SingleBest, partners: Partners): boolean {
    const possibleGain = Math.max(
      ...[partners.byBenefit, partners.wide].map((list) =>
        list.slice(0, MAX_PATHS).reduce((sum, c) => sum + partners.score(c), 0),
      ),
    );
    return single.allocation !== undefined && possibleGain < Number(single.allocation.total) * NEGLIGIBLE_GAIN;
  }

  /**
   * Stage 5: the pool-disjoint path sets the split search starts from: by benefit, by benefit per
   * hop squared (a long path through a shared pool can otherwise shut out a shorter, better one),
   * led by the best direct pool (the best part of a large order is often a pool that cannot take
   * all of it, so no feasible single path leads there), and with the two-hop variants.
   */
  partnerSets(partners: Partners, single: SingleBest, contenders: readonly Candidate[]): PathCost[][] {
    const { kind } = this.req;
    const disjointSet = (order: readonly Candidate[], leader = single.candidate): PathCost[] => {
      const set: PathCost[] = [];
      const used = new Set<string>();
      for (const c of [...(leader ? [leader] : []), ...order, ...contenders]) {
        if (set.length >= SPLIT_CANDIDATES) break;
        if (c.path.some((h) => used.has(h.pool.id))) continue;
        c.path.forEach((h) => used.add(h.pool.id));
        set.push({ path: c.path, gas: this.gasOf(c), limit: this.limitOf(c) });
      }
      return set;
    };
    const byBenefit = disjointSet(partners.byBenefit);
    const byShortBenefit = disjointSet(rank(partners.byBenefit, (c) => partners.score(c) / c.path.length ** 2));
    const leaders = this.direct()
      .filter((c) => (kind === 'sell' ? c.depth * c.spot : c.depth) >= this.human * 0.01)
      .sort((a, b) => a.spot - b.spot);
    const byDirect = leaders[0] ? disjointSet(partners.byBenefit, leaders[0]) : [];
    const byWide = partners.variants.length > 0 ? disjointSet(partners.wide) : [];
    return [byBenefit, byShortBenefit, byDirect, byWide].filter(
      (set, k, all) => set.length > 0 && all.findIndex((o) => sameSet(o, set)) === k,
    );
  }

  private rawRate(spot: number): number {
    return this.req.kind === 'sell' ? 10 ** (this.decOut - this.decIn) / spot : spot * 10 ** (this.decIn - this.decOut);
  }

  private depthGiven(c: Candidate): number {
    return this.req.kind === 'sell' ? c.depth * c.spot * 10 ** this.decIn : c.depth * 10 ** this.decOut;
  }

  private benefit(c: Candidate, lambda: number | undefined): number {
    let b = this.benefits.get(c);
    if (b === undefined) {
      b = this.roughBenefit(c, lambda);
      this.benefits.set(c, b);
    }
    return b;
  }

  private roughBenefit(c: Candidate, lambda: number | undefined): number {
    const m0 = this.rawRate(c.spot);
    const depthGiven = this.depthGiven(c);
    if (lambda === undefined) return depthGiven;
    const gain = this.req.kind === 'sell' ? Math.sqrt(m0) - Math.sqrt(lambda) : Math.sqrt(lambda) - Math.sqrt(m0);
    return gain > 0 ? depthGiven * gain * gain : 0;
  }

  /**
   * A partner's benefit re-fitted to its exact marginal rate, taken where the rough fit puts the
   * path's share at the leader's marginal rate (quartered until the path can carry it), so the
   * re-fit describes the part that matters.
   */
  private probe(c: Candidate, lambda: number | undefined): number {
    if (lambda === undefined) return this.benefit(c, lambda);
    const { kind, amount } = this.req;
    const m0 = this.rawRate(c.spot);
    const depthGiven = this.depthGiven(c);
    const share = depthGiven * (kind === 'sell' ? Math.sqrt(m0 / lambda) - 1 : 1 - Math.sqrt(m0 / lambda));
    let given = share > 0 && share < Number(amount) ? BigInt(Math.floor(share)) : amount;
    const limit = this.limitOf(c);
    if (limit !== undefined && limit < given) given = limit;
    let m: number | undefined;
    for (let tries = 0; tries < 4 && given > 0n && m === undefined; tries++) {
      m = this.quotes.marginal(c.path, given);
      if (m === undefined) given /= 4n;
    }
    if (m === undefined || given === 0n) return 0;
    const ratio = Math.sqrt(m0 / m);
    const denom = kind === 'sell' ? ratio - 1 : 1 - ratio;
    const depth = denom > 1e-15 ? Number(given) / denom : Infinity;
    const gain = kind === 'sell' ? Math.sqrt(m0) - Math.sqrt(lambda) : Math.sqrt(lambda) - Math.sqrt(m0);
    return gain > 0 ? Math.min(depth, 1e300) * gain * gain : 0;
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
