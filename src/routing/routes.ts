import { Router, type Request } from 'express';
import type { AppContext } from '../appContext';
import { NATIVE_ASSET_ALIASES, type ChainInfo } from '../config/chains';
import { HttpError, OperationalRefusal } from '../http/errors';
import { QuoteTimeoutError } from './quoteExecutor';
import { resolveChainParam } from '../http/chainParam';
import { loadedSnapshot } from '../http/snapshot';
import { stateBehindRefusal } from '../http/stateRefusal';
import { followStatusKey, staleReason } from '../jobs/headFollower';
import { BlockPastHead, isFollowed, StateBehindHead, stateAt, type StateWanted } from '../jobs/headGate';
import { buyOnlySale } from '../domain/poolTypes/weighted/v3/lbpStored';
import type { ChainSnapshot } from '../readModel/chainSnapshot';
import type { WstEthRates } from '../sources/lido/wstEthRates';
import { buildOrder, checkParties } from './buildOrder';
import { knownContracts } from './knownContracts';
import { quoteWithLido } from './lido';
import type { QuoteService } from './quoteService';
import { LimitError } from './limits';
import { v3IsBetter } from './protocolChoice';
import {
  parseMinLiquidity,
  parseOrderBody,
  parseSorBody,
  RequestError,
  type OrderBody,
  type SorBody,
} from './requestSchema';
import { hasRoute } from './serialize';
import { v3QuoteTime } from './v3/quoteTime';
import { V3Router } from './v3/v3Router';
import type { QuoteRequest, SerializedSwapInfo, SerializedV3SwapInfo } from './types';
import { encodeV3Order } from './v3/encodeV3Order';
import type { Permit2AllowanceReader } from '../sources/rpc/permit2Allowances';

/** `POST /sor/{chainId}` and `POST /order/{chainId}`. */

/** One hour, as the old API gave. */
export const DEFAULT_DEADLINE_SECONDS = 3600;

function badRequest<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof RequestError) throw new HttpError(400, e.message);
    throw e;
  }
}

function isNative(chain: ChainInfo, token: string): boolean {
  return NATIVE_ASSET_ALIASES.includes(token) || token === chain.wrappedNative;
}

function quoteRequest(ctx: AppContext, req: Request, chain: ChainInfo, body: SorBody): QuoteRequest {
  if (isNative(chain, body.sellToken) && isNative(chain, body.buyToken)) {
    throw new HttpError(
      400,
      `buyToken: ${body.buyToken} and sellToken ${body.sellToken} are both the native asset of chain ${chain.id} (or its wrapped token); wrap or unwrap directly instead of swapping`,
    );
  }
  const minLiquidityUsd = badRequest(() =>
    parseMinLiquidity(req.query.minLiquidity, ctx.config.routing.minLiquidityUsd),
  );
  return {
    sellToken: body.sellToken,
    buyToken: body.buyToken,
    orderKind: body.orderKind,
    amount: body.amount,
    gasPrice: body.gasPrice,
    minLiquidityUsd,
  };
}

/**
 * The snapshot to answer from: at the node's head for `/order`, at `minBlockNumber` or later when
 * asked (jobs/headGate.ts), else the current one. A state that cannot be had in time is a 503
 * with Retry-After naming the node, never an answer on the older block.
 */
async function snapshotFor(ctx: AppContext, chain: ChainInfo, wanted: StateWanted): Promise<ChainSnapshot> {
  if (wanted.minBlock !== undefined && !isFollowed(ctx, chain.id))
    throw new HttpError(
      400,
      `minBlockNumber: chain ${chain.id}'s pools are the subgraph's values, read at no block (its head is not followed: no RPC_URL_${chain.id}, or FOLLOW_HEAD=off), so no block can be promised; leave minBlockNumber out`,
    );
  try {
    return await stateAt(ctx, chain, wanted);
  } catch (e) {
    if (e instanceof StateBehindHead) throw stateBehindRefusal(ctx, chain.id, e);
    if (e instanceof BlockPastHead) throw new HttpError(400, e.message);
    throw e;
  }
}

/**
 * The block the quote's pool state was read at, on chains whose head the service follows
 * (jobs/headFollower.ts); absent where the pools are the subgraph's values.
 */
function atBlock<T extends object>(answer: T, snap: ChainSnapshot): T | (T & { blockNumber: number }) {
  return snap.block ? { ...answer, blockNumber: snap.block.number } : answer;
}

/**
 * A transaction built on state the chain's node has not confirmed for FOLLOW_STALE_SECONDS would
 * likely revert or pay less than quoted: `/order` answers 503 naming the node instead, an
 * operational refusal (logged once per outage, `http/errors.ts`): an outage of failing polls is
 * the one since the last good poll, a stuck head the one since it last moved.
 */
