import type { SerializedSwapInfo } from '../../types';

/**
 * A sell route with join, exit, wrap or unwrap steps, as the relayer encoder reads it: paths of steps, each with
 * its exact quoted result. Built from the `/sor` wire shape (`relayerRouteFromSwapInfo`) so `/order`
 * encodes exactly what `/sor` answers.
 */

export type RouteAction = 'swap' | 'join' | 'exit' | 'wrap' | 'unwrap';

export interface RouteStep {
  readonly action: RouteAction;
  /** Lower-case pool id. */
  readonly poolId: string;
  /** Lower-case; the wrapped native token, never the native marker. */
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** The step's exact quoted output (raw units). */
  readonly amountOut: bigint;
}

export interface RoutePath {
  readonly amountIn: bigint;
  readonly steps: readonly RouteStep[];
}

export interface RelayerRoute {
  /** Lower-case wrapped token addresses. */
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** The sender pays native ETH / the receiver gets native ETH. */
  readonly nativeIn: boolean;
  readonly nativeOut: boolean;
  readonly paths: readonly RoutePath[];
  /** Sum of the paths' outputs. */
  readonly returnAmount: bigint;
}

/** A route the relayer encoder cannot carry: a client error unless it came from our own router. */
export class RelayerRouteError extends Error {
  override readonly name: string = 'RelayerRouteError';
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export function needsRelayer(info: SerializedSwapInfo): boolean {
  return info.swaps.some((s) => s.action !== undefined);
}

function amountOf(value: string | undefined, what: string): bigint {
  if (value === undefined || !/^\d+$/.test(value))
    throw new RelayerRouteError(`${what} is not a non-negative integer ('${value ?? ''}')`);
  return BigInt(value);
}

/**
 * Paths of a sell route in the batchSwap convention: a step with a non-zero amount starts a path,
 * amount 0 continues it from the previous step's output. `wrappedNative` replaces the zero-address
 * native marker in the steps.
 */
export function relayerRouteFromSwapInfo(info: SerializedSwapInfo, wrappedNative: string): RelayerRoute {
  const weth = wrappedNative.toLowerCase();
  const assets = info.tokenAddresses.map((a) => a.toLowerCase());
  const wrapped = (a: string) => (a === ZERO_ADDRESS ? weth : a);
  const tokenIn = info.tokenIn.toLowerCase();
  const tokenOut = info.tokenOut.toLowerCase();
  const paths: { amountIn: bigint; steps: RouteStep[] }[] = [];
  info.swaps.forEach((s, n) => {
    const tIn = assets[s.assetInIndex];
    const tOut = assets[s.assetOutIndex];
    if (tIn === undefined || tOut === undefined || tIn === tOut)
      throw new RelayerRouteError(
        `step ${n} has asset indexes ${s.assetInIndex} -> ${s.assetOutIndex} outside the route's ${assets.length} assets or equal`,
      );
    const amount = amountOf(s.amount, `step ${n} amount`);
    const step: RouteStep = {
      action: s.action ?? 'swap',
      poolId: s.poolId.toLowerCase(),
      tokenIn: wrapped(tIn),
      tokenOut: wrapped(tOut),
      amountOut: amountOf(s.returnAmount, `step ${n} returnAmount`),
    };
    if (amount > 0n) {
      if (wrapped(tIn) !== wrapped(tokenIn))
        throw new RelayerRouteError(`step ${n} starts a path from ${tIn}, not from the sell token ${tokenIn}`);
      paths.push({ amountIn: amount, steps: [step] });
      return;
    }
    const path = paths.at(-1);
    const prev = path?.steps.at(-1);
    if (!path || !prev || prev.tokenOut !== step.tokenIn)
      throw new RelayerRouteError(`step ${n} continues a path (amount 0) but does not take the previous step's output`);
    path.steps.push(step);
  });
  if (paths.length === 0) throw new RelayerRouteError('the route has no steps');
  for (const [k, p] of paths.entries()) {
    if (p.steps.at(-1)!.tokenOut !== wrapped(tokenOut))
      throw new RelayerRouteError(`path ${k} ends at ${p.steps.at(-1)!.tokenOut}, not at the buy token ${tokenOut}`);
  }
  const returnAmount = paths.reduce((sum, p) => sum + p.steps.at(-1)!.amountOut, 0n);
  if (returnAmount !== amountOf(info.returnAmount, 'returnAmount')) {
    throw new RelayerRouteError(`the paths pay ${returnAmount} in all, but returnAmount is ${info.returnAmount}`);
  }
  return {
    tokenIn: wrapped(tokenIn),
    tokenOut: wrapped(tokenOut),
    nativeIn: tokenIn === ZERO_ADDRESS,
    nativeOut: tokenOut === ZERO_ADDRESS,
    paths,
    returnAmount,
  };
}
