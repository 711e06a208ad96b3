import { isEndOnlyPool, type Edge, type PoolGraph } from './graph';
import type { Path } from './route';

/**
 * Candidate paths between two tokens: every token sequence of up to three hops, and four when
 * the middle token is a pool token (BPT) next to another (a boosted pool's
 * main -> linear BPT -> composable BPT -> linear BPT -> main, also after an LBP's first hop; in
 * Balancer V3 a buffer's ERC-4626 token counts as such a pool token). Each sequence first takes the
 * deepest pool of every hop; `withParallelPools` adds the other pools of the same hops for the few
 * sequences a quote keeps. An end-only pool (graph.ts: liquidity bootstrapping pools) is the
 * first hop, the last hop or both, so a token that lives only in such pools reaches any other
 * within the hop limit; it never connects two tokens that are not the order's own. The engine
 * keeps each pair's ranking and carries it across pool versions (candidateUpdates.ts).
 */

export interface Candidate {
  readonly path: Path;
  /** Product of the hops' spot prices: human units in per human unit out. */
  readonly spot: number;
  /** The shallowest hop's depth expressed in human units of the final token out. */
  readonly depth: number;
}

export const MAX_HOPS = 3;
/** Candidate token sequences kept per pair (best spot prices first). */
export const MAX_CANDIDATES = 400;

export function score(edges: readonly Edge[]): Candidate | undefined {
  let spot = 1;
  let depth = Infinity;
  for (let k = 0; k < edges.length; k++) {
    const e = edges[k]!;
    // A path goes through a pool once; paths are a few hops, so a scan beats a set per candidate.
    for (let m = 0; m < k; m++) if (edges[m]!.hop.pool.id === e.hop.pool.id) return undefined;
    // Depth carried through later hops at their spot price, then capped by this hop's own depth.
    depth = Math.min(depth / e.spot, e.depth);
    spot *= e.spot;
  }
  return { path: edges.map((e) => e.hop), spot, depth };
}

/**
 * What a pool change touched (candidateUpdates.ts), by the part of a pair's list a hop takes: a
 * search focused on it yields only the sequences with a hop on a touched part.
 */
export interface PairFocus {
  /** A through pair whose best pool changed (the hop of a path of two or more hops). */
  has(from: string, to: string): boolean;
  /** A through pair whose best few changed (a direct path's hop, a two-hop variant's). */
  hasList(from: string, to: string): boolean;
  /** An end-only pair whose best few changed. */
  hasEnd(from: string, to: string): boolean;
  /** The tokens a pair of `has` from `token` goes to. */
  fromOf(token: string): ReadonlySet<string> | undefined;
  /** The tokens a pair of `has` into `token` comes from. */
  intoOf(token: string): ReadonlySet<string> | undefined;
  /** The tokens a pair of `has` leaves from. */
  sources(): Iterable<string>;
  /** The tokens a pair of `hasList` from `token` goes to. */
  listFromOf(token: string): ReadonlySet<string> | undefined;
  /** The tokens a pair of `hasList` into `token` comes from. */
  listIntoOf(token: string): ReadonlySet<string> | undefined;
  /** The tokens a pair of `hasEnd` into `token` comes from. */
  endsInto(token: string): ReadonlySet<string> | undefined;
}

/**
 * Rank order of a pair's candidates: best spot price first, ties by the pools and token indexes of
 * the hops, so a pair's list never depends on the order the graph's maps were filled in (a
 * derived graph's and a graph built from nothing list the same candidates in the same order).
 */
export function byRank(a: Candidate, b: Candidate): number {
  if (a.spot !== b.spot) return a.spot < b.spot ? -1 : 1;
  const n = Math.min(a.path.length, b.path.length);
  for (let k = 0; k < n; k++) {
    const x = a.path[k]!;
    const y = b.path[k]!;
    if (x.pool.id !== y.pool.id) return x.pool.id < y.pool.id ? -1 : 1;
    if (x.i !== y.i) return x.i - y.i;
    if (x.j !== y.j) return x.j - y.j;
  }
  return a.path.length - b.path.length;
}

