import { isJoinExitPool } from './joinExitPools';
import type { PoolModel, PoolState } from './poolModel';

/**
 * What the engine answers: paths through pools, the amount each path is given, and the exact
 * result. One swap-step type (`BatchStep`) from the route to the calldata.
 */

export type OrderKind = 'sell' | 'buy';

/** One hop: a pool and the token indexes it swaps between. */
export interface Hop {
  readonly pool: PoolModel;
  readonly i: number;
  readonly j: number;
}

/** Hops in trading order (the first takes the sell token, the last gives the buy token). */
export type Path = readonly Hop[];

export interface RoutedPath {
  readonly path: Path;
  /** The path's given amount: in for a sell, out for a buy (raw units). */
  readonly given: bigint;
  /** Its exact result: out for a sell, in for a buy (raw units). */
  readonly result: bigint;
}

export interface Route {
  readonly kind: OrderKind;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly amount: bigint;
  readonly paths: readonly RoutedPath[];
  /** What the Vault pays out (sell) or pulls in (buy), exact. */
  readonly returnAmount: bigint;
  /** Each `toBatchSwap` step's exact calculated amount (out for a sell, in for a buy), in step order. */
  readonly stepAmounts?: readonly bigint[];
  /** Gas of the route's swaps in the return token (raw units); 0 without a price. */
  readonly gasCost: bigint;
  /** Marginal price before the trade: human units in per human unit out, fees included. */
  readonly spotPrice: number;
}

/** `Vault.batchSwap` step: `amount` 0 continues from the previous step's calculated amount. */
export interface BatchStep {
  readonly poolId: string;
  readonly assetInIndex: number;
  readonly assetOutIndex: number;
  readonly amount: bigint;
  /** A join or exit hop (joinExitPools.ts): only the batch relayer can run the step. */
  readonly action?: 'join' | 'exit';
}

export interface BatchSwap {
  /** Lower-case token addresses as the engine routes them (wrapped native, never the marker). */
  readonly assets: readonly string[];
  readonly steps: readonly BatchStep[];
}

export const hopTokenIn = (h: Hop): string => h.pool.tokens[h.i]!;
export const hopTokenOut = (h: Hop): string => h.pool.tokens[h.j]!;

/**
 * The route as `batchSwap` steps. Sells list each path's hops forward (the first carries the
 * amount in); buys list them backward, last hop first, because a GIVEN_OUT step with amount 0
 * takes the previous step's calculated amount in as its amount out.
 */
export function toBatchSwap(route: Pick<Route, 'kind' | 'tokenIn' | 'tokenOut' | 'paths'>): BatchSwap {
  const assets: string[] = [route.tokenIn, route.tokenOut];
  const index = (t: string) => {
    let k = assets.indexOf(t);
    if (k < 0) k = assets.push(t) - 1;
    return k;
  };
  const steps: BatchStep[] = [];
  for (const { path, given } of route.paths) {
    const hops = route.kind === 'sell' ? path : [...path].reverse();
    hops.forEach((h, n) => {
      const action = isJoinExitPool(h.pool) ? { action: h.pool.action(h.i, h.j) } : {};
      steps.push({
        poolId: h.pool.id,
        assetInIndex: index(hopTokenIn(h)),
        assetOutIndex: index(hopTokenOut(h)),
        amount: n === 0 ? given : 0n,
        ...action,
      });
    });
  }
  return { assets, steps };
}

/** States per pool for one evaluation, created on first use from the models' stored balances. */
export class StateBook {
  private readonly states = new Map<string, PoolState>();

  of(pool: PoolModel): PoolState {
    let s = this.states.get(pool.id);
    if (!s) {
      s = pool.initialState();
      this.states.set(pool.id, s);
    }
    return s;
  }
}
