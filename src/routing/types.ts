/**
 * Wire types of `/sor` and `/order`: what clients (and the end-to-end suite) read. Every amount is
 * a decimal string of smallest units.
 */

export type OrderKind = 'sell' | 'buy';

/** A validated quote request (addresses lower-case; native-asset aliases kept as sent). */
export interface QuoteRequest {
  readonly sellToken: string;
  readonly buyToken: string;
  readonly orderKind: OrderKind;
  readonly amount: bigint;
  readonly gasPrice: bigint;
  /** Pools with a known liquidity below this (USD) are not routed through. */
  readonly minLiquidityUsd: number;
}

export interface SerializedSwap {
  readonly poolId: string;
  readonly assetInIndex: number;
  readonly assetOutIndex: number;
  readonly amount: string;
  readonly userData: string;
}

/** `SwapInfo` of @balancer-labs/sor 4.1.3 with every amount as a decimal string. */
export interface SerializedSwapInfo {
  readonly tokenAddresses: string[];
  readonly swaps: SerializedSwap[];
  readonly swapAmount: string;
  readonly swapAmountForSwaps: string;
  readonly returnAmount: string;
  readonly returnAmountFromSwaps: string;
  readonly returnAmountConsideringFees: string;
  readonly tokenIn: string;
  readonly tokenInForSwaps: string;
  readonly tokenOut: string;
  readonly tokenOutFromSwaps: string;
  readonly marketSp: string;
  /**
   * Share of value the trade's own size costs against the spot price `marketSp` (fees included),
   * e.g. "0.0012" = 0.12 %. A display figure; amounts are exact.
   */
  readonly priceImpact?: string;
}

export interface OrderPrice {
  readonly sellAmount: string;
  readonly buyAmount: string;
  /** The contract the sender must approve for the sell token (the Vault). */
  readonly allowanceTarget: string;
  /** The route's spot price (`marketSp`). */
  readonly price: string;
}

/** `POST /order/{chainId}`: a `Vault.batchSwap` transaction ready to sign and send. */
export interface SorOrderResponse {
  readonly price: OrderPrice;
  /** Contract to call: the Vault, or the batch relayer when `relayerApprovalRequired`. */
  readonly to: string;
  readonly data: string;
  /** Wei to send with the transaction (native-asset input), decimal string. */
  readonly value: string;
  /** Sell orders: the least the receiver gets, else the transaction reverts. */
  readonly minBuyAmount?: string;
  /** Buy orders: the most the sender pays, else the transaction reverts. */
  readonly maxSellAmount?: string;
  /** Unix seconds after which the Vault rejects the transaction. */
  readonly deadline: number;
  /** The route's price impact against its spot price (see `SerializedSwapInfo.priceImpact`). */
  readonly priceImpact: string;
  /** True when `to` is the batch relayer and the sender must first call `setRelayerApproval`. */
  readonly relayerApprovalRequired: boolean;
}