export function candidatePaths(graph: PoolGraph, tokenIn: string, tokenOut: string): Candidate[] {
  return pairSequences(graph, tokenIn, tokenOut).sort(byRank).slice(0, MAX_CANDIDATES);
}

/**
 * Every candidate sequence of the pair, unranked. With `focus`, only those with a hop on a
 * focused part of a pair: past a hop that is not, a loop goes on only to the tokens a focused pair
 * leaves from there or reaches the order's token from, and the first hops looked at are only those
 * that can lead to a focused one, so a pool change costs the sequences through the pairs it
 * touched, not the pair's whole search.
 */
export function pairSequences(graph: PoolGraph, tokenIn: string, tokenOut: string, focus?: PairFocus): Candidate[] {
  if (tokenIn === tokenOut || !graph.has(tokenIn) || !graph.holds(tokenOut)) return [];
  const out: Candidate[] = [];
  const push = (edges: readonly Edge[], hit: boolean) => {
    if (!hit) return;
    const c = score(edges);
    if (c) out.push(c);
  };
  // Without a focus every sequence counts; with one, a hop on a focused part makes it count: a
  // through hop of a longer path is its pair's best pool, an end-only hop any of the best few.
  const on = (from: string, to: string) => !focus || focus.has(from, to);
  const onEnd = (from: string, to: string) => !focus || focus.hasEnd(from, to);
  const bpts = graph.bpts;
  const first = graph.next(tokenIn);
  const intoOut = focus?.intoOf(tokenOut);
  const endsIntoOut = focus?.endsInto(tokenOut);
  // A four-hop path's middle tokens are BPTs: with a focus, those a focused pair leaves (its third
  // hop focused) and those with a pool into a token of `intoOut` (its last hop focused), found once
  // here, so a first hop whose next ones are not focused looks only at these.
  let bptSources: Set<string> | undefined;
  let bptsIntoOut: Set<string> | undefined;
  if (focus) {
    for (const t of focus.sources()) if (bpts.has(t)) (bptSources ??= new Set()).add(t);
    if (intoOut)
      for (const y of graph.bptTokens) {
        const next = graph.next(y);
        for (const z of intoOut)
          if (next.has(z)) {
            (bptsIntoOut ??= new Set()).add(y);
            break;
          }
      }
  }

  /**
   * Calls `visit` for the entries of `next` a sequence at `from` goes on to: all of them, or (no
   * focused hop yet) those a focused pair from `from` reaches and those in `b`, `c` and `d`, each once.
   */
  const onward = (
    next: ReadonlyMap<string, readonly Edge[]>,
    from: string,
    hit: boolean,
    b: ReadonlySet<string> | undefined,
    c: ReadonlySet<string> | undefined,
    d: ReadonlySet<string> | undefined,
    visit: (to: string, edges: readonly Edge[]) => void,
  ) => {
    if (!focus || hit) {
      for (const [to, edges] of next) visit(to, edges);
      return;
    }
    const a = focus.fromOf(from);
    visitUnion(next, a, b, visit);
    if (c) for (const to of c) if (!a?.has(to) && !b?.has(to)) visitAt(next, to, visit);
    if (d) for (const to of d) if (!a?.has(to) && !b?.has(to) && !c?.has(to)) visitAt(next, to, visit);
  };
  /**
   * Calls `visit` for the first hops that can lead to a focused one: every one when `all`, else
   * those focused from tokenIn and those to a token a focused pair leaves.
   */
  const firstHops = (all: boolean, visit: (x: string, ex: readonly Edge[]) => void) => {
    if (!focus || all) {
      for (const [x, ex] of first) visit(x, ex);
      return;
    }
    visitUnion(first, focus.fromOf(tokenIn), focus.sources(), visit);
  };
  /** Four hops tokenIn -> x -> y -> z -> tokenOut past y (a BPT), `t2` when a hop so far is focused. */
  const fourHops = (x: string, toX: Edge, y: string, toY: Edge, t2: boolean, endOnly: boolean) => {
    onward(graph.next(y), y, t2, intoOut, undefined, undefined, (z, ez) => {
      if (z === tokenIn || z === tokenOut || z === x || (endOnly ? !bpts.has(z) : !(bpts.has(x) || bpts.has(z))))
        return;
      const zo = graph.next(z).get(tokenOut);
      if (zo) push([toX, toY, ez[0]!, zo[0]!], t2 || on(y, z) || on(z, tokenOut));
    });
  };

  // Direct pools: all of them, they are the usual split partners.
  const direct = !focus || focus.hasList(tokenIn, tokenOut);
  for (const e of graph.between(tokenIn, tokenOut)) push([e], direct);
  firstHops(!!intoOut || !!bptSources, (x, ex) => {
    if (x === tokenOut) return;
    const t1 = on(tokenIn, x);
    const second = graph.next(x);
    const xo = second.get(tokenOut);
    if (xo) push([ex[0]!, xo[0]!], t1 || on(x, tokenOut));
    onward(second, x, t1, intoOut, bptSources, bptsIntoOut, (y, ey) => {
      if (y === tokenIn || y === tokenOut) return;
      const t2 = t1 || on(x, y);
      const yo = graph.next(y).get(tokenOut);
      if (yo) push([ex[0]!, ey[0]!, yo[0]!], t2 || on(y, tokenOut));
      // Past a focused hop every fourth hop counts: only where one can reach tokenOut.
      if (!bpts.has(y) || (t2 && !bpts.has(x) && !hasBptNeighbourTo(graph, y, tokenOut))) return;
      fourHops(x, ex[0]!, y, ey[0]!, t2, false);
    });
  });
  // End-only pools (graph.ts) only as the first or last hop of a path, or both: they sell or buy
  // the order's own token, never connect two other tokens.
  for (const [x, lx] of graph.lbpNext(tokenIn)) {
    const t1 = onEnd(tokenIn, x);
    for (const e of lx) {
      if (x === tokenOut) {
        push([e], t1);
        continue;
      }
      const xo = graph.between(x, tokenOut)[0];
      if (xo) push([e, xo], t1 || on(x, tokenOut));
      onward(graph.next(x), x, t1, intoOut, undefined, undefined, (y, ey) => {
        const yo = y === tokenIn || y === tokenOut ? undefined : graph.between(y, tokenOut)[0];
        if (yo) push([e, ey[0]!, yo], t1 || on(x, y) || on(y, tokenOut));
      });
      // A fourth hop when the LBP's other token enters a boosted pool (BPT next to BPT).
      onward(graph.next(x), x, t1, bptSources, bptsIntoOut, undefined, (y, ey) => {
        if (y === tokenIn || y === tokenOut || !bpts.has(y)) return;
        fourHops(x, e, y, ey[0]!, t1 || on(x, y), true);
      });
    }
  }
  // A through hop, then an end-only one into tokenOut: with a focus, only from tokens one of them is focused at.
  const lastHop = (x: string, ex: readonly Edge[]) => {
    const t1 = on(tokenIn, x) || onEnd(x, tokenOut);
    for (const e of graph.lbpBetween(x, tokenOut)) push([ex[0]!, e], t1);
  };
  if (!focus) for (const [x, ex] of first) lastHop(x, ex);
  else visitUnion(first, focus.fromOf(tokenIn), endsIntoOut, lastHop);
  firstHops(!!endsIntoOut, (x, ex) => {
    if (x === tokenOut) return;
    const t1 = on(tokenIn, x);
    onward(graph.next(x), x, t1, endsIntoOut, undefined, undefined, (y, ey) => {
      if (y === tokenIn || y === tokenOut) return;
      const lasts = graph.lbpBetween(y, tokenOut);
      if (lasts.length === 0) return;
      const t2 = t1 || on(x, y) || onEnd(y, tokenOut);
      for (const e of lasts) push([ex[0]!, ey[0]!, e], t2);
    });
  });
  // Both ends: tokenIn -> LBP -> x [-> y] -> LBP -> tokenOut, for tokens that live only in such pools.
  for (const [x, lx] of graph.lbpNext(tokenIn)) {
    if (x === tokenOut) continue;
    const t1 = onEnd(tokenIn, x);
    for (const e of lx) {
      for (const last of graph.lbpBetween(x, tokenOut)) push([e, last], t1 || onEnd(x, tokenOut));
      onward(graph.next(x), x, t1, endsIntoOut, undefined, undefined, (y, ey) => {
        if (y === tokenIn || y === tokenOut) return;
        for (const last of graph.lbpBetween(y, tokenOut)) push([e, ey[0]!, last], t1 || on(x, y) || onEnd(y, tokenOut));
      });
    }
  }
  return out;
}

