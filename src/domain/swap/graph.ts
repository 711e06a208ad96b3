import { pathRoleOf } from '../poolTypes/registry';
import type { PoolModel } from './poolModel';
import type { Hop } from './route';

/**
 * The token graph of one pool set: for every ordered token pair the pools that swap it, best
 * first. Depth and spot price are floats read at the stored balances; they rank candidates, and
 * never become amounts.
 *
 * A graph is immutable. The graph of the next pool version (or of the next timestamp, for the
 * pools whose swaps depend on it) is derived from this one (`withChanges`): only the pairs of the
 * pools that changed are re-ranked, and every other pair's lists, and every token's map that holds
 * no changed pair, are shared. Ranking is a total order (depth, then pool id and token indexes), so
 * a derived graph ranks every pair as one built from nothing over the same pools; only its token
 * decimals may still list a token whose last pool left, which no path reaches.
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
  return (pool.pathRole ?? pathRoleOf(pool.poolType)) === 'ends';
}

/** Parallel pools kept per token pair: more only slow the search and rarely join a split. */
export const MAX_PARALLEL_POOLS = 4;

/** token -> next token -> edges, best first. */
type PairMap = Map<string, Map<string, Edge[]>>;

/** The pairs of one kind of pool (through or end-only): every edge, and the best few. */
interface Pairs {
  readonly all: PairMap;
  readonly top: PairMap;
}

interface GraphParts {
  readonly through: Pairs;
  /**
   * Pools that are only a path's end (`isEndOnlyPool`), kept apart: a route goes through one only
   * to buy or sell the order's own token (its first or last hop, or both).
   */
  readonly ends: Pairs;
  readonly bpts: ReadonlySet<string>;
  readonly decimals: ReadonlyMap<string, number>;
  readonly byHop: WeakMap<Hop, Edge>;
}

/** Deepest first; ties by pool id and token indexes, so the order never depends on how the graph was made. */
function rank(a: Edge, b: Edge): number {
  if (a.depth !== b.depth) return b.depth - a.depth;
  const x = a.hop.pool.id;
  const y = b.hop.pool.id;
  if (x !== y) return x < y ? -1 : 1;
  return a.hop.i - b.hop.i || a.hop.j - b.hop.j;
}

/** The edges a model gives, through the owner's cache of them when there is one. */
function edgesFor(pool: PoolModel, edgeCache: WeakMap<PoolModel, readonly Edge[]> | undefined): readonly Edge[] {
  let edges = edgeCache?.get(pool);
  if (!edges) {
    edges = edgesOf(pool);
    edgeCache?.set(pool, edges);
  }
  return edges;
}

export class PoolGraph {
  private readonly through: Pairs;
  private readonly ends: Pairs;
  /** BPT addresses of the pools in the set: hops through them may need a fourth leg. */
  readonly bpts: ReadonlySet<string>;
  readonly decimals: ReadonlyMap<string, number>;
  /** Shared by every graph derived from one another: a hop object belongs to one model. */
  private readonly byHop: WeakMap<Hop, Edge>;
  private bptTokensKept: readonly string[] | undefined;

  private constructor(parts: GraphParts) {
    this.through = parts.through;
    this.ends = parts.ends;
    this.bpts = parts.bpts;
    this.decimals = parts.decimals;
    this.byHop = parts.byHop;
  }

  /** The graph of `models`, from nothing. `edgeCache`: edges already read from a model, kept by the owner. */
  static build(models: readonly PoolModel[], edgeCache?: WeakMap<PoolModel, readonly Edge[]>): PoolGraph {
    const empty = (): Pairs => ({ all: new Map(), top: new Map() });
    return new PoolGraph({
      through: empty(),
      ends: empty(),
      bpts: new Set(),
      decimals: new Map(),
      byHop: new WeakMap(),
    }).withChanges([], models, edgeCache);
  }

