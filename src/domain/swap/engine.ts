import { candidatePaths, withParallelPools, type Candidate } from './candidates';
import { PoolGraph } from './graph';
import type { PoolModel, PoolState } from './poolModel';
import { replayBatchSwap } from './replay';
import { StateBook, toBatchSwap, type OrderKind, type Route } from './route';
import { bestSplit, evaluatePath, MAX_PATHS, value, type Allocation, type PathCost } from './split';

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
}

/** Paths the exact stage evaluates per quote, and sequences whose parallel pools it tries. */
const EXACT_CANDIDATES = 10;
const EXPANDED_SEQUENCES = 6;
const PARTNER_CANDIDATES = 6;
/** A split partner must be able to take at least this share of the order. */
const MIN_PARTNER_DEPTH = 1e-3;
/** Candidate lists kept per engine (token pairs). */
const PAIR_CACHE = 4096;

const pathKey = (c: Candidate) => c.path.map((h) => `${h.pool.id}:${h.i}:${h.j}`).join('/');

export class SwapEngine {
  readonly graph: PoolGraph;
  private readonly byId: Map<string, PoolModel>;
  private readonly pairs = new Map<string, Candidate[]>();

  constructor(models: readonly PoolModel[]) {
    this.graph = new PoolGraph(models);
    this.byId = new Map(models.map((m) => [m.id, m]));
  }

  model(poolId: string): PoolModel | undefined {
    return this.byId.get(poolId.toLowerCase());
  }

  candidates(tokenIn: string, tokenOut: string): Candidate[] {
    const key = `${tokenIn}>${tokenOut}`;
    let list = this.pairs.get(key);
    if (!list) {
      list = candidatePaths(this.graph, tokenIn, tokenOut);
      if (this.pairs.size >= PAIR_CACHE) this.pairs.delete(this.pairs.keys().next().value!);
      this.pairs.set(key, list);
    }
    return list;
  }

  route(req: EngineRequest): Route | undefined {
    const { kind, amount } = req;
    if (amount <= 0n) return undefined;
    const all = this.candidates(req.tokenIn, req.tokenOut);
    if (all.length === 0) return undefined;
    const returnToken = kind === 'sell' ? req.tokenOut : req.tokenIn;
    const gasPerSwap = req.gasPerSwap(returnToken);
    const gasFloat = Number(gasPerSwap) / 10 ** (this.graph.decimals.get(returnToken) ?? 18);
    const human = Number(amount) / 10 ** (this.graph.decimals.get(kind === 'sell' ? req.tokenIn : req.tokenOut) ?? 18);

    // Float estimate of each path's net value: spot price, softened by the path's depth.
    const estimate = (c: Candidate): number => {
      if (kind === 'sell') {
        const atSpot = human / c.spot;
        return (atSpot * c.depth) / (c.depth + atSpot) - gasFloat * c.path.length;
      }
      if (human >= c.depth) return -Infinity;
      return -((human * c.spot * c.depth) / (c.depth - human) + gasFloat * c.path.length);
    };
    const ranked = rank(all, estimate).slice(0, EXPANDED_SEQUENCES);
    const seen = new Set<string>();
    const pool: Candidate[] = [];
    for (const c of [...ranked, ...ranked.flatMap((c) => withParallelPools(this.graph, c)), ...rank(all, estimate).slice(EXPANDED_SEQUENCES, EXACT_CANDIDATES * 2)]) {
      const k = pathKey(c);
      if (!seen.has(k)) {
        seen.add(k);
        pool.push(c);
      }
    }
    // The exact stage sees the best estimates (single-path winners) and the best marginal prices
    // among paths deep enough to matter (split partners: a shallow pool at a good price takes a slice).
    const byEstimate = rank(pool, (c) => (Number.isFinite(estimate(c)) ? estimate(c) : -1e300 + c.depth)).slice(0, EXACT_CANDIDATES);
    const outEquivalent = kind === 'sell' ? human / (byEstimate[0]?.spot ?? 1) : human;
    const bySpot = pool.filter((c) => c.depth >= outEquivalent * MIN_PARTNER_DEPTH).sort((a, b) => a.spot - b.spot).slice(0, PARTNER_CANDIDATES);
    const chosen = [...new Set([...byEstimate, ...bySpot])];

    const book = new StateBook();
    const stateOf = (m: PoolModel): PoolState => book.of(m);
    const inputDepth = (c: Candidate) => (kind === 'sell' ? c.depth * c.spot : c.depth);
    const costs: PathCost[] = chosen.map((c) => ({ path: c.path, gas: gasPerSwap * BigInt(c.path.length), knee: inputDepth(c) / human }));
    const singles = costs.map((p) => {
      const result = evaluatePath(kind, p.path, amount, stateOf);
      return result === undefined ? undefined : ({ parts: [{ path: p.path, given: amount, result }], total: result, gas: p.gas } satisfies Allocation);
    });
    let single: Allocation | undefined;
    for (const s of singles) if (s && (!single || value(kind, s) > value(kind, single))) single = s;

    // Split partners: the best single path first, then pool-disjoint paths by marginal price.
    const spotOf = new Map(chosen.map((c) => [c.path, c.spot]));
    const order = costs.map((_, k) => k).sort((a, b) => {
      const sa = singles[a];
      const sb = singles[b];
      if (sa === single) return -1;
      if (sb === single) return 1;
      return spotOf.get(costs[a]!.path)! - spotOf.get(costs[b]!.path)!;
    });
    const disjoint: PathCost[] = [];
    const used = new Set<string>();
    for (const k of order) {
      const p = costs[k]!;
      if (p.path.some((h) => used.has(h.pool.id))) continue;
      p.path.forEach((h) => used.add(h.pool.id));
      disjoint.push(p);
      if (disjoint.length >= MAX_PATHS + 1) break;
    }
    const best = bestSplit(kind, disjoint, amount, stateOf, single);
    if (!best) return undefined;
    if (kind === 'sell' ? best.total <= 0n : best.total <= 0n) return undefined;

    const paths = best.parts.map((p) => ({ path: p.path, given: p.given, result: p.result }));
    const draft = { kind, tokenIn: req.tokenIn, tokenOut: req.tokenOut, paths };
    // The answer is the Vault's own replay of the batch, not the sum the search saw.
    const batch = toBatchSwap(draft);
    const replay = replayBatchSwap(kind, batch.steps, batch.assets, (id) => this.byId.get(id));
    if (!replay.ok) return undefined;
    const returnAmount = kind === 'sell' ? -replay.deltas[1]! : replay.deltas[0]!;
    if (returnAmount <= 0n) return undefined;
    const spotPrice = Math.min(...chosen.filter((c) => paths.some((p) => p.path === c.path)).map((c) => c.spot));
    return { ...draft, amount, returnAmount, gasCost: best.gas, spotPrice };
  }
}

function rank(list: readonly Candidate[], estimate: (c: Candidate) => number): Candidate[] {
  return list.map((c) => [c, estimate(c)] as const).sort((a, b) => b[1] - a[1]).map(([c]) => c);
}
