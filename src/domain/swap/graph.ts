import { pathRoleOf } from '../poolTypes/registry';
import type { PoolModel } from './poolModel';
import type { Hop } from './route';

/**
 * The token graph of one pool set: for every ordered token pair the pools that swap it, best
 * first. Built once per pool version. Depth and spot price are floats read at the stored balances;
 * they rank candidates, and never become amounts.
 */

export interface Edge {
  readonly hop: Hop;
  /** Largest amount out the pool gives for this pair (its in- and out-limits), human units of the token out. */
  readonly depth: number;
  /** Marginal price, human units in per human unit out, fees included. */
  readonly spot: number;
  /** The pool's own limits at the stored balances: raw amount in a given-in swap takes, raw amount out a given-out swap gives. */
  readonly maxIn: bigint;
  readonly maxOut: bigint;
}

/**
 * Liquidity bootstrapping pools: their prices are meant to move (the weights shift over the sale),
 * so a route takes one only to buy or sell the order's own token, never as a hop between two
 * other tokens, as the SOR does.
 */
export function isEndOnlyPool(pool: PoolModel): boolean {
  return pathRoleOf(pool.poolType) === 'ends';
}

/** Parallel pools kept per token pair: more only slow the search and rarely join a split. */
export const MAX_PARALLEL_POOLS = 4;

export class PoolGraph {
  /** token -> next token -> edges, deepest first. */
  private readonly edges = new Map<string, Map<string, Edge[]>>();
  /**
   * Pools that are only a path's end (`isEndOnlyPool`), kept apart: a route goes through one only
   * to buy or sell the order's own token (its first or last hop, or both).
   */
  private readonly lbpEdges = new Map<string, Map<string, Edge[]>>();
  /** BPT addresses of the pools in the set: hops through them may need a fourth leg. */
  readonly bpts: ReadonlySet<string>;
  readonly decimals = new Map<string, number>();
  private readonly byHop = new WeakMap<Hop, Edge>();

  constructor(
    readonly models: readonly PoolModel[],
    /** Edges already read from a model (kept by the owner across graphs of the same pool version). */
    edgeCache?: WeakMap<PoolModel, readonly Edge[]>,
  ) {
    this.bpts = new Set(models.map((m) => m.address));
    for (const pool of models) {
      pool.tokens.forEach((t, k) => this.decimals.set(t, pool.decimals[k]!));
      let edges = edgeCache?.get(pool);
      if (!edges) {
        edges = edgesOf(pool);
        edgeCache?.set(pool, edges);
      }
      for (const e of edges) {
        this.byHop.set(e.hop, e);
        const map = isEndOnlyPool(pool) ? this.lbpEdges : this.edges;
        this.add(map, pool.tokens[e.hop.i]!, pool.tokens[e.hop.j]!, e);
      }
    }
    for (const byNext of [...this.edges.values(), ...this.lbpEdges.values()]) {
      for (const [next, list] of byNext)
        byNext.set(next, list.sort((a, b) => b.depth - a.depth).slice(0, MAX_PARALLEL_POOLS));
    }
  }

  private add(map: Map<string, Map<string, Edge[]>>, from: string, to: string, edge: Edge): void {
    let byNext = map.get(from);
    if (!byNext) {
      byNext = new Map();
      map.set(from, byNext);
    }
    const list = byNext.get(to);
    if (list) list.push(edge);
    else byNext.set(to, [edge]);
  }

  /** Tokens one hop from `token`, with their edges (deepest first). */
  next(token: string): ReadonlyMap<string, readonly Edge[]> {
    return this.edges.get(token) ?? EMPTY;
  }

  between(from: string, to: string): readonly Edge[] {
    return this.edges.get(from)?.get(to) ?? [];
  }

  /** Liquidity bootstrapping pools one hop from `token`. */
  lbpNext(token: string): ReadonlyMap<string, readonly Edge[]> {
    return this.lbpEdges.get(token) ?? EMPTY;
  }

  lbpBetween(from: string, to: string): readonly Edge[] {
    return this.lbpEdges.get(from)?.get(to) ?? [];
  }

  /** The edge a candidate's hop came from (its limits), undefined for a hop made elsewhere. */
  edgeOf(hop: Hop): Edge | undefined {
    return this.byHop.get(hop);
  }

  has(token: string): boolean {
    return this.edges.has(token) || this.lbpEdges.has(token);
  }
}

const EMPTY: ReadonlyMap<string, readonly Edge[]> = new Map();

/** A pool's swappable pairs with their depth and spot price at the stored balances. */
export function edgesOf(pool: PoolModel): Edge[] {
  const out: Edge[] = [];
  let state;
  try {
    state = pool.initialState();
  } catch {
    return out;
  }
  for (let i = 0; i < pool.tokens.length; i++) {
    for (let j = 0; j < pool.tokens.length; j++) {
      if (!pool.canSwap(i, j)) continue;
      let depth: number;
      let spot: number;
      let maxIn: bigint;
      let maxOut: bigint;
      try {
        spot = pool.spotPrice(state, i, j);
        maxOut = pool.maxAmount(state, 'givenOut', i, j);
        maxIn = pool.maxAmount(state, 'givenIn', i, j);
        // Whichever binds first: the most the pool pays out, or the most it takes in at spot.
        depth = Math.min(Number(maxOut) / 10 ** pool.decimals[j]!, Number(maxIn) / 10 ** pool.decimals[i]! / spot);
      } catch {
        continue;
      }
      if (!(depth > 0) || !(spot > 0) || !Number.isFinite(spot) || !Number.isFinite(depth)) continue;
      out.push({ hop: { pool, i, j }, depth, spot, maxIn, maxOut });
    }
  }
  return out;
}