function refuseStaleState(ctx: AppContext, chain: ChainInfo): void {
  const status = ctx.state.get(followStatusKey).get(chain.id);
  const staleMs = ctx.config.follow.staleSeconds * 1000;
  const reason = status ? staleReason(status, ctx.now(), staleMs) : null;
  if (!status || !reason) return;
  const since = reason.startsWith('has failed every read')
    ? `failing since ${status.lastSuccessAt ?? status.startedAt}`
    : `head ${status.head?.number ?? 'none'} since ${status.headMovedAt}`;
  throw new OperationalRefusal(
    503,
    `the RPC node of chain ${chain.id} (RPC_URL_${chain.id}) ${reason}; pool state is block ${status.stateBlock?.number ?? 'none'}, so no transaction is built on it; retry later`,
    `stale state of chain ${chain.id}`,
    `${status.stateBlock?.hash ?? 'none'} ${since}`,
    { 'Retry-After': '5' },
  );
}

/** Why a pair with a pool's BPT on one side, or a buy-only sale's token sold, may have no route, else the generic advice. */
function noRouteHint(snap: ChainSnapshot, body: SorBody, relayer: string | null): string {
  const bpt = [body.sellToken, body.buyToken].some((t) => snap.pools.some((p) => p.address === t));
  if (bpt && !relayer)
    return `joins and exits need a batch relayer and this chain has none configured (BATCH_RELAYER_${snap.chainId})`;
  if (bpt && body.orderKind === 'buy')
    return 'joins and exits take an exact amount in, so a route into or out of a pool token (BPT) may need a sell order';
  const sale = buyOnlySale(snap.pools, body.sellToken, body.buyToken);
  if (sale)
    return `${sale.name || 'the token sale'} (${sale.address}) only sells its project token ${body.sellToken} and never buys it back, and no other pool connects the pair`;
  return 'try another amount or pair';
}

/** A deadline the order would be refused at: the caller's to fix. */
function checkDeadline(deadline: number | undefined, nowSeconds: number): void {
  if (deadline !== undefined && deadline <= nowSeconds)
    throw new HttpError(
      400,
      `deadline: ${deadline} is not in the future (now is ${nowSeconds}); send unix seconds ahead of now, or leave it out for now + 60 min`,
    );
}

/** A V3 order on a chain where Balancer V3 is not deployed: the caller's to fix. */
function requireV3(chain: ChainInfo): void {
  if (!chain.v3)
    throw new HttpError(
      400,
      `protocolVersion: Balancer V3 is not deployed on chain ${chain.id} (${chain.name}); send 2 or leave it out`,
    );
}

