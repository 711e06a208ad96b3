import type { OrderKind, SerializedSwapInfo, SerializedV3SwapInfo } from './types';

/**
 * `/order` without `protocolVersion`: which Vault's route serves the user better after gas. More
 * received for a sell, less paid for a buy (`returnAmountConsideringFees`, gas priced the same way
 * for both); a tie stays with V2, whose orders need no Permit2 approvals.
 */
export function v3IsBetter(kind: OrderKind, v3: SerializedV3SwapInfo, v2: SerializedSwapInfo): boolean {
  const a = BigInt(v3.returnAmountConsideringFees);
  const b = BigInt(v2.returnAmountConsideringFees);
  return kind === 'sell' ? a > b : a < b;
}