function visitIn(
  next: ReadonlyMap<string, readonly Edge[]>,
  tokens: ReadonlySet<string>,
  visit: (to: string, edges: readonly Edge[]) => void,
): void {
  for (const to of tokens) visitAt(next, to, visit);
}

function visitAt(
  next: ReadonlyMap<string, readonly Edge[]>,
  to: string,
  visit: (to: string, edges: readonly Edge[]) => void,
): void {
  const edges = next.get(to);
  if (edges) visit(to, edges);
}

/** Calls `visit` for the entries of `next` at the tokens of `a`, then at those of `b` not in `a`. */
function visitUnion(
  next: ReadonlyMap<string, readonly Edge[]>,
  a: ReadonlySet<string> | undefined,
  b: Iterable<string> | undefined,
  visit: (to: string, edges: readonly Edge[]) => void,
): void {
  if (a) visitIn(next, a, visit);
  if (b) for (const to of b) if (!a?.has(to)) visitAt(next, to, visit);
}

function hasBptNeighbourTo(graph: PoolGraph, y: string, tokenOut: string): boolean {
  for (const z of graph.next(y).keys()) if (graph.bpts.has(z) && graph.next(z).has(tokenOut)) return true;
  return false;
}

/** The same token sequence through the other pools of each hop (one hop changed at a time). */
export function withParallelPools(graph: PoolGraph, c: Candidate): Candidate[] {
  const out: Candidate[] = [];
  const edges = c.path.map((h) =>
    isEndOnlyPool(h.pool) ? [] : graph.between(h.pool.tokens[h.i]!, h.pool.tokens[h.j]!),
  );
  if (edges.some((list) => list.length === 0)) return out;
  const chosen = edges.map((list) => list[0]!);
  edges.forEach((list, k) => {
    for (const alt of list.slice(1)) {
      const variant = [...chosen];
      variant[k] = alt;
      const s = score(variant);
      if (s) out.push(s);
    }
  });
  return out;
}

