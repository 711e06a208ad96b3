import type { AppContext } from '../appContext';
import { appStateKey } from '../appState';
import { NATIVE_ASSET_ALIASES, type ChainInfo } from '../config/chains';
import { HttpError, OperationalRefusal } from '../http/errors';
import { REASONS } from '../http/errorReasons';
import { stateBehindRefusal } from '../http/stateRefusal';
import { followStatusKey } from '../jobs/headFollower';
import { staleReason } from '../jobs/follow/followStatus';
import { BlockPastHead, isFollowed, StateBehindHead, servedStateAt, type StateWanted } from '../jobs/headGate';
import type { ChainSnapshot } from '../readModel/chainSnapshot';
import type { WstEthRates } from '../sources/lido/wstEthRates';
import type { GasPriceReader } from '../sources/rpc/gasPrice';
import { pendingBlockTime } from '../sources/rpc/pendingBlock';
import type { Permit2AllowanceReader } from '../sources/rpc/permit2Allowances';
import { buildOrder, type OrderContext } from './v2/buildOrder';
import { LIDO_RPC, quoteWithLido } from './v2/lido';
import { LimitError } from './limits';
import { withMissingApprovals } from './v2/missingApprovals';
import { QuoteTimeoutError } from './quoteExecutor';
import type { QuoteService } from './quoteService';
import type { OrderBody } from './requestSchema';
import type { OrderKind, QuoteRequest, SerializedSwapInfo, SerializedV3SwapInfo, SorOrderResponse } from './types';
import { encodeV3Order } from './v3/encodeV3Order';
import { v3QuoteTime } from './v3/quoteTime';
import type { V3Quote } from './v3/v3Router';

/**
 * The quote paths every dialect shares (`/sor` and `/order` in `routes.ts`, GraphQL's
 * `sorGetSwapPaths`): V2 and V3 through the quote service (both on the quote threads), the snapshot at a
 * block the client names, and the V3 transaction with the Permit2 approvals the sender lacks.
 * The routing feature builds one per app and leaves it under `quotingKey` for the other dialects.
 */

/** One hour, as the old API gave. */
export const DEFAULT_DEADLINE_SECONDS = 3600;

/** Where the routing feature leaves the app's `Quoting` (absent while routing is not mounted). */
export const quotingKey = appStateKey<{ current: Quoting | undefined }>('quoting', () => ({ current: undefined }));

/** A deadline the order would be refused at: the caller's to fix. */
export function checkDeadline(deadline: number | undefined, nowSeconds: number): void {
  if (deadline !== undefined && deadline <= nowSeconds)
    throw new HttpError(
      400,
      `deadline: ${deadline} is not in the future (now is ${nowSeconds}); send unix seconds ahead of now, or leave it out for now + 60 min`,
    );
}

/** An order's "now" (unix seconds): the later of our clock and the served block's time. */
export function orderNow(ctx: AppContext, snap: ChainSnapshot): number {
  return Math.max(Math.floor(ctx.now() / 1000), snap.block?.timestamp ?? 0);
}

/** The block an order's allowances are read at: the served one, else the node's latest. */
function blockTag(snap: ChainSnapshot): string {
  return snap.block ? `0x${snap.block.number.toString(16)}` : 'latest';
}

/**
 * The deadline an order gets: the caller's, or an hour from now. The contracts check it against
 * the block's time: a chain whose clock runs ahead of ours (a devnet moved on with
 * evm_increaseTime) would refuse one taken from our clock alone.
 */
export function orderDeadline(ctx: AppContext, snap: ChainSnapshot, deadline: number | undefined): number {
  const nowSeconds = orderNow(ctx, snap);
  checkDeadline(deadline, nowSeconds);
  return deadline ?? nowSeconds + DEFAULT_DEADLINE_SECONDS;
}

/**
 * A transaction built on state the chain's node has not confirmed for FOLLOW_STALE_SECONDS would
 * likely revert or pay less than quoted: refused with a 503 naming the node, an operational
 * refusal (logged once per outage, `http/errors.ts`): an outage of failing polls is the one since
 * the last good poll, a stuck head the one since it last moved.
 */