  /**
   * The graph with `removed` models taken out and `added` ones put in (a changed pool is both: its
   * old model removed, its new one added). Costs the changed pools' pairs, plus one copy of the
   * token index; this graph is left as it was.
   */
  withChanges(
    removed: readonly PoolModel[],
    added: readonly PoolModel[],
    edgeCache?: WeakMap<PoolModel, readonly Edge[]>,
  ): PoolGraph {
    const gone = new Set(removed);
    const through = new PairEdits(this.through, gone);
    const ends = new PairEdits(this.ends, gone);
    // A changed pool is removed and added at once: the set is copied only when a pool came or went.
    const addresses = new Set(added.map((pool) => pool.address));
    const moves = removed.some((pool) => !addresses.has(pool.address)) || added.some((p) => !this.bpts.has(p.address));
    const bpts = moves ? new Set(this.bpts) : (this.bpts as Set<string>);
    let decimals = this.decimals as Map<string, number>;
    for (const pool of removed) {
      if (moves) bpts.delete(pool.address);
      const edits = isEndOnlyPool(pool) ? ends : through;
      for (const from of pool.tokens) for (const to of pool.tokens) if (from !== to) edits.touch(from, to);
    }
    for (const pool of added) {
      if (moves) bpts.add(pool.address);
      pool.tokens.forEach((t, k) => {
        if (decimals.get(t) === pool.decimals[k]) return;
        if (decimals === this.decimals) decimals = new Map(decimals);
        decimals.set(t, pool.decimals[k]!);
      });
      const edits = isEndOnlyPool(pool) ? ends : through;
      for (const e of edgesFor(pool, edgeCache)) {
        this.byHop.set(e.hop, e);
        edits.add(pool.tokens[e.hop.i]!, pool.tokens[e.hop.j]!, e);
      }
    }
    const graph = new PoolGraph({ through: through.done(), ends: ends.done(), bpts, decimals, byHop: this.byHop });
    // Only the changed pools' addresses and tokens can have become or stopped being BPTs a path leaves from.
    if (this.bptTokensKept) {
      const recheck = new Set<string>();
      for (const pool of [...removed, ...added]) {
        recheck.add(pool.address);
        for (const t of pool.tokens) recheck.add(t);
      }
      graph.bptTokensKept = [
        ...this.bptTokensKept.filter((t) => !recheck.has(t)),
        ...[...recheck].filter((t) => bpts.has(t) && graph.through.top.has(t)),
      ];
    }
    return graph;
  }

  /** The BPTs a path can leave from (a four-hop path's middle tokens): a few of `bpts`, found on first use. */
  get bptTokens(): readonly string[] {
    return (this.bptTokensKept ??= [...this.bpts].filter((t) => this.through.top.has(t)));
  }

  /** Tokens one hop from `token`, with their edges (deepest first). */
  next(token: string): ReadonlyMap<string, readonly Edge[]> {
    return this.through.top.get(token) ?? EMPTY;
  }

  between(from: string, to: string): readonly Edge[] {
    return this.through.top.get(from)?.get(to) ?? [];
  }

  /** Liquidity bootstrapping pools one hop from `token`. */
  lbpNext(token: string): ReadonlyMap<string, readonly Edge[]> {
    return this.ends.top.get(token) ?? EMPTY;
  }

  lbpBetween(from: string, to: string): readonly Edge[] {
    return this.ends.top.get(from)?.get(to) ?? [];
  }

  /** The edge a candidate's hop came from (its limits), undefined for a hop made elsewhere. */
  edgeOf(hop: Hop): Edge | undefined {
    return this.byHop.get(hop);
  }

  /** Whether a path can leave from `token`: some pool takes it in. */
  has(token: string): boolean {
    return this.through.all.has(token) || this.ends.all.has(token);
  }

  /**
   * Whether a path can end at `token`: some pool holds it. Not `has`: a buy-only token sale's
   * project token is taken in by no pool (the sale only pays it out), and is still an order's end.
   */
  holds(token: string): boolean {
    return this.decimals.has(token);
  }
}

/**
 * The pairs a change touches, re-ranked on `done()` into maps that share everything else with
 * the pairs they came from (copy on write, per token).
 */
class PairEdits {
  /** from -> to -> edges added there. */
  private readonly touched = new Map<string, Map<string, Edge[]>>();

  constructor(
    private readonly base: Pairs,
    private readonly gone: ReadonlySet<PoolModel>,
  ) {}

  touch(from: string, to: string): Edge[] {
    let byTo = this.touched.get(from);
    if (!byTo) {
      byTo = new Map();
      this.touched.set(from, byTo);
    }
    let list = byTo.get(to);
    if (!list) {
      list = [];
      byTo.set(to, list);
    }
    return list;
  }

  add(from: string, to: string, edge: Edge): void {
    this.touch(from, to).push(edge);
  }

  done(): Pairs {
    if (this.touched.size === 0) return this.base;
    const all = new Map(this.base.all);
    const top = new Map(this.base.top);
    for (const [from, byTo] of this.touched) {
      const allFrom = new Map(this.base.all.get(from));
      const topFrom = new Map(this.base.top.get(from));
      for (const [to, added] of byTo) {
        const kept = (allFrom.get(to) ?? []).filter((e) => !this.gone.has(e.hop.pool));
        const list = added.length > 0 ? [...kept, ...added].sort(rank) : kept;
        if (list.length === 0) {
          allFrom.delete(to);
          topFrom.delete(to);
        } else {
          allFrom.set(to, list);
          topFrom.set(to, list.length > MAX_PARALLEL_POOLS ? list.slice(0, MAX_PARALLEL_POOLS) : list);
        }
      }
      if (allFrom.size === 0) {
        all.delete(from);
        top.delete(from);
      } else {
        all.set(from, allFrom);
        top.set(from, topFrom);
      }
    }
    return { all, top };
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