/**
 * Two-hop paths through every pool pairing of their hops except the deepest-deepest one that
 * `candidatePaths` already holds: a shallow pool at a better price is often the part that tips a
 * split, and the deepest pools rank sequences, not what a small share of an order meets.
 */
export function twoHopVariants(graph: PoolGraph, tokenIn: string, tokenOut: string): Candidate[] {
  return twoHopSequences(graph, tokenIn, tokenOut).sort(byRank).slice(0, MAX_CANDIDATES);
}

/** `twoHopVariants` unranked; with `focus`, only those with a hop on a pair whose best few changed. */
export function twoHopSequences(graph: PoolGraph, tokenIn: string, tokenOut: string, focus?: PairFocus): Candidate[] {
  const out: Candidate[] = [];
  if (tokenIn === tokenOut) return out;
  const first = graph.next(tokenIn);
  const visit = (x: string, ex: readonly Edge[]) => {
    if (x === tokenOut) return;
    const xo = graph.next(x).get(tokenOut);
    if (!xo) return;
    for (let m = 0; m < ex.length; m++)
      for (let n = 0; n < xo.length; n++) {
        if (m === 0 && n === 0) continue;
        const c = score([ex[m]!, xo[n]!]);
        if (c) out.push(c);
      }
  };
  if (!focus) {
    for (const [x, ex] of first) visit(x, ex);
    return out;
  }
  // Only the middle tokens a changed pair leads to or from.
  visitUnion(first, focus.listFromOf(tokenIn), focus.listIntoOf(tokenOut), visit);
  return out;
}
