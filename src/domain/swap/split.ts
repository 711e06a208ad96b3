import { pathIn, pathOut, type StateOf } from './evaluate';
import { marginalAfter } from './marginal';
import type { OrderKind, Path } from './route';

/**
 * Dividing an order's amount across pool-disjoint paths. Each path's exact result is sampled at a
 * few fractions of the amount; a float water-filling over those samples proposes allocations, and
 * every proposal is then evaluated exactly. The answer is the best exact outcome net of gas, so a
 * split is only taken when it really pays more (or costs less) than the best single path.
 */

/** The SOR's `maxPools`: at most this many paths share an order. */
export const MAX_PATHS = 4;
const FRACTIONS = [1 / 64, 1 / 16, 1 / 8, 1 / 4, 1 / 2, 3 / 4, 1];
const STEPS = 256;
/** Exact hill-climbing moves between two parts after the float proposal, largest first. */
const REFINE_MOVES = [1 / 32, 1 / 128, 1 / 512];

export interface PathCost {
  readonly path: Path;
  /**
   * Where the path's price starts to bend, as a fraction of the order amount (from its depth);
   * a shallow path gets extra samples below it so its first, cheapest slice is seen.
   */
  readonly knee?: number;
  /** Gas of the path's swaps in the return token (raw units). */
  readonly gas: bigint;
}

export interface Allocation {
  readonly parts: readonly { readonly path: Path; readonly given: bigint; readonly result: bigint }[];
  /** Sum of results (out for a sell, in for a buy). */
  readonly total: bigint;
  readonly gas: bigint;
}

/** Exact result of one path for one amount; undefined where a pool would revert. */
export function evaluatePath(kind: OrderKind, path: Path, given: bigint, stateOf: StateOf): bigint | undefined {
  return kind === 'sell' ? pathOut(path, given, stateOf) : pathIn(path, given, stateOf);
}

/** Higher is better: what the trader ends with net of gas, in the return token. */
export function value(kind: OrderKind, a: Pick<Allocation, 'total' | 'gas'>): bigint {
  return kind === 'sell' ? a.total - a.gas : -(a.total + a.gas);
}

/** Exact outcome of giving `amounts[k]` to `paths[k]` (pool-disjoint paths); undefined if one reverts. */
export function evaluateSplit(kind: OrderKind, paths: readonly PathCost[], amounts: readonly bigint[], stateOf: StateOf): Allocation | undefined {
  const parts: { path: Path; given: bigint; result: bigint }[] = [];
  let total = 0n;
  let gas = 0n;
  for (const [k, p] of paths.entries()) {
    const given = amounts[k]!;
    if (given <= 0n) continue;
    const result = evaluatePath(kind, p.path, given, stateOf);
    if (result === undefined) return undefined;
    parts.push({ path: p.path, given, result });
    total += result;
    gas += p.gas;
  }
  return parts.length === 0 ? undefined : { parts, total, gas };
}

/** A path's sampled results: value(x) for x in fractions of the amount, as floats. */
interface Curve {
  readonly xs: number[];
  readonly ys: number[];
}

function sample(kind: OrderKind, p: PathCost, amount: bigint, stateOf: StateOf): Curve {
  const xs = [0];
  const ys = [0];
  const path = p.path;
  const knee = p.knee ?? 1;
  const extra = knee < 1 / 16 ? [knee / 8, knee / 2, knee, knee * 2, knee * 4].filter((f) => f > 0 && f < 1 / 16) : [];
  const fractions = [...new Set([...extra, ...FRACTIONS])].sort((a, b) => a - b);
  for (const f of fractions) {
    const given = (amount * BigInt(Math.round(f * 1e12))) / 1_000_000_000_000n;
    if (given <= 0n) continue;
    const r = evaluatePath(kind, path, given, stateOf);
    if (r === undefined) break;
    xs.push(f);
    ys.push(kind === 'sell' ? Number(r) : -Number(r));
  }
  return { xs, ys };
}

