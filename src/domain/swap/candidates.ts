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
 * within the hop limit; it never connects two tokens that are not the order's own. Computed once
 * per pair and pool version (the engine caches them).
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
  const pools = new Set<string>();
  let spot = 1;
  let depth = Infinity;
  for (const e of edges) {
    if (pools.has(e.hop.pool.id)) return undefined;
    pools.add(e.hop.pool.id);
    // Depth carried through later hops at their spot price, then capped by this hop's own depth.
    depth = Math.min(depth / e.spot, e.depth);
    spot *= e.spot;
  }
  return { path: edges.map((e) => e.hop), spot, depth };
}

export function candidatePaths(graph: PoolGraph, tokenIn: string, tokenOut: string): Candidate[] {
  if (tokenIn === tokenOut || !graph.has(tokenIn) || !graph.has(tokenOut)) return [];
  const out: Candidate[] = [];
  const push = (edges: readonly Edge[]) => {
    const c = score(edges);
    if (c) out.push(c);
  };
  const first = graph.next(tokenIn);
  // Direct pools: all of them, they are the usual split partners.
  for (const e of graph.between(tokenIn, tokenOut)) push([e]);
  for (const [x, ex] of first) {
    if (x === tokenOut) continue;
    const second = graph.next(x);
    const xo = second.get(tokenOut);
    if (xo) push([ex[0]!, xo[0]!]);
    for (const [y, ey] of second) {
      if (y === tokenIn || y === tokenOut) continue;
      const third = graph.next(y);
      const yo = third.get(tokenOut);
      if (yo) push([ex[0]!, ey[0]!, yo[0]!]);
      if (!graph.bpts.has(y) || !(graph.bpts.has(x) || hasBptNeighbourTo(graph, y, tokenOut))) continue;
      for (const [z, ez] of third) {
        if (z === tokenIn || z === tokenOut || z === x) continue;
        const zo = graph.next(z).get(tokenOut);
        if (zo && (graph.bpts.has(x) || graph.bpts.has(z))) push([ex[0]!, ey[0]!, ez[0]!, zo[0]!]);
      }
    }
  }
  // End-only pools (graph.ts) only as the first or last hop of a path, or both: they sell or buy
  // the order's own token, never connect two other tokens.
  for (const [x, lx] of graph.lbpNext(tokenIn)) {
    for (const e of lx) {
      if (x === tokenOut) {
        push([e]);
        continue;
      }
      const xo = graph.between(x, tokenOut)[0];
      if (xo) push([e, xo]);
      for (const [y, ey] of graph.next(x)) {
        const yo = y === tokenIn || y === tokenOut ? undefined : graph.between(y, tokenOut)[0];
        if (yo) push([e, ey[0]!, yo]);
        // A fourth hop when the LBP's other token enters a boosted pool: BPT next to BPT.
        if (y === tokenIn || y === tokenOut || !graph.bpts.has(y)) continue;
        for (const [z, ez] of graph.next(y)) {
          if (z === tokenIn || z === tokenOut || z === x || !graph.bpts.has(z)) continue;
          const zo = graph.between(z, tokenOut)[0];
          if (zo) push([e, ey[0]!, ez[0]!, zo]);
        }
      }
    }
  }
  for (const [x, ex] of first) {
    for (const e of graph.lbpBetween(x, tokenOut)) push([ex[0]!, e]);
  }
  for (const [x, ex] of first) {
    if (x === tokenOut) continue;
    for (const [y, ey] of graph.next(x)) {
      if (y === tokenIn || y === tokenOut) continue;
      for (const e of graph.lbpBetween(y, tokenOut)) push([ex[0]!, ey[0]!, e]);
    }
  }
  // Both ends: tokenIn -> LBP -> x [-> y] -> LBP -> tokenOut, for tokens that live only in such pools.
  for (const [x, lx] of graph.lbpNext(tokenIn)) {
    if (x === tokenOut) continue;
    for (const e of lx) {
      for (const last of graph.lbpBetween(x, tokenOut)) push([e, last]);
      for (const [y, ey] of graph.next(x)) {
        if (y === tokenIn || y === tokenOut) continue;
        for (const last of graph.lbpBetween(y, tokenOut)) push([e, ey[0]!, last]);
      }
    }
  }
  out.sort((a, b) => a.spot - b.spot);
  return out.slice(0, MAX_CANDIDATES);
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
  const out: Candidate[] = [];
  if (tokenIn === tokenOut) return out;
  for (const [x, ex] of graph.next(tokenIn)) {
    if (x === tokenOut) continue;
    const xo = graph.next(x).get(tokenOut);
    if (!xo) continue;
    ex.forEach((a, m) =>
      xo.forEach((b, n) => {
        if (m === 0 && n === 0) return;
        const c = score([a, b]);
        if (c) out.push(c);
      }),
    );
  }
  return out.sort((a, b) => a.spot - b.spot).slice(0, MAX_CANDIDATES);
}
