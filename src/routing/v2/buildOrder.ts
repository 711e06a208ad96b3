import type { ChainInfo } from '../../config/chains';
import { HttpError } from '../../http/errors';
import { REASONS } from '../../http/errorReasons';
import type { ChainSnapshot } from '../../readModel/chainSnapshot';
import type { ContractLookup } from '../knownContracts';
import { LimitError } from '../limits';
import { encodeOrder } from './orderEncoding';
import { encodeRelayerOrder, type RoutePool } from './relayer/encodeRelayerOrder';
import { needsRelayer, relayerRouteFromSwapInfo } from './relayer/relayerRoute';
import type { OrderBody } from '../requestSchema';
import type { SerializedSwapInfo, SorOrderResponse } from '../types';

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
 * Neither party may be a contract the service knows is not a wallet (knownContracts.ts): a
 * receiver there leaves the tokens where nobody (or any caller of the relayer) can take them, and
 * such a sender cannot sign; the relayer as sender even means "the relayer's own funds" to its
 * library. The order's own tokens are refused even when the read model does not list them.
 */
export function checkParties(body: OrderBody, chain: ChainInfo, known: ContractLookup): void {
  const ownTokens = new Map<string, string>([
    [body.sellToken, "the sell token's contract"],
    [body.buyToken, "the buy token's contract"],
  ]);
  const receiverIs = known(body.receiver) ?? ownTokens.get(body.receiver);
  const senderIs = known(body.sender) ?? ownTokens.get(body.sender);
  if (senderIs)
    throw new HttpError(
      400,
      `sender: ${body.sender} is ${senderIs} on chain ${chain.id}, which cannot sign the order; send the wallet that signs and pays`,
    );
  if (receiverIs)
    throw new HttpError(
      400,
      `receiver: ${body.receiver} is ${receiverIs} on chain ${chain.id}, not a wallet; tokens sent there are lost or refused; send the wallet that gets the tokens`,
    );
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
      route: relayerRouteFromSwapInfo(info, chain.wrappedNative),
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
    if (e instanceof LimitError)
      throw new HttpError(422, `${e.message} (no transaction was built)`, {}, { reason: REASONS.LIMIT_NOT_MET });
    throw e;
  }
}