function at(c: Curve, x: number): number {
  const last = c.xs.length - 1;
  if (x > c.xs[last]! + 1e-12) return -Infinity;
  let k = 1;
  while (k < last && c.xs[k]! < x) k++;
  const x0 = c.xs[k - 1]!;
  const x1 = c.xs[k]!;
  return c.ys[k - 1]! + ((c.ys[k]! - c.ys[k - 1]!) * (x - x0)) / (x1 - x0);
}

/** Float water-filling: fractions of the amount per curve, in STEPS increments. */
function waterFill(curves: readonly Curve[]): number[] {
  const shares = curves.map(() => 0);
  const step = 1 / STEPS;
  for (let s = 0; s < STEPS; s++) {
    let best = -1;
    let gain = -Infinity;
    curves.forEach((c, k) => {
      const g = at(c, shares[k]! + step) - at(c, shares[k]!);
      if (g > gain) {
        gain = g;
        best = k;
      }
    });
    if (best < 0 || gain === -Infinity) break;
    shares[best] = shares[best]! + step;
  }
  return shares;
}

function toAmounts(shares: readonly number[], amount: bigint): bigint[] | undefined {
  const sum = shares.reduce((a, b) => a + b, 0);
  if (sum < 1 - 1e-9) return undefined;
  const amounts = shares.map((s) => (amount * BigInt(Math.round(s * 1e9))) / 1_000_000_000n);
  // The largest part takes the rounding remainder, so the parts add up to the order exactly.
  const largest = shares.indexOf(Math.max(...shares));
  amounts[largest] = amounts[largest]! + amount - amounts.reduce((a, b) => a + b, 0n);
  return amounts;
}

/**
 * The best split of `amount` over `paths` (pool-disjoint, best single first), or undefined when no
 * split beats nothing. `single` is the best single-path outcome already known.
 */
export function bestSplit(kind: OrderKind, paths: readonly PathCost[], amount: bigint, stateOf: StateOf, single: Allocation | undefined): Allocation | undefined {
  let best = single;
  if (paths.length < 2) return best;
  const marginal = (path: Path, given: bigint) => marginalAfter(kind, path, given, stateOf);
  const balanced = equalMarginalSplit(kind, paths, amount, stateOf, marginal);
  if (balanced && (!best || value(kind, balanced) > value(kind, best))) best = balanced;
  if (process.env.NO_WATERFILL) return best;
  const curves = paths.map((p) => sample(kind, p, amount, stateOf));
  let members = paths.map((_, k) => k);
  for (let round = 0; round < MAX_PATHS && members.length >= 2; round++) {
    const shares = waterFill(members.map((k) => curves[k]!));
    const used = members.filter((_, n) => shares[n]! > 0);
    if (used.length > MAX_PATHS) {
      // Keep the largest parts and fill again.
      members = members.map((k, n) => [k, shares[n]!] as const).sort((a, b) => b[1] - a[1]).slice(0, MAX_PATHS).map(([k]) => k);
      continue;
    }
    const amounts = toAmounts(shares.filter((s) => s > 0), amount);
    if (amounts) {
      const members = used.map((k) => paths[k]!);
      const proposal = evaluateSplit(kind, members, amounts, stateOf);
      const candidate = proposal && refine(kind, members, amounts, amount, proposal, stateOf);
      if (candidate && (!best || value(kind, candidate) > value(kind, best))) best = candidate;
    }
    if (used.length < 2) break;
    // Gas may make fewer paths better: drop the smallest part and try again.
    const smallest = used.reduce((a, k) => (shares[members.indexOf(k)]! < shares[members.indexOf(a)]! ? k : a), used[0]!);
    members = used.filter((k) => k !== smallest);
  }
  return best;
}

/**
 * Exact local search around a proposal: move a slice of the order from one part to another while
 * that pays more. The float curves are interpolations, so the proposal is close, not optimal.
 */
