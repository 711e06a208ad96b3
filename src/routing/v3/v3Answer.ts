import { replayV3Paths, toV3Paths } from '../../domain/protocols/v3/engine/paths';
import type { PoolModel } from '../../domain/swap/poolModel';
import type { Route } from '../../domain/swap/route';
import { plainDecimal, priceImpact } from '../priceImpact';
import type { SerializedV3SwapInfo } from '../types';

/**
 * Each path's amounts at its token boundaries, in path order: the amount in, after each step,
 * the amount out (steps + 1 entries). What the current Balancer API's route hops show.
 */
export type V3HopAmounts = readonly (readonly bigint[])[];

/**
 * The engine's route over the V3 Vault's models as `/sor`'s V3 answer: the BatchRouter's paths,
 * each with the amounts its replay in order gives (`replayV3Paths`), the totals, and the route's
 * price figures, and what it assumes of the transaction (`assumptions`: a MEV capture pool quoted at
 * its static fee). Undefined when the replay refuses the route (the engine's own replay passed, so
 * that is a bug the caller reports as no route).
 */
export function v3SwapInfo(
  route: Route,
  wire: { readonly tokenIn: string; readonly tokenOut: string },
  modelOf: (pool: string) => PoolModel | undefined,
  decimalsOf: (token: string) => number,
): { readonly info: SerializedV3SwapInfo; readonly hopAmounts: V3HopAmounts } | undefined {
  const paths = toV3Paths(route);
  const replay = replayV3Paths(route.kind, paths, modelOf);
  if (!replay.ok) return undefined;
  // A sell's step amounts run forward (each step's out), a buy's backward (each step's in).
  const hopAmounts = replay.paths.map((p) =>
    route.kind === 'sell' ? [p.amountIn, ...p.stepAmounts] : [...p.stepAmounts].reverse().concat(p.amountOut),
  );
  const returnAmount = route.kind === 'sell' ? replay.amountOut : replay.amountIn;
  const assumptions = [
    ...new Set(
      paths.flatMap((p) =>
        p.steps.flatMap((s) => {
          const note = modelOf(s.pool)?.assumption;
          return note === undefined ? [] : [note];
        }),
      ),
    ),
  ];
  const consideringFees = route.kind === 'sell' ? returnAmount - route.gasCost : returnAmount + route.gasCost;
  const info: SerializedV3SwapInfo = {
    protocolVersion: 3,
    paths: paths.map((p, k) => ({
      tokenIn: p.tokenIn,
      steps: p.steps.map((s) => ({ pool: s.pool, tokenOut: s.tokenOut, isBuffer: s.isBuffer })),
      amountIn: replay.paths[k]!.amountIn.toString(),
      amountOut: replay.paths[k]!.amountOut.toString(),
    })),
    swapAmount: route.amount.toString(),
    returnAmount: returnAmount.toString(),
    returnAmountConsideringFees: consideringFees.toString(),
    tokenIn: wire.tokenIn,
    tokenOut: wire.tokenOut,
    marketSp: plainDecimal(route.spotPrice),
    priceImpact: priceImpact(
      route.kind,
      route.amount,
      returnAmount,
      decimalsOf(route.tokenIn),
      decimalsOf(route.tokenOut),
      route.spotPrice,
    ),
    ...(assumptions.length > 0 ? { assumptions } : {}),
  };
  return { info, hopAmounts };
}

/** "No V3 route": no paths and zero amounts, naming the tokens asked for. */
export function emptyV3SwapInfo(tokenIn: string, tokenOut: string): SerializedV3SwapInfo {
  return {
    protocolVersion: 3,
    paths: [],
    swapAmount: '0',
    returnAmount: '0',
    returnAmountConsideringFees: '0',
    tokenIn,
    tokenOut,
    marketSp: '0',
    priceImpact: '0',
  };
}
