import type { QuoteCache } from './evaluate';
import type { OrderKind, Path } from './route';

/**
 * Dividing an order's amount across pool-disjoint paths so that every used path ends at the same
 * marginal rate (the optimum of a concave split). Floats only propose allocations; every proposal
 * is evaluated exactly and the answer is the best exact outcome net of gas, so a split is taken
 * only when it really pays more (or costs less) than the best single path.
 */

/** The SOR's `maxPools`: at most this many paths share an order. */
export const MAX_PATHS = 4;
/** Solve, measure, re-fit: rounds of the equal-marginal search. */
const FIT_ROUNDS = 4;
/**
 * Cap on the bisection for a capped path's largest amount: it needs about 10 steps (1/512 of the
 * range); the cap only keeps a quote finite should the tolerance ever stop being reached.
 */
const BISECTION_STEPS = 64;

export interface PathCost {
  readonly path: Path;
  /** Gas of the path's swaps in the return token (raw units). */
  readonly gas: bigint;
  /**
   * Most the pool taking the given amount accepts (a sell's first hop in, a buy's last hop out),
   * where known: a path that cannot carry the whole order is tried there first.
   */
  readonly limit?: bigint;
}

export interface Allocation {
  readonly parts: readonly { readonly path: Path; readonly given: bigint; readonly result: bigint }[];
  /** Sum of results (out for a sell, in for a buy). */
  readonly total: bigint;
  readonly gas: bigint;
}

/** Higher is better: what the trader ends with net of gas, in the return token. */
export function value(kind: OrderKind, a: Pick<Allocation, 'total' | 'gas'>): bigint {
  return kind === 'sell' ? a.total - a.gas : -(a.total + a.gas);
}

/** Exact outcome of giving `amounts[k]` to `paths[k]` (pool-disjoint paths); undefined if one reverts. */
export function evaluateSplit(
  paths: readonly PathCost[],
  amounts: readonly bigint[],
  quotes: QuoteCache,
): Allocation | undefined {
  const parts: { path: Path; given: bigint; result: bigint }[] = [];
  let total = 0n;
  let gas = 0n;
  for (const [k, p] of paths.entries()) {
    const given = amounts[k]!;
    if (given <= 0n) continue;
    const result = quotes.result(p.path, given);
    if (result === undefined) return undefined;
    parts.push({ path: p.path, given, result });
    total += result;
    gas += p.gas;
  }
  return parts.length === 0 ? undefined : { parts, total, gas };
}

/**
 * Equal-marginal split: at the optimum every used path pays the same marginal rate. Each path's
 * marginal rate is modelled locally as a constant-product curve through its spot rate and its
 * exact marginal at the current allocation (`QuoteCache.marginal`); the allocation that equalises
 * the models is solved in floats, then re-measured exactly and re-fitted, a few rounds.
 */
