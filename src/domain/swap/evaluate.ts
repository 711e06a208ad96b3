import { isRevert, type PoolModel, type PoolState } from './poolModel';
import type { Hop, OrderKind, Path } from './route';

/**
 * Exact evaluation of one path for one amount, the way the Vault runs it: a sell goes hop by hop
 * forward, a buy backward from the amount out. `undefined` where a pool would revert.
 * `stateOf` gives each hop's pool state; a path never uses a pool twice, so the states are read,
 * not changed. Limits are the models' own: `swap` throws where the contract reverts.
 */
export type StateOf = (pool: PoolModel) => PoolState;

/** Amount out of a sell of `amountIn` through `path`. */
export function pathOut(path: Path, amountIn: bigint, stateOf: StateOf): bigint | undefined {
  let amount = amountIn;
  try {
    for (const h of path) {
      const state = stateOf(h.pool);
      amount = h.pool.swap(state, 'givenIn', h.i, h.j, amount);
      if (amount <= 0n) return undefined;
    }
  } catch (e) {
    if (isRevert(e)) return undefined;
    throw e;
  }
  return amount;
}

/** Amount in a buy of `amountOut` through `path` costs. */
export function pathIn(path: Path, amountOut: bigint, stateOf: StateOf): bigint | undefined {
  let amount = amountOut;
  try {
    for (let k = path.length - 1; k >= 0; k--) {
      const h = path[k]!;
      const state = stateOf(h.pool);
      amount = h.pool.swap(state, 'givenOut', h.i, h.j, amount);
      if (amount <= 0n) return undefined;
    }
  } catch (e) {
    if (isRevert(e)) return undefined;
    throw e;
  }
  return amount;
}

/**
 * One quote's exact swaps and marginal rates, kept per hop and amount: the search asks for the
 * same path at the same amount from several partner sets, and paths share their first hops, while
 * the pool states stay those of `stateOf` for the whole quote (nothing here changes them).
 * `kind` fixes the direction: a sell runs paths forward given in, a buy backward given out.
 */
export class QuoteCache {
  private readonly swaps = new Map<Hop, Map<bigint, bigint | null>>();
  private readonly spots = new Map<Hop, Map<bigint, number | null>>();

  constructor(
    readonly kind: OrderKind,
    readonly stateOf: StateOf,
  ) {}

  /** The hop's exact answer for `amount` given (in for a sell, out for a buy); undefined where it reverts. */
  swap(h: Hop, amount: bigint): bigint | undefined {
    let byAmount = this.swaps.get(h);
    if (!byAmount) {
      byAmount = new Map();
      this.swaps.set(h, byAmount);
    }
    let result = byAmount.get(amount);
    if (result === undefined) {
      try {
        result = h.pool.swap(this.stateOf(h.pool), this.kind === 'sell' ? 'givenIn' : 'givenOut', h.i, h.j, amount);
      } catch (e) {
        if (!isRevert(e)) throw e;
        result = null;
      }
      byAmount.set(amount, result);
    }
    return result ?? undefined;
  }

  /** The hop's spot price in raw units (in per out) after it swapped `amount` given for `calculated`. */
  private spotAfter(h: Hop, amount: bigint, calculated: bigint): number | undefined {
    let byAmount = this.spots.get(h);
    if (!byAmount) {
      byAmount = new Map();
      this.spots.set(h, byAmount);
    }
    let spot = byAmount.get(amount);
    if (spot === undefined) {
      try {
        let state = this.stateOf(h.pool);
        if (amount !== 0n) {
          state = h.pool.cloneState(state);
          const [amountIn, amountOut] = this.kind === 'sell' ? [amount, calculated] : [calculated, amount];
          h.pool.apply(state, h.i, h.j, amountIn, amountOut);
        }
        const s = h.pool.spotPrice(state, h.i, h.j) * 10 ** (h.pool.decimals[h.i]! - h.pool.decimals[h.j]!);
        spot = s > 0 && Number.isFinite(s) ? s : null;
      } catch (e) {
        if (!isRevert(e)) throw e;
        spot = null;
      }
      byAmount.set(amount, spot);
    }
    return spot ?? undefined;
  }

  /** Exact result of the path for `given` (out for a sell, in for a buy); undefined where a pool reverts. */
  result(path: Path, given: bigint): bigint | undefined {
    let amount = given;
    for (let k = 0; k < path.length; k++) {
      const h = path[this.kind === 'sell' ? k : path.length - 1 - k]!;
      const next = this.swap(h, amount);
      if (next === undefined || next <= 0n) return undefined;
      amount = next;
    }
    return amount;
  }

  /**
   * The path's marginal rate after it has carried `given`: the product of its pools' spot prices
   * at the balances the trade leaves (fees included). A float, raw units of the return token per
   * raw unit of the given token (sell: out per in; buy: in per out); undefined where a pool reverts.
   */
  marginal(path: Path, given: bigint): number | undefined {
    let amount = given;
    let spot = 1;
    for (let k = 0; k < path.length; k++) {
      const h = path[this.kind === 'sell' ? k : path.length - 1 - k]!;
      const calculated = amount === 0n ? 0n : this.swap(h, amount);
      if (calculated === undefined) return undefined;
      const s = this.spotAfter(h, amount, calculated);
      if (s === undefined) return undefined;
      spot *= s;
      amount = calculated;
    }
    return this.kind === 'sell' ? 1 / spot : spot;
  }
}
