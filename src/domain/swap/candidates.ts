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

/** The pairs a pool change touched (candidateUpdates.ts): a search focused on them yields only the sequences through them. */
export interface PairFocus {
  has(from: string, to: string): boolean;
  /** The tokens a touched pair from `token` goes to. */
  fromOf(token: string): ReadonlySet<string> | undefined;
  /** The tokens a touched pair into `token` comes from. */
  intoOf(token: string): ReadonlySet<string> | undefined;
  /** Some touched pair leaves a token of `tokens` (the graph's BPTs: they may be a four-hop path's middle). */
  fromAny(tokens: ReadonlySet<string>): boolean;
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
 * Every candidate sequence of the pair, unranked. With `focus`, only those with a hop through a
 * focused pair: past a hop that is not, a loop goes on only to the tokens a focused pair leaves
 * from there or reaches the order's token from, so a pool change costs the sequences through the
 * pairs it touched, not the pair's whole search.
 */
export function pairSequences(graph: PoolGraph, tokenIn: string, tokenOut: string, focus?: PairFocus): Candidate[] {
  if (tokenIn === tokenOut || !graph.has(tokenIn) || !graph.holds(tokenOut)) return [];
  const out: Candidate[] = [];
  const push = (edges: readonly Edge[], hit: boolean) => {
    if (!hit) return;
    const c = score(edges);
    if (c) out.push(c);
  };
  // Without a focus every sequence counts; with one, a hop through a focused pair makes it count.
  const on = (from: string, to: string) => !focus || focus.has(from, to);
  const bpts = graph.bpts;
  // A focused pair leaving a BPT can be the middle hop of a four-hop path behind any token.
  const focusFromBpt = !!focus && focus.fromAny(bpts);
  const intoOut = focus?.intoOf(tokenOut);
  /** The neighbours a sequence at `from` goes on to: all, or (no focused hop yet) those a focused pair from `from` or into tokenOut reaches. */
  const onward = (next: ReadonlyMap<string, readonly Edge[]>, from: string, hit: boolean) =>
    !focus || hit ? next : focusedEntries(next, focus.fromOf(from), intoOut);
  const first = graph.next(tokenIn);
  // Direct pools: all of them, they are the usual split partners.
  const direct = on(tokenIn, tokenOut);
  for (const e of graph.between(tokenIn, tokenOut)) push([e], direct);
  for (const [x, ex] of first) {
    if (x === tokenOut) continue;
    const t1 = on(tokenIn, x);
    const second = graph.next(x);
    const xo = second.get(tokenOut);
    if (xo) push([ex[0]!, xo[0]!], t1 || on(x, tokenOut));
    const wide = t1 || focusFromBpt;
    const visited = onward(second, x, wide);
    for (const [y, ey] of visited) {
      if (y === tokenIn || y === tokenOut) continue;
      const t2 = t1 || on(x, y);
      const third = graph.next(y);
      const yo = third.get(tokenOut);
      if (yo) push([ex[0]!, ey[0]!, yo[0]!], t2 || on(y, tokenOut));
      if (!bpts.has(y) || !(bpts.has(x) || hasBptNeighbourTo(graph, y, tokenOut))) continue;
      for (const [z, ez] of onward(third, y, t2)) {
        if (z === tokenIn || z === tokenOut || z === x) continue;
        const zo = graph.next(z).get(tokenOut);
        if (zo && (bpts.has(x) || bpts.has(z)))
          push([ex[0]!, ey[0]!, ez[0]!, zo[0]!], t2 || on(y, z) || on(z, tokenOut));
      }
    }
    // Four hops whose only focused hop is the last, through a BPT the loop above passed over.
    if (!intoOut || wide || visited === second) continue;
    for (const [y, ey] of second) {
      if (y === tokenIn || y === tokenOut || !bpts.has(y) || (visited as Map<string, unknown>).has(y)) continue;
      const third = graph.next(y);
      for (const z of intoOut) {
        const ez = third.get(z);
        if (!ez || z === tokenIn || z === tokenOut || z === x) continue;
        const zo = graph.next(z).get(tokenOut);
        if (zo && (bpts.has(x) || bpts.has(z))) push([ex[0]!, ey[0]!, ez[0]!, zo[0]!], true);
      }
    }
  }
  // End-only pools (graph.ts) only as the first or last hop of a path, or both: they sell or buy
  // the order's own token, never connect two other tokens.
  for (const [x, lx] of graph.lbpNext(tokenIn)) {
    const t1 = on(tokenIn, x);
    for (const e of lx) {
      if (x === tokenOut) {
        push([e], t1);
        continue;
      }
      const xo = graph.between(x, tokenOut)[0];
      if (xo) push([e, xo], t1 || on(x, tokenOut));
      for (const [y, ey] of onward(graph.next(x), x, t1)) {
        const yo = y === tokenIn || y === tokenOut ? undefined : graph.between(y, tokenOut)[0];
        if (yo) push([e, ey[0]!, yo], t1 || on(x, y) || on(y, tokenOut));
      }
      // A fourth hop when the LBP's other token enters a boosted pool (BPT next to BPT). Not
      // narrowed by a focus, since any of its hops may be the focused one; an LBP's hops are few.
      for (const [y, ey] of graph.next(x)) {
        if (y === tokenIn || y === tokenOut || !bpts.has(y)) continue;
        const t2 = t1 || on(x, y);
        for (const [z, ez] of graph.next(y)) {
          if (z === tokenIn || z === tokenOut || z === x || !bpts.has(z)) continue;
          const zo = graph.between(z, tokenOut)[0];
          if (zo) push([e, ey[0]!, ez[0]!, zo], t2 || on(y, z) || on(z, tokenOut));
        }
      }
    }
  }
  for (const [x, ex] of first) {
    const t1 = on(tokenIn, x) || on(x, tokenOut);
    for (const e of graph.lbpBetween(x, tokenOut)) push([ex[0]!, e], t1);
  }
  for (const [x, ex] of first) {
    if (x === tokenOut) continue;
    const t1 = on(tokenIn, x);
    for (const [y, ey] of onward(graph.next(x), x, t1)) {
      if (y === tokenIn || y === tokenOut) continue;
      const lasts = graph.lbpBetween(y, tokenOut);
      if (lasts.length === 0) continue;
      const t2 = t1 || on(x, y) || on(y, tokenOut);
      for (const e of lasts) push([ex[0]!, ey[0]!, e], t2);
    }
  }
  // Both ends: tokenIn -> LBP -> x [-> y] -> LBP -> tokenOut, for tokens that live only in such pools.
  for (const [x, lx] of graph.lbpNext(tokenIn)) {
    if (x === tokenOut) continue;
    const t1 = on(tokenIn, x);
    for (const e of lx) {
      for (const last of graph.lbpBetween(x, tokenOut)) push([e, last], t1 || on(x, tokenOut));
      for (const [y, ey] of onward(graph.next(x), x, t1)) {
        if (y === tokenIn || y === tokenOut) continue;
        for (const last of graph.lbpBetween(y, tokenOut)) push([e, ey[0]!, last], t1 || on(x, y) || on(y, tokenOut));
      }
    }
  }
  return out;
}

const NO_ENTRIES: ReadonlyMap<string, readonly Edge[]> = new Map();

/** The entries of `next` whose token is in `a` or `b` (each once). */
function focusedEntries(
  next: ReadonlyMap<string, readonly Edge[]>,
  a: ReadonlySet<string> | undefined,
  b: ReadonlySet<string> | undefined,
): ReadonlyMap<string, readonly Edge[]> {
  // Most tokens a hub reaches hold no focused pair: a shared empty map, not one made per token.
  if (!a && !b) return NO_ENTRIES;
  const out = new Map<string, readonly Edge[]>();
  for (const set of [a, b]) {
    if (!set) continue;
    for (const t of set) {
      const e = next.get(t);
      if (e) out.set(t, e);
    }
  }
  return out;
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

/** `twoHopVariants` unranked; with `focus`, only those through a focused pair. */
export function twoHopSequences(graph: PoolGraph, tokenIn: string, tokenOut: string, focus?: PairFocus): Candidate[] {
  const out: Candidate[] = [];
  if (tokenIn === tokenOut) return out;
  for (const [x, ex] of graph.next(tokenIn)) {
    if (x === tokenOut) continue;
    const xo = graph.next(x).get(tokenOut);
    if (!xo) continue;
    if (focus && !focus.has(tokenIn, x) && !focus.has(x, tokenOut)) continue;
    ex.forEach((a, m) =>
      xo.forEach((b, n) => {
        if (m === 0 && n === 0) return;
        const c = score([a, b]);
        if (c) out.push(c);
      }),
    );
  }
  return out;
}