export function equalMarginalSplit(
  kind: OrderKind,
  paths: readonly PathCost[],
  amount: bigint,
  quotes: QuoteCache,
): Allocation | undefined {
  const marginal = (path: Path, given: bigint) => quotes.marginal(path, given);
  const A = Number(amount);
  const fits = paths
    .map((p) => {
      const m0 = marginal(p.path, 0n);
      return { p, m0, depth: Infinity, cap: A };
    })
    .filter((f): f is { p: PathCost; m0: number; depth: number; cap: number } => f.m0 !== undefined && f.m0 > 0);
  if (fits.length < 2) return undefined;
  const sell = kind === 'sell';
  // A path's allocation at marginal rate lambda under its constant-product model.
  const alloc = (f: (typeof fits)[number], lambda: number): number => {
    const r = sell ? Math.sqrt(f.m0 / lambda) - 1 : 1 - Math.sqrt(f.m0 / lambda);
    const x = Number.isFinite(f.depth) ? f.depth * r : r > 0 ? Infinity : 0;
    return Math.min(f.cap, Math.max(0, x));
  };
  const refit = (f: (typeof fits)[number], x: number, m: number) => {
    const ratio = Math.sqrt(f.m0 / m);
    const denom = sell ? ratio - 1 : 1 - ratio;
    f.depth = denom > 1e-15 ? x / denom : Infinity;
  };
  // First fit: each path's marginal after carrying the whole order (or as much as it can).
  for (const f of fits) {
    const limited = f.p.limit !== undefined && f.p.limit < amount;
    let x = limited ? f.p.limit! : amount;
    let failed: bigint | undefined;
    let fitted = false;
    for (let tries = 0; tries < 8 && x > 0n; tries++, x /= 4n) {
      let m = marginal(f.p.path, x);
      if (m === undefined) {
        failed = x;
        continue;
      }
      if (failed === undefined && limited) f.cap = Number(x);
      else if (failed !== undefined) {
        // The path cannot carry the whole order: find how much it can (within 1/512, and at
        // least one unit: a pool holding a few wei fails below 512, and a zero tolerance would
        // bisect forever between two adjacent amounts), since a capped path is often the best
        // part of a split.
        let ok = x;
        let bad = failed;
        const tolerance = failed / 512n > 0n ? failed / 512n : 1n;
        for (let step = 0; step < BISECTION_STEPS && bad - ok > tolerance; step++) {
          const mid = (ok + bad) / 2n;
          const mm = marginal(f.p.path, mid);
          if (mm === undefined) bad = mid;
          else {
            ok = mid;
            m = mm;
          }
        }
        x = ok;
        f.cap = Number(ok);
      }
      refit(f, Number(x), m);
      fitted = true;
      break;
    }
    if (!fitted) f.cap = 0;
  }
  let active = fits;
  let best: Allocation | undefined;
  for (let round = 0; round < FIT_ROUNDS; round++) {
    const lambda = solveLambda(active, alloc, A, sell);
    if (lambda === undefined) break;
    let xs = active.map((f) => alloc(f, lambda));
    if (xs.filter((x) => x > 0).length > MAX_PATHS) {
      const keep = new Set(
        active
          .map((f, k) => [f, xs[k]!] as const)
          .sort((a, b) => b[1] - a[1])
          .slice(0, MAX_PATHS)
          .map(([f]) => f),
      );
      active = active.filter((f) => keep.has(f));
      const l2 = solveLambda(active, alloc, A, sell);
      if (l2 === undefined) break;
      xs = active.map((f) => alloc(f, l2));
    }
    const used = active.filter((_, k) => xs[k]! > 0);
    const shares = xs.filter((x) => x > 0).map((x) => x / A);
    const amounts = toAmounts(shares, amount);
    if (!amounts) break;
    const outcome = evaluateSplit(
      used.map((f) => f.p),
      amounts,
      quotes,
    );
    if (outcome && (!best || value(kind, outcome) > value(kind, best))) best = outcome;
    // Re-measure and re-fit at the new allocation.
    used.forEach((f, k) => {
      const m = marginal(f.p.path, amounts[k]!);
      if (m === undefined) f.cap = Number(amounts[k]!) * 0.8;
      else refit(f, Number(amounts[k]!), m);
    });
  }
  return best;
}

function solveLambda<F extends { m0: number }>(
  fits: readonly F[],
  alloc: (f: F, lambda: number) => number,
  A: number,
  sell: boolean,
): number | undefined {
  const total = (lambda: number) => fits.reduce((s, f) => s + alloc(f, lambda), 0);
  const m0s = fits.map((f) => f.m0);
  // Sell: allocations shrink as lambda rises (lambda <= max m0). Buy: they grow with lambda.
  let lo = sell ? Math.min(...m0s) * 1e-12 : Math.min(...m0s);
  let hi = sell ? Math.max(...m0s) : Math.max(...m0s) * 1e12;
  if (sell ? total(lo) < A : total(hi) < A) return undefined;
  for (let k = 0; k < 100; k++) {
    const mid = Math.sqrt(lo * hi);
    const over = total(mid) >= A;
    if (sell ? over : !over) lo = mid;
    else hi = mid;
  }
  return sell ? lo : hi;
}

function toAmounts(shares: readonly number[], amount: bigint): bigint[] | undefined {
  const sum = shares.reduce((a, b) => a + b, 0);
  if (!(sum > 0)) return undefined;
  const amounts = shares.map((s) => (amount * BigInt(Math.round((s / sum) * 1e12))) / 1_000_000_000_000n);
  // The largest part takes the rounding remainder, so the parts add up to the order exactly.
  const largest = shares.indexOf(Math.max(...shares));
  amounts[largest] = amounts[largest]! + amount - amounts.reduce((a, b) => a + b, 0n);
  return amounts;
}

/**
 * The best of: the best single path (`single`), the equal-marginal split over `paths`
 * (pool-disjoint, best single first), and, when gas costs something, the same split over fewer
 * paths (the smallest part dropped each time).
 */
export function bestSplit(
  paths: readonly PathCost[],
  amount: bigint,
  quotes: QuoteCache,
  single: Allocation | undefined,
): Allocation | undefined {
  const { kind } = quotes;
  let best = single;
  const gasCounts = paths.some((p) => p.gas > 0n);
  let members = paths;
  // Each round drops a path, so there are fewer rounds than paths; the bound says so outright.
  for (let round = 0; round < paths.length && members.length >= 2; round++) {
    const balanced = equalMarginalSplit(kind, members, amount, quotes);
    if (!balanced) break;
    if (!best || value(kind, balanced) > value(kind, best)) best = balanced;
    if (!gasCounts || balanced.parts.length < 2) break;
    const smallest = balanced.parts.reduce((a, b) => (b.given < a.given ? b : a));
    const kept = new Set(balanced.parts.filter((p) => p !== smallest).map((p) => p.path));
    members = members.filter((m) => kept.has(m.path));
  }
  return best;
}