export function routingRouter(
  ctx: AppContext,
  quotes: QuoteService,
  wstEthRates: (chainId: number) => WstEthRates | undefined = () => undefined,
  /** Reads a V3 order's sender's allowances at the head; without one every Permit2 approval is listed. */
  allowances: (chainId: number) => Permit2AllowanceReader | undefined = () => undefined,
): Router {
  const r = Router();
  const v3 = new V3Router((chainId, poolId, err) =>
    ctx.logger.error(
      { chainId, poolId, err },
      'V3 pool model failed to build: a bug in the engine, the pool is left out of routes',
    ),
  );
  // stETH in or out is quoted as wstETH with a relayer wrap or unwrap (routing/lido.ts).
  const quote = (chain: ChainInfo, snap: ChainSnapshot, req: QuoteRequest) =>
    quoteWithLido(chain, wstEthRates(chain.id), req, (q) => quotes.quote(chain, snap, q)).catch((e: unknown) => {
      // Our fault, not the caller's: the router took too long on this order.
      if (e instanceof QuoteTimeoutError)
        throw new HttpError(
          503,
          `the router did not answer ${req.orderKind} ${req.amount} of ${req.orderKind === 'sell' ? req.sellToken : req.buyToken} (${req.sellToken} -> ${req.buyToken}) on chain ${chain.id} within ${e.timeoutMs} ms (QUOTE_TIMEOUT_MS) and was stopped; retry later or try another amount`,
        );
      throw e;
    });

  r.post('/sor/:chainId', async (req, res) => {
    const chain = resolveChainParam(req.params.chainId, ctx.config);
    const loaded = loadedSnapshot(ctx, chain);
    const body = badRequest(() => parseSorBody(req.body));
    const snap =
      body.minBlockNumber === undefined
        ? loaded
        : await snapshotFor(ctx, chain, { atNodeHead: false, minBlock: body.minBlockNumber });
    if (body.protocolVersion === 3) {
      requireV3(chain);
      const v3Quote = v3.quote(chain, snap, quoteRequest(ctx, req, chain, body), v3QuoteTime(chain, snap, ctx.now()));
      res.json(atBlock(v3Quote.info, snap));
      return;
    }
    const info: SerializedSwapInfo = await quote(chain, snap, quoteRequest(ctx, req, chain, body));
    res.json(atBlock({ protocolVersion: 2, ...info }, snap));
  });

  r.post('/order/:chainId', async (req, res) => {
    const chain = resolveChainParam(req.params.chainId, ctx.config);
    const loaded = loadedSnapshot(ctx, chain);
    const body = badRequest(() => parseOrderBody(req.body));
    checkDeadline(body.deadline, Math.floor(ctx.now() / 1000));
    const relayer = ctx.config.routing.batchRelayers.get(chain.id) ?? null;
    if (body.protocolVersion === 3) {
      requireV3(chain);
      if (body.receiver !== body.sender)
        throw new HttpError(
          400,
          `receiver: Balancer V3's routers pay the sender, so a V3 order's receiver must be its sender (${body.sender}); leave receiver out, or send protocolVersion 2`,
        );
    }
    checkParties(body, chain, knownContracts(chain, loaded, relayer));
    refuseStaleState(ctx, chain);
    // The client may have seen a block the served state lacks (its own or another party's trade).
    const snap = await snapshotFor(ctx, chain, { atNodeHead: true, minBlock: body.minBlockNumber });
    // The contracts check the deadline against the block's time: a chain whose clock runs ahead of
    // ours (a devnet moved on with evm_increaseTime) would refuse one taken from our clock alone.
    const nowSeconds = Math.max(Math.floor(ctx.now() / 1000), snap.block?.timestamp ?? 0);
    checkDeadline(body.deadline, nowSeconds);
    const deadline = body.deadline ?? nowSeconds + DEFAULT_DEADLINE_SECONDS;
    const request = quoteRequest(ctx, req, chain, body);
    // Without protocolVersion both Vaults quote and the user gets the better after gas; V3 only
    // where it is deployed and the sender receives (its routers pay msg.sender).
    const v3Quote =
      chain.v3 && body.protocolVersion !== 2 && body.receiver === body.sender
        ? v3.quote(chain, snap, request, v3QuoteTime(chain, snap, ctx.now()))
        : undefined;
    const v2Info = body.protocolVersion === 3 ? undefined : await quote(chain, snap, request);
    const v3Routed = v3Quote && v3Quote.info.paths.length > 0 ? v3Quote.info : undefined;
    const v2Routed = v2Info && hasRoute(v2Info) ? v2Info : undefined;
    if (!v3Routed && !v2Routed) {
      throw new HttpError(
        422,
        `no route from ${body.sellToken} to ${body.buyToken} for ${body.orderKind} amount ${body.amount} on chain ${chain.id}${body.protocolVersion ? ` in Balancer V${body.protocolVersion}` : ''}; ${noRouteHint(snap, body, relayer)} (no transaction was built)`,
      );
    }
    if (v3Routed && (!v2Routed || v3IsBetter(body.orderKind, v3Routed, v2Routed))) {
      res.json(atBlock(await v3Order(chain, snap, body, v3Routed, deadline), snap));
      return;
    }
    res.json(atBlock({ protocolVersion: 2, ...buildOrder(body, v2Routed!, { chain, snap, relayer, deadline }) }, snap));
  });

  /** The V3 transaction, with the Permit2 approvals the sender's allowances at the head leave missing. */
  async function v3Order(
    chain: ChainInfo,
    snap: ChainSnapshot,
    body: OrderBody,
    info: SerializedV3SwapInfo,
    deadline: number,
  ) {
    const v3Chain = chain.v3!;
    const nativeIn = NATIVE_ASSET_ALIASES.includes(body.sellToken);
    const nativeOut = NATIVE_ASSET_ALIASES.includes(body.buyToken);
    const single = info.paths.length === 1 && info.paths[0]!.steps.length === 1 && !info.paths[0]!.steps[0]!.isBuffer;
    const reader = allowances(chain.id);
    const current =
      nativeIn || !reader
        ? undefined
        : await reader.read({
            token: info.paths[0]!.tokenIn,
            sender: body.sender,
            router: single ? v3Chain.router : v3Chain.batchRouter,
            permit2: v3Chain.permit2,
            block: snap.block ? `0x${snap.block.number.toString(16)}` : 'latest',
          });
    try {
      return encodeV3Order({
        kind: body.orderKind,
        info,
        slippage: body.slippage,
        deadline,
        v3: v3Chain,
        nativeIn,
        nativeOut,
        ...(current ? { allowances: current } : {}),
      });
    } catch (e) {
      if (e instanceof LimitError) throw new HttpError(422, `${e.message} (no transaction was built)`);
      throw e;
    }
  }

  return r;
}
