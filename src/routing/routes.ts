import { Router, type Request } from 'express';
import type { AppContext } from '../appContext';
import { NATIVE_ASSET_ALIASES, type ChainInfo } from '../config/chains';
import { HttpError } from '../http/errors';
import { REASONS } from '../http/errorReasons';
import { resolveChainParam } from '../http/chainParam';
import { loadedSnapshot } from '../http/snapshot';
import { buyOnlySale } from '../domain/poolTypes/weighted/v3/lbpV3Stored';
import type { ChainSnapshot } from '../readModel/chainSnapshot';
import { checkParties } from './v2/buildOrder';
import { knownContracts } from './knownContracts';
import { v3IsBetter } from './protocolChoice';
import { checkDeadline, orderDeadline, refuseStaleState, snapshotFor, type Quoting } from './quoting';
import { parseMinLiquidity, parseOrderBody, parseSorBody, RequestError, type SorBody } from './requestSchema';
import { pricedAtOf, retimed } from '../jobs/retime';
import { hasRoute } from './serialize';
import type { QuoteRequest, SerializedSwapInfo } from './types';

/** `POST /sor/{chainId}` and `POST /order/{chainId}`. */

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
 * `blockNumber`: the block the quote's pool state was read at, on chains whose head the service
 * follows (jobs/headFollower.ts); absent where the pools are the subgraph's values. `pricedAt`:
 * the unix seconds its time-moving pools were priced at, the block the transaction should land in.
 */
function atBlock<T extends object>(answer: T, snap: ChainSnapshot, pricedAt: number | undefined): T {
  return {
    ...answer,
    ...(snap.block ? { blockNumber: snap.block.number } : {}),
    ...(pricedAt !== undefined ? { pricedAt } : {}),
  };
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

/** A V3 order on a chain where Balancer V3 is not deployed: the caller's to fix. */
function requireV3(chain: ChainInfo): void {
  if (!chain.v3)
    throw new HttpError(
      400,
      `protocolVersion: Balancer V3 is not deployed on chain ${chain.id} (${chain.name}); send 2 or leave it out`,
    );
}

export function routingRouter(ctx: AppContext, quoting: Quoting): Router {
  const r = Router();

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
      const v3Quote = await quoting.v3(chain, snap, quoteRequest(ctx, req, chain, body));
      res.json(atBlock(v3Quote.info, snap, v3Quote.pricedAt));
      return;
    }
    const info: SerializedSwapInfo = await quoting.v2WithLido(chain, snap, quoteRequest(ctx, req, chain, body));
    res.json(atBlock({ protocolVersion: 2, ...info }, snap, pricedAtOf(chain, snap)));
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
    const deadline = orderDeadline(ctx, snap, body.deadline);
    const request = quoteRequest(ctx, req, chain, body);
    // Without protocolVersion both Vaults quote, in parallel on the quote threads, and the user
    // gets the better after gas; V3 only where it is deployed and the sender receives (its
    // routers pay msg.sender).
    // On a chain that makes blocks on demand, time-moving pools are priced at the node's clock:
    // the block a transaction sent now lands in.
    // What the follower evaluates into the state (V2 and V3 ramps, V2 LBP weights) is evaluated
    // there first; V3 types that take the timestamp price at it on the quote threads.
    const clock = await quoting.chainClock(chain);
    const timed = retimed(ctx, chain, snap, clock);
    const [v3Quote, v2Info] = await Promise.all([
      chain.v3 && body.protocolVersion !== 2 && body.receiver === body.sender
        ? quoting.v3(chain, timed.snap, request, clock)
        : undefined,
      body.protocolVersion === 3 ? undefined : quoting.v2WithLido(chain, timed.snap, request),
    ]);
    const v3Routed = v3Quote && v3Quote.info.paths.length > 0 ? v3Quote.info : undefined;
    const v2Routed = v2Info && hasRoute(v2Info) ? v2Info : undefined;
    if (!v3Routed && !v2Routed) {
      throw new HttpError(
        422,
        `no route from ${body.sellToken} to ${body.buyToken} for ${body.orderKind} amount ${body.amount} on chain ${chain.id}${body.protocolVersion ? ` in Balancer V${body.protocolVersion}` : ''}; ${noRouteHint(snap, body, relayer)} (no transaction was built)`,
        {},
        { reason: REASONS.NO_ROUTE },
      );
    }
    if (v3Routed && (!v2Routed || v3IsBetter(body.orderKind, v3Routed, v2Routed))) {
      res.json(
        atBlock(await quoting.v3Order(chain, timed.snap, body, v3Routed, deadline), timed.snap, v3Quote!.pricedAt),
      );
      return;
    }
    const v2Order = await quoting.v2Order(body, v2Routed!, { chain, snap: timed.snap, relayer, deadline });
    res.json(atBlock({ protocolVersion: 2, ...v2Order }, timed.snap, timed.pricedAt));
  });

  return r;
}
