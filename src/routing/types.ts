/**
 * Wire types of `/sor` and `/order`: what clients (and the end-to-end suite) read. Every amount is
 * a decimal string of smallest units.
 */

import type { OrderKind } from '../domain/swap/route';

export type { OrderKind };

/** A validated quote request (addresses lower-case; native-asset aliases kept as sent). */
export interface QuoteRequest {
  readonly sellToken: string;
  readonly buyToken: string;
  readonly orderKind: OrderKind;
  readonly amount: bigint;
  readonly gasPrice: bigint;
  /** Pools with a known liquidity below this (USD) are not routed through. */
  readonly minLiquidityUsd: number;
  /** Answer every step's `returnAmount` even on a plain Vault route (stETH routes build on them; `routing/v2/lido.ts`). */
  readonly stepAmounts?: boolean;
  /** The best single path, no split: a stETH sell's one relayer wrap feeds one path (`routing/v2/lido.ts`). */
  readonly singlePath?: boolean;
  /**
   * The snapshot's pools are a subset the client chose (GraphQL's `poolIds`): their version travels
   * to the quote threads on a line of its own, so it never displaces the chain's (`poolVersions.ts`).
   */
  readonly restricted?: boolean;
}

/**
 * A step of a relayer route that is not a Vault swap: `join` takes `assetInIndex` into the pool and
 * gives its BPT (`assetOutIndex`), `exit` takes the BPT and gives one token; `wrap` is the
 * relayer's `wrapStETH` (stETH -> wstETH, first step of a path) and `unwrap` its `unwrapWstETH`
 * (wstETH -> stETH, last step of a path), both with the zero pool id. Absent: a Vault swap.
 */
export type StepAction = 'join' | 'exit' | 'wrap' | 'unwrap';

export interface SerializedSwap {
  readonly poolId: string;
  readonly assetInIndex: number;
  readonly assetOutIndex: number;
  readonly amount: string;
  readonly userData: string;
  /** Only on join, exit, wrap and unwrap steps (which `Vault.batchSwap` cannot do; see `relayerRequired`). */
  readonly action?: StepAction;
  /** Relayer routes: the step's exact result (what it pays out), as the SOR's own optional field. */
  readonly returnAmount?: string;
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
  /**
   * Present (true) only when a step is a join, exit, wrap or unwrap: the route must be sent through the chain's
   * BatchRelayer (as `/order` does), not as one `Vault.batchSwap`.
   */
  readonly relayerRequired?: true;
}

export interface OrderPrice {
  readonly sellAmount: string;
  readonly buyAmount: string;
  /** The contract the sender must approve for the sell token (the Vault). */
  readonly allowanceTarget: string;
  /** The route's spot price (`marketSp`). */
  readonly price: string;
}

/**
 * What the sender must have done before sending an order, each with the call that does it (`to`,
 * `data`, sent by the sender). Where the chain has a node, ERC-20 and Permit2 allowances already in
 * place at the served block are not listed (`erc20Approvals`); the relayer approval is not read:
 * `Vault.hasApprovedRelayer(sender, relayer)` tells whether to skip it.
 */
export type Approval =
  | {
      /** `Vault.setRelayerApproval(sender, relayer, true)`, sent by the sender to the Vault. */
      readonly kind: 'relayer';
      readonly relayer: string;
      readonly vault: string;
      readonly sender: string;
      readonly to: string;
      readonly data: string;
    }
  | {
      /**
       * `token.approve(spender, amount)`: the least allowance the Vault needs to pull the sell
       * token (V2), or Permit2 needs (V3: the spender is Permit2).
       */
      readonly kind: 'erc20';
      readonly token: string;
      readonly spender: string;
      readonly amount: string;
      readonly to: string;
      readonly data: string;
    }
  | {
      /**
       * V3: `Permit2.approve(token, spender, amount, expiration)`, sent by the sender to Permit2, so
       * the V3 router (`spender`) may pull `amount` of the sell token until `expiration` (unix seconds).
       */
      readonly kind: 'permit2';
      readonly token: string;
      readonly spender: string;
      readonly amount: string;
      readonly expiration: number;
      readonly to: string;
      readonly data: string;
    };

/**
 * `POST /order/{chainId}`: a `Vault.batchSwap` or `BatchRelayer.multicall` transaction ready to sign
 * and send (V2), or a V3 router's swap (`protocolVersion: 3`).
 */
export interface SorOrderResponse {
  /** The Vault the transaction swaps through (absent in answers built before V3). */
  readonly protocolVersion?: 2 | 3;
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
  /** In order: what the sender must approve first (none for a native-asset sell through the Vault). */
  readonly approvals: readonly Approval[];
  /** V3: what the quote assumes of the transaction (`SerializedV3SwapInfo.assumptions`). */
  readonly assumptions?: readonly string[];
}

/** A step of a V3 path as the BatchRouter takes it: a pool (or, for a buffer, the ERC-4626 token) and the token it gives. */
export interface SerializedV3Step {
  readonly pool: string;
  readonly tokenOut: string;
  readonly isBuffer: boolean;
}

/** A V3 path with its exact amounts (replayed in order with every earlier path's state). */
export interface SerializedV3Path {
  /** The wrapped native token where the order sells the native asset (the router wraps it with `wethIsEth`). */
  readonly tokenIn: string;
  readonly steps: readonly SerializedV3Step[];
  readonly amountIn: string;
  readonly amountOut: string;
}

/** `/sor` with `protocolVersion: 3`: BatchRouter paths instead of a V2 `batchSwap`. */
export interface SerializedV3SwapInfo {
  readonly protocolVersion: 3;
  readonly paths: readonly SerializedV3Path[];
  readonly swapAmount: string;
  readonly returnAmount: string;
  readonly returnAmountConsideringFees: string;
  readonly tokenIn: string;
  readonly tokenOut: string;
  readonly marketSp: string;
  readonly priceImpact: string;
  /**
   * What the quote assumes that the chain may not pay otherwise, one line per pool concerned (a
   * MEV capture pool quoted at its static fee); absent when it assumes nothing.
   */
  readonly assumptions?: readonly string[];
}
