import type { ChainInfo } from '../config/chains';
import { HttpError } from '../http/errors';
import type { ChainSnapshot } from '../readModel/chainSnapshot';
import { LimitError } from './limits';
import { encodeOrder } from './orderEncoding';
import { encodeRelayerOrder, type RoutePool } from './relayer/encodeRelayerOrder';
import { needsRelayer, routeFromSwapInfo } from './relayer/relayerRoute';
import type { OrderBody } from './requestSchema';
import type { SerializedSwapInfo, SorOrderResponse } from './types';

/**
 * `/order`: the quoted route as a transaction. A route the Vault can do alone is one
 * `Vault.batchSwap`; one with a join or exit is a `BatchRelayer.multicall`.
 */

export interface OrderContext {
  readonly chain: ChainInfo;
  readonly snap: ChainSnapshot;
  /** The chain's BatchRelayer, null when relayer routes are turned off there. */
  readonly relayer: string | null;
  readonly deadline: number;
}

/**
 * Contracts that must never be the sender or receiver: a receiver there leaves the tokens where any
 * caller of the relayer (or nobody) can take them, and the relayer as sender means "the relayer's
 * own funds" to its library.
 */
export function checkParties(body: OrderBody, chain: ChainInfo, relayer: string | null): void {
  const forbidden: [string, string][] = [
    [chain.vault, 'the Vault'],
    ...(relayer ? [[relayer, 'the batch relayer'] as [string, string]] : []),
  ];
  // Token contracts keep what is sent to them (stETH refuses it, so the order would revert).
  const tokens: [string, string][] = [
    [body.sellToken, "the sell token's contract"],
    [body.buyToken, "the buy token's contract"],
    ...(chain.lido
      ? ([
          [chain.lido.stETH, 'the stETH contract'],
          [chain.lido.wstETH, 'the wstETH contract'],
        ] as [string, string][])
      : []),
  ];
  const hitToken = tokens.find(([address]) => address.toLowerCase() === body.receiver.toLowerCase());
  if (hitToken)
    throw new HttpError(
      400,
      `receiver: ${body.receiver} is ${hitToken[1]}; tokens sent there are lost or refused; send the wallet that gets the tokens`,
    );
  for (const [field, value] of [
    ['sender', body.sender],
    ['receiver', body.receiver],
  ] as const) {
    const hit = forbidden.find(([address]) => address === value.toLowerCase());
    if (hit)
      throw new HttpError(
        400,
        `${field}: ${value} is ${hit[1]} of chain ${chain.id}; send the wallet that signs (sender) and the wallet that gets the tokens (receiver)`,
      );
  }
}

function routePool(snap: ChainSnapshot, poolId: string): RoutePool | undefined {
  const p = snap.poolsById.get(poolId);
  return (
    p && {
      poolType: p.poolType,
      address: p.address.toLowerCase(),
      tokens: p.tokens.map((t) => t.address.toLowerCase()),
    }
  );
}

export function buildOrder(body: OrderBody, info: SerializedSwapInfo, ctx: OrderContext): SorOrderResponse {
  const { chain, deadline } = ctx;
  try {
    if (!needsRelayer(info)) {
      return encodeOrder({
        kind: body.orderKind,
        info,
        amount: body.amount,
        sender: body.sender,
        receiver: body.receiver,
        slippage: body.slippage,
        deadline,
        vault: chain.vault,
      });
    }
    if (!ctx.relayer) {
      throw new HttpError(
        422,
        `the route joins or exits a pool or wraps or unwraps stETH, which needs a batch relayer, and chain ${chain.id} has none configured (BATCH_RELAYER_${chain.id}); no transaction was built`,
      );
    }
    if (body.orderKind !== 'sell') {
      throw new HttpError(
        422,
        'a route through a join or exit can only be a sell (joins and exits take an exact amount in); send orderKind "sell" (no transaction was built)',
      );
    }
    return encodeRelayerOrder({
      route: routeFromSwapInfo(info, chain.wrappedNative),
      pool: (id) => routePool(ctx.snap, id),
      amount: body.amount,
      sender: body.sender,
      receiver: body.receiver,
      slippage: body.slippage,
      deadline,
      vault: chain.vault,
      relayer: ctx.relayer,
      marketSp: info.marketSp,
      ...(info.priceImpact === undefined ? {} : { priceImpact: info.priceImpact }),
    });
  } catch (e) {
    if (e instanceof LimitError) throw new HttpError(422, `${e.message} (no transaction was built)`);
    throw e;
  }
}
