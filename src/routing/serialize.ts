import type { SwapInfo } from '@balancer-labs/sor';
import type { SerializedSwapInfo } from './types';

/** SOR `SwapInfo` -> the wire shape: exactly its fields, amounts as decimal strings. */
export function serializeSwapInfo(info: SwapInfo): SerializedSwapInfo {
  return {
    tokenAddresses: [...info.tokenAddresses],
    swaps: info.swaps.map((s) => ({
      poolId: s.poolId,
      assetInIndex: s.assetInIndex,
      assetOutIndex: s.assetOutIndex,
      amount: String(s.amount),
      userData: s.userData,
    })),
    swapAmount: info.swapAmount.toString(),
    swapAmountForSwaps: info.swapAmountForSwaps.toString(),
    returnAmount: info.returnAmount.toString(),
    returnAmountFromSwaps: info.returnAmountFromSwaps.toString(),
    returnAmountConsideringFees: info.returnAmountConsideringFees.toString(),
    tokenIn: info.tokenIn,
    tokenInForSwaps: info.tokenInForSwaps ?? info.tokenIn,
    tokenOut: info.tokenOut,
    tokenOutFromSwaps: info.tokenOutFromSwaps ?? info.tokenOut,
    marketSp: info.marketSp,
  };
}

/** "No route": no swaps and zero amounts, naming the tokens that were asked for. */
export function emptySwapInfo(tokenIn: string, tokenOut: string): SerializedSwapInfo {
  return {
    tokenAddresses: [],
    swaps: [],
    swapAmount: '0',
    swapAmountForSwaps: '0',
    returnAmount: '0',
    returnAmountFromSwaps: '0',
    returnAmountConsideringFees: '0',
    tokenIn,
    tokenInForSwaps: tokenIn,
    tokenOut,
    tokenOutFromSwaps: tokenOut,
    marketSp: '0',
  };
}

export function hasRoute(info: SerializedSwapInfo): boolean {
  return info.swaps.length > 0 && BigInt(info.returnAmount) > 0n;
}