export function refuseStaleState(ctx: AppContext, chain: ChainInfo): void {
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
    { reason: REASONS.STALE_STATE },
  );
}

/**
 * The snapshot to answer from: at the node's head, at a named block or later
 * (jobs/headGate.ts), else the current one. A state that cannot be had in time is a 503 with
 * Retry-After naming the node, never an answer on the older block. `minBlockField` names the
 * request's field in the refusal of a block on a chain whose head is not followed.
 */
export async function snapshotFor(
  ctx: AppContext,
  chain: ChainInfo,
  wanted: StateWanted,
  minBlockField = 'minBlockNumber',
): Promise<ChainSnapshot> {
  if (wanted.minBlock !== undefined && !isFollowed(ctx, chain.id))
    throw new HttpError(
      400,
      `${minBlockField}: chain ${chain.id}'s pools are the subgraph's values, read at no block (its head is not followed: no RPC_URL_${chain.id}, or FOLLOW_HEAD=off), so no block can be promised; leave ${minBlockField} out`,
    );
  try {
    return await servedStateAt(ctx, chain, wanted);
  } catch (e) {
    if (e instanceof StateBehindHead) throw stateBehindRefusal(ctx, chain.id, e);
    if (e instanceof BlockPastHead) throw new HttpError(400, e.message);
    throw e;
  }
}

/** A V3 quote with the unix seconds its time-moving pools were priced at (`v3/quoteTime.ts`). */
export interface PricedV3Quote extends V3Quote {
  readonly pricedAt: number;
}

/** What a V3 transaction needs of the order besides its route. */
export interface V3OrderRequest {
  readonly sellToken: string;
  readonly buyToken: string;
  readonly orderKind: OrderKind;
  readonly sender: string;
  readonly slippage: string;
}

export class Quoting {
  constructor(
    private readonly ctx: AppContext,
    readonly quotes: QuoteService,
    private readonly wstEthRates: (chainId: number) => WstEthRates | undefined = () => undefined,
    /** Reads an order's sender's allowances at the head; without one every approval is listed. */
    private readonly allowances: (chainId: number) => Permit2AllowanceReader | undefined = () => undefined,
    private readonly gasPrices: (chainId: number) => GasPriceReader | undefined = () => undefined,
  ) {}

  /**
   * The chain's gas price for a request that names none: read through the chain's node (cached a
   * few seconds); 0 where the chain has no RPC URL or the node does not answer, so the routes are
   * then compared on their amounts alone.
   */
  async gasPrice(chain: ChainInfo): Promise<bigint> {
    const reader = this.gasPrices(chain.id);
    if (!reader) return 0n;
    try {
      return await reader.read();
    } catch (e) {
      this.ctx.logger.warn(
        { chainId: chain.id, err: (e as Error).message },
        'gas price unavailable: routes compared without gas',
      );
      return 0n;
    }
  }

  /** A V2 quote on the quote threads; a router that took too long is a 503 (our fault, not the caller's). */
  v2(chain: ChainInfo, snap: ChainSnapshot, req: QuoteRequest): Promise<SerializedSwapInfo> {
    return this.quotes.quote(chain, snap, req).catch((e: unknown) => this.timedOut(chain, req, e));
  }

  /** A V2 quote where stETH in or out is quoted as wstETH with a relayer wrap or unwrap (routing/v2/lido.ts). */
  v2WithLido(chain: ChainInfo, snap: ChainSnapshot, req: QuoteRequest): Promise<SerializedSwapInfo> {
    return quoteWithLido(chain, this.wstEthRates(chain.id), req, (q) => this.quotes.quote(chain, snap, q)).catch(
      (e: unknown) => this.timedOut(chain, req, e),
    );
  }

