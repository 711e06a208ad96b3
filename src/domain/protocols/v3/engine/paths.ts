import { isRevert, type PoolModel, type PoolState } from '../../../swap/poolModel';
import { hopTokenIn, hopTokenOut, type OrderKind, type Route } from '../../../swap/route';
import { isBufferModel } from './bufferModel';

/**
 * Routes as the V3 BatchRouter takes them (`SwapPathExactAmountIn` / `SwapPathExactAmountOut`):
 * each path names its token in and its steps, a step a pool (or, for a buffer, the ERC-4626
 * token) and the token it gives. The BatchRouter runs the paths in order in one transaction, and
 * each step against the Vault as the previous ones left it: `replayV3Paths` does the same over the
 * engine's models.
 */

export interface V3PathStep {
  /** Lower-case pool address, or the wrapped token's for a buffer step. */
  readonly pool: string;
  readonly tokenOut: string;
  readonly isBuffer: boolean;
}

export interface V3Path {
  readonly tokenIn: string;
  readonly steps: readonly V3PathStep[];
  /** The path's exact amount: in for a sell (`exactAmountIn`), out for a buy (`exactAmountOut`). */
  readonly given: bigint;
}

export interface V3PathAmounts {
  readonly amountIn: bigint;
  readonly amountOut: bigint;
  /** Each step's calculated amount in the order the BatchRouter computes them. */
  readonly stepAmounts: readonly bigint[];
}

export type V3ReplayResult =
  | {
      readonly ok: true;
      readonly paths: readonly V3PathAmounts[];
      readonly amountIn: bigint;
      readonly amountOut: bigint;
    }
  | { readonly ok: false; readonly reason: string };

/** The engine's route as BatchRouter paths (every path starts at the route's token in). */
export function toV3Paths(route: Pick<Route, 'paths'>): V3Path[] {
  return route.paths.map(({ path, given }) => ({
    tokenIn: hopTokenIn(path[0]!),
    steps: path.map((h) => ({ pool: h.pool.address, tokenOut: hopTokenOut(h), isBuffer: isBufferModel(h.pool) })),
    given,
  }));
}

/**
 * `BatchRouter.swapExactIn` / `swapExactOut` (and their queries) over the models: paths in
 * order; an exact-in path runs its steps forward, each taking the previous step's amount out; an
 * exact-out path runs them backward, last step first, each step's amount in the amount out the
 * step before it must give. States carry over between steps and paths.
 */
export function replayV3Paths(
  kind: OrderKind,
  paths: readonly V3Path[],
  modelOf: (pool: string) => PoolModel | undefined,
): V3ReplayResult {
  const states = new Map<string, PoolState>();
  const stateOf = (model: PoolModel): PoolState => {
    let s = states.get(model.id);
    if (!s) {
      s = model.initialState();
      states.set(model.id, s);
    }
    return s;
  };
  const results: V3PathAmounts[] = [];
  let amountIn = 0n;
  let amountOut = 0n;
  for (const [p, path] of paths.entries()) {
    if (path.steps.length === 0) return { ok: false, reason: `path ${p}: no steps` };
    const tokensIn = path.steps.map((_s, k) => (k === 0 ? path.tokenIn : path.steps[k - 1]!.tokenOut));
    const order = path.steps.map((_s, k) => k);
    if (kind === 'buy') order.reverse();
    let amount = path.given;
    const stepAmounts: bigint[] = [];
    for (const k of order) {
      const step = path.steps[k]!;
      const model = modelOf(step.pool.toLowerCase());
      if (!model) return { ok: false, reason: `path ${p} step ${k}: pool ${step.pool} is not routable here` };
      if (isBufferModel(model) !== step.isBuffer) {
        return {
          ok: false,
          reason: `path ${p} step ${k}: ${step.pool} ${step.isBuffer ? 'is no buffer' : 'is a buffer'}`,
        };
      }
      const i = model.tokens.indexOf(tokensIn[k]!.toLowerCase());
      const j = model.tokens.indexOf(step.tokenOut.toLowerCase());
      if (i < 0 || j < 0 || !model.canSwap(i, j)) {
        return {
          ok: false,
          reason: `path ${p} step ${k}: ${step.pool} does not swap ${tokensIn[k]} for ${step.tokenOut}`,
        };
      }
      const state = stateOf(model);
      let calculated: bigint;
      try {
        calculated = model.swap(state, kind === 'sell' ? 'givenIn' : 'givenOut', i, j, amount);
      } catch (e) {
        if (isRevert(e)) return { ok: false, reason: `path ${p} step ${k}: ${e.message}` };
        throw e;
      }
      if (kind === 'sell') model.apply(state, i, j, amount, calculated);
      else model.apply(state, i, j, calculated, amount);
      stepAmounts.push(calculated);
      amount = calculated;
    }
    const [pathIn, pathOut] = kind === 'sell' ? [path.given, amount] : [amount, path.given];
    results.push({ amountIn: pathIn, amountOut: pathOut, stepAmounts });
    amountIn += pathIn;
    amountOut += pathOut;
  }
  return { ok: true, paths: results, amountIn, amountOut };
}