function refine(kind: OrderKind, paths: readonly PathCost[], start: readonly bigint[], amount: bigint, proposal: Allocation, stateOf: StateOf): Allocation {
  let amounts = [...start];
  let best = proposal;
  for (const move of REFINE_MOVES) {
    const delta = (amount * BigInt(Math.round(move * 1e6))) / 1_000_000n;
    if (delta <= 0n) continue;
    let improved = true;
    for (let rounds = 0; improved && rounds < 4; rounds++) {
      improved = false;
      for (let from = 0; from < amounts.length; from++) {
        for (let to = 0; to < amounts.length; to++) {
          if (from === to || amounts[from]! <= delta) continue;
          const trial = [...amounts];
          trial[from] = trial[from]! - delta;
          trial[to] = trial[to]! + delta;
          const outcome = evaluateSplit(kind, paths, trial, stateOf);
          if (outcome && value(kind, outcome) > value(kind, best)) {
            best = outcome;
            amounts = trial;
            improved = true;
          }
        }
      }
    }
  }
  return best;
}

/**
 * Equal-marginal split: at the optimum every used path pays the same marginal rate. Each path's
 * marginal rate is modelled locally as a constant-product curve through its spot rate and its
 * exact marginal at the current allocation (`marginalAfter`); the allocation that equalises
 * the models is solved in floats, then re-measured exactly and re-fitted, a few rounds.
 */
export function equalMarginalSplit(
  kind: OrderKind,
  paths: readonly PathCost[],
  amount: bigint,
  stateOf: StateOf,
  marginal: (path: Path, given: bigint) => number | undefined,
): Allocation | undefined {
  const A = Number(amount);
  const fits = paths.map((p) => {
    const m0 = marginal(p.path, 0n);
    return { p, m0, depth: Infinity, cap: A };
  }).filter((f): f is { p: PathCost; m0: number; depth: number; cap: number } => f.m0 !== undefined && f.m0 > 0);
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
    let x = amount;
    let fitted = false;
    for (let tries = 0; tries < 8 && x > 0n; tries++, x /= 4n) {
      const m = marginal(f.p.path, x);
      if (m === undefined) {
        // The path cannot carry x: that bounds its share.
        f.cap = Number(x);
        continue;
      }
      refit(f, Number(x), m);
      fitted = true;
      break;
    }
    if (!fitted) f.cap = 0;
  }
  let active = fits;
  let best: Allocation | undefined;
  for (let round = 0; round < 4; round++) {
    const lambda = solveLambda(active, alloc, A, sell);
    if (lambda === undefined) break;
    let xs = active.map((f) => alloc(f, lambda));
    if (xs.filter((x) => x > 0).length > MAX_PATHS) {
      const keep = new Set(active.map((f, k) => [f, xs[k]!] as const).sort((a, b) => b[1] - a[1]).slice(0, MAX_PATHS).map(([f]) => f));
      active = active.filter((f) => keep.has(f));
      const l2 = solveLambda(active, alloc, A, sell);
      if (l2 === undefined) break;
      xs = active.map((f) => alloc(f, l2));
    }
    const used = active.filter((_, k) => xs[k]! > 0);
    const shares = xs.filter((x) => x > 0).map((x) => x / A);
    const amounts = toAmounts(shares, amount);
    if (!amounts) break;
    const outcome = evaluateSplit(kind, used.map((f) => f.p), amounts, stateOf);
    if (process.env.DEBUG_ENGINE) console.log('round', round, 'lambda', lambda, 'amounts', amounts.map(String), 'fits', active.map((f) => [f.m0, f.depth, f.cap]), 'outcome', outcome && value(kind, outcome));
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

function solveLambda<F extends { m0: number }>(fits: readonly F[], alloc: (f: F, lambda: number) => number, A: number, sell: boolean): number | undefined {
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
