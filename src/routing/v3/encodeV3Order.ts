import { getAddress } from 'ethers';
import type { ChainV3 } from '../../config/chains';
import { maxIn, minOut } from '../limits';
import type { OrderKind, SerializedV3SwapInfo, SorOrderResponse } from '../types';
import { permit2Approvals, type Permit2Allowances } from './permit2Approvals';
import { batchRouterInterface, routerInterface } from './v3Abi';

/**
 * A V3 quote -> a V3 router transaction. One path of one pool step is the Router's
 * `swapSingleTokenExactIn`/`Out`; anything else (several paths, several steps, a buffer step) the
 * BatchRouter's `swapExactIn`/`Out`, each path with its own limit from the slippage. The native
 * asset in or out is `wethIsEth` (the paths name the wrapped token; the router wraps what it is
 * sent and unwraps what it pays, and refunds native input it did not use). The routers pay
 * `msg.sender`: a V3 order's receiver is its sender. Pure: the deadline and the sender's current
 * allowances come in as arguments.
 */

export interface V3OrderInput {
  readonly kind: OrderKind;
  readonly info: SerializedV3SwapInfo;
  /** Plain decimal, 0 <= s < 1. */
  readonly slippage: string;
  /** Unix seconds. */
  readonly deadline: number;
  /** Unix seconds, the later of the clock and the served block's time: a Permit2 approval's expiry counts from it. */
  readonly now: number;
  readonly v3: ChainV3;
  /** The native asset in or out (the order named it, not its wrapped token). */
  readonly nativeIn: boolean;
  readonly nativeOut: boolean;
  /** The sender's allowances at the head; undefined lists every approval. */
  readonly allowances?: Permit2Allowances;
}

export function encodeV3Order(input: V3OrderInput): SorOrderResponse {
  const { kind, info, slippage, deadline, v3 } = input;
  const paths = info.paths;
  if (paths.length === 0) throw new Error('a V3 order needs a route');
  const wethIsEth = input.nativeIn || input.nativeOut;
  const limitOf = (p: (typeof paths)[number]) =>
    kind === 'sell' ? minOut(BigInt(p.amountOut), slippage) : maxIn(BigInt(p.amountIn), slippage);
  const limits = paths.map(limitOf);
  const sum = (xs: readonly bigint[]) => xs.reduce((a, b) => a + b, 0n);
  const amountIn = sum(paths.map((p) => BigInt(p.amountIn)));
  const amountOut = sum(paths.map((p) => BigInt(p.amountOut)));
  const maxPaid = kind === 'sell' ? amountIn : sum(limits);
  const minReceived = kind === 'sell' ? sum(limits) : amountOut;
  const single = paths.length === 1 && paths[0]!.steps.length === 1 && !paths[0]!.steps[0]!.isBuffer;
  const router = single ? v3.router : v3.batchRouter;
  let data: string;
  if (single) {
    const p = paths[0]!;
    const step = p.steps[0]!;
    const args = [getAddress(step.pool), getAddress(p.tokenIn), getAddress(step.tokenOut)];
    data =
      kind === 'sell'
        ? routerInterface.encodeFunctionData('swapSingleTokenExactIn', [
            ...args,
            BigInt(p.amountIn),
            limits[0]!,
            deadline,
            wethIsEth,
            '0x',
          ])
        : routerInterface.encodeFunctionData('swapSingleTokenExactOut', [
            ...args,
            BigInt(p.amountOut),
            limits[0]!,
            deadline,
            wethIsEth,
            '0x',
          ]);
  } else {
    const encoded = paths.map((p, k) => [
      getAddress(p.tokenIn),
      p.steps.map((s) => [getAddress(s.pool), getAddress(s.tokenOut), s.isBuffer]),
      ...(kind === 'sell' ? [BigInt(p.amountIn), limits[k]!] : [limits[k]!, BigInt(p.amountOut)]),
    ]);
    data = batchRouterInterface.encodeFunctionData(kind === 'sell' ? 'swapExactIn' : 'swapExactOut', [
      encoded,
      deadline,
      wethIsEth,
      '0x',
    ]);
  }
  const tokenIn = paths[0]!.tokenIn;
  return {
    protocolVersion: 3,
    price: {
      sellAmount: amountIn.toString(),
      buyAmount: amountOut.toString(),
      // The sell token is approved to Permit2, which the router pulls through.
      allowanceTarget: getAddress(v3.permit2),
      price: info.marketSp,
    },
    to: getAddress(router),
    data,
    value: (input.nativeIn ? maxPaid : 0n).toString(),
    ...(kind === 'sell' ? { minBuyAmount: minReceived.toString() } : { maxSellAmount: maxPaid.toString() }),
    deadline,
    priceImpact: info.priceImpact,
    relayerApprovalRequired: false,
    approvals: input.nativeIn
      ? []
      : permit2Approvals({
          token: tokenIn,
          router,
          permit2: v3.permit2,
          amount: maxPaid,
          deadline,
          now: input.now,
          ...(input.allowances ? { current: input.allowances } : {}),
        }),
    ...(info.assumptions ? { assumptions: info.assumptions } : {}),
  };
}