  /**
   * A V3 quote on the quote threads (`QuoteService.quoteV3`), time-dependent pools priced at the
   * block a transaction sent now lands in (`v3/quoteTime.ts`; `clock` is the chain's clock where
   * the caller asked the node, `chainClock`, else ours); a router that took too long is a 503.
   */
  async v3(chain: ChainInfo, snap: ChainSnapshot, req: QuoteRequest, clock?: number): Promise<PricedV3Quote> {
    const pricedAt = v3QuoteTime(chain, snap, this.ctx.now(), clock);
    const quote = await this.quotes
      .quoteV3(chain, snap, req, pricedAt)
      .catch((e: unknown) => this.timedOut(chain, req, e));
    return { ...quote, pricedAt };
  }

  /**
   * On a chain that makes blocks on demand, the time the node would stamp a block made now (its
   * pending block's): a devnet's clock may run hours ahead of ours (moved on with
   * `evm_increaseTime`). Undefined on a timer chain, without a node, or when the node does not say.
   * One call: `/order` asks it, a quote alone does not.
   */
  async chainClock(chain: ChainInfo): Promise<number | undefined> {
    const url = this.ctx.config.rpcUrls.get(chain.id);
    if (chain.blocks !== 'onDemand' || !url) return undefined;
    return pendingBlockTime({ ...LIDO_RPC, url });
  }

  private timedOut(chain: ChainInfo, req: QuoteRequest, e: unknown): never {
    if (e instanceof QuoteTimeoutError)
      throw new HttpError(
        503,
        `the router did not answer ${req.orderKind} ${req.amount} of ${req.orderKind === 'sell' ? req.sellToken : req.buyToken} (${req.sellToken} -> ${req.buyToken}) on chain ${chain.id} within ${e.timeoutMs} ms (QUOTE_TIMEOUT_MS) and was stopped; retry later or try another amount`,
        // The threads' queue drains in seconds; a client without a hint retries at once and feeds it.
        { 'Retry-After': '2' },
        { reason: REASONS.QUOTE_TIMEOUT, details: { timeoutMs: e.timeoutMs } },
      );
    throw e;
  }

  /** The V2 transaction, with the ERC-20 approvals the sender's allowance at the head leaves missing. */
  async v2Order(body: OrderBody, info: SerializedSwapInfo, order: OrderContext): Promise<SorOrderResponse> {
    const built = buildOrder(body, info, order);
    return withMissingApprovals(built, body.sender, this.allowances(order.chain.id), blockTag(order.snap));
  }

  /**
   * The V3 transaction, with the Permit2 approvals the sender's allowances at the head leave
   * missing; `approvals: false` when the caller keeps only the transaction (GraphQL's `callData`),
   * which then costs no allowance read and lists every approval.
   */
  async v3Order(
    chain: ChainInfo,
    snap: ChainSnapshot,
    order: V3OrderRequest,
    info: SerializedV3SwapInfo,
    deadline: number,
    approvals = true,
  ): Promise<SorOrderResponse> {
    const v3Chain = chain.v3!;
    const nativeIn = NATIVE_ASSET_ALIASES.includes(order.sellToken);
    const nativeOut = NATIVE_ASSET_ALIASES.includes(order.buyToken);
    const single = info.paths.length === 1 && info.paths[0]!.steps.length === 1 && !info.paths[0]!.steps[0]!.isBuffer;
    const reader = this.allowances(chain.id);
    const current =
      nativeIn || !reader || !approvals
        ? undefined
        : await reader.read({
            token: info.paths[0]!.tokenIn,
            sender: order.sender,
            router: single ? v3Chain.router : v3Chain.batchRouter,
            permit2: v3Chain.permit2,
            block: blockTag(snap),
          });
    try {
      return encodeV3Order({
        kind: order.orderKind,
        info,
        slippage: order.slippage,
        deadline,
        now: orderNow(this.ctx, snap),
        v3: v3Chain,
        nativeIn,
        nativeOut,
        ...(current ? { allowances: current } : {}),
      });
    } catch (e) {
      if (e instanceof LimitError)
        throw new HttpError(422, `${e.message} (no transaction was built)`, {}, { reason: REASONS.LIMIT_NOT_MET });
      throw e;
    }
  }
}
