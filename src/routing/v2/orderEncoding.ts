import { getAddress } from 'ethers';
import { erc20Approval } from '../approvals';
import { signedLimits } from '../limits';
import type { OrderKind, SerializedSwapInfo, SorOrderResponse } from '../types';
import { SWAP_KIND, vaultInterface } from './vaultAbi';

/**
 * A routed quote -> a `Vault.batchSwap` transaction. Pure: the deadline comes in as an argument.
 * The SOR already put the zero address (the Vault's native-asset marker) in the assets for native
 * input or output, so `value` is whatever the Vault will pull for a native input.
 */

export interface OrderInput {
  readonly kind: OrderKind;
  readonly info: SerializedSwapInfo;
  /** The order amount (sell: exact in; buy: exact out). */
  readonly amount: bigint;
  readonly sender: string;
  readonly receiver: string;
  /** Plain decimal, 0 <= s < 1. */
  readonly slippage: string;
  /** Unix seconds. */
  readonly deadline: number;
  readonly vault: string;
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

function indexOf(addresses: readonly string[], token: string): number {
  const t = token.toLowerCase();
  const i = addresses.findIndex((a) => a.toLowerCase() === t);
  if (i < 0) throw new Error(`token ${token} is not among the route's assets`);
  return i;
}

export function encodeOrder(input: OrderInput): SorOrderResponse {
  const { kind, info, amount } = input;
  const assets = info.tokenAddresses.map((a) => getAddress(a));
  const inIndex = indexOf(info.tokenAddresses, info.tokenIn);
  const outIndex = indexOf(info.tokenAddresses, info.tokenOut);
  const returnAmount = BigInt(info.returnAmount);
  const { limits, maxPaid, minReceived } = signedLimits({
    kind,
    assetCount: assets.length,
    inIndex,
    outIndex,
    amount,
    returnAmount,
    slippage: input.slippage,
  });
  const data = vaultInterface.encodeFunctionData('batchSwap', [
    kind === 'sell' ? SWAP_KIND.GIVEN_IN : SWAP_KIND.GIVEN_OUT,
    info.swaps.map((s) => [s.poolId, s.assetInIndex, s.assetOutIndex, BigInt(s.amount), s.userData]),
    assets,
    [getAddress(input.sender), false, getAddress(input.receiver), false],
    limits,
    input.deadline,
  ]);
  const nativeIn = info.tokenIn.toLowerCase() === ZERO_ADDRESS;
  const sellAmount = kind === 'sell' ? amount : returnAmount;
  const buyAmount = kind === 'sell' ? returnAmount : amount;
  return {
    price: {
      sellAmount: sellAmount.toString(),
      buyAmount: buyAmount.toString(),
      allowanceTarget: getAddress(input.vault),
      price: info.marketSp,
    },
    // Routes with a join or exit go through the relayer (relayer/encodeRelayerOrder.ts); this one is Vault only.
    to: getAddress(input.vault),
    data,
    value: (nativeIn ? maxPaid : 0n).toString(),
    ...(kind === 'sell' ? { minBuyAmount: minReceived.toString() } : { maxSellAmount: maxPaid.toString() }),
    deadline: input.deadline,
    priceImpact: info.priceImpact ?? '0',
    relayerApprovalRequired: false,
    approvals: nativeIn ? [] : [erc20Approval(info.tokenIn, input.vault, maxPaid)],
  };
}
