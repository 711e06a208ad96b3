import { PoolMathError, type PoolModel, type PoolState } from './poolModel';
import { MathError } from './math/fixedPoint';
import type { OrderKind, Path } from './route';

/**
 * A path's marginal rate after it has carried an amount: the product of its pools' spot prices at
 * the balances the trade leaves (fees included), read from copies of the states. A float, raw
 * units of the return token per raw unit of the given token (sell: out per in; buy: in per out).
 * Undefined where a pool would revert.
 */
export function marginalAfter(kind: OrderKind, path: Path, given: bigint, stateOf: (pool: PoolModel) => PoolState): number | undefined {
  const hops = kind === 'sell' ? path : [...path].reverse();
  let amount = given;
  let spot = 1;
  try {
    for (const h of hops) {
      const state = h.pool.cloneState(stateOf(h.pool));
      const calculated = amount === 0n ? 0n : h.pool.swap(state, kind === 'sell' ? 'givenIn' : 'givenOut', h.i, h.j, amount);
      const [amountIn, amountOut] = kind === 'sell' ? [amount, calculated] : [calculated, amount];
      if (amount !== 0n) h.pool.apply(state, h.i, h.j, amountIn, amountOut);
      // Human units in per human unit out, turned into raw units.
      const s = h.pool.spotPrice(state, h.i, h.j) * 10 ** (h.pool.decimals[h.i]! - h.pool.decimals[h.j]!);
      if (!(s > 0) || !Number.isFinite(s)) return undefined;
      spot *= s;
      amount = calculated;
    }
  } catch (e) {
    if (e instanceof PoolMathError || e instanceof MathError || e instanceof RangeError) return undefined;
    throw e;
  }
  return kind === 'sell' ? 1 / spot : spot;
}
