import { PoolMathError, type PoolModel, type PoolState } from './poolModel';
import type { Path } from './route';
import { MathError } from './math/fixedPoint';

/**
 * Exact evaluation of one path for one amount, the way the Vault runs it: a sell goes hop by hop
 * forward, a buy backward from the amount out. `undefined` where a pool would revert.
 * `stateOf` gives each hop's pool state; a path never uses a pool twice, so the states are read,
 * not changed. Limits are the models' own: `swap` throws where the contract reverts.
 */
export type StateOf = (pool: PoolModel) => PoolState;

function reverts(e: unknown): boolean {
  return e instanceof PoolMathError || e instanceof MathError || e instanceof RangeError;
}

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
    if (reverts(e)) return undefined;
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
    if (reverts(e)) return undefined;
    throw e;
  }
  return amount;
}
