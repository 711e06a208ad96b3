import { LRUCache } from 'lru-cache';
import type { RouterEngine } from '../config/env';
import { ChainRouter, type ModelBug, type RouteOutcome, type RouteRequest, type RouterChain } from './chainRouter';
import { EngineRouter } from './engineRouter';
import { emptySwapInfo } from './serialize';
import { aboveLiquidityFloor, type RoutingPool } from './routingPools';

/**
 * Holds the routers of one thread (a worker, or the main thread with `ROUTER_WORKERS=0`) and
 * answers quote tasks. Pool sets and prices travel as JSON in SharedArrayBuffers, so a task costs
 * no copy; each is decoded once per thread and key.
 */

export interface QuoteTask extends RouteRequest {
  readonly chain: RouterChain;
  /** Unique per pool set (chain, pool version). */
  readonly poolsKey: string;
  readonly pools: SharedArrayBuffer;
  /** Unique per token-price version. */
  readonly pricesKey: string;
  readonly prices: SharedArrayBuffer;
  readonly minLiquidityUsd: number;
  /** Which router answers: the service's own engine, or @balancer-labs/sor (`ROUTER_ENGINE`). */
  readonly engine: RouterEngine;
  /** Only build (or keep) the router; used to warm a new pool version before quotes arrive. */
  readonly warmOnly?: boolean;
}

export function encodeShared(value: unknown): SharedArrayBuffer {
  const bytes = Buffer.from(JSON.stringify(value));
  const shared = new SharedArrayBuffer(bytes.length);
  new Uint8Array(shared).set(bytes);
  return shared;
}

function decodeShared<T>(shared: SharedArrayBuffer): T {
  // TextDecoder refuses views on shared memory; copy once into an ordinary buffer.
  return JSON.parse(Buffer.from(new Uint8Array(shared)).toString('utf8')) as T;
}

/** What both engines offer a thread: prices per version, then quotes. */
interface QuoteRouter {
  setPrices(key: string, table: Readonly<Record<string, string>>): void;
  route(req: RouteRequest): Promise<RouteOutcome>;
  /** Model build failures not yet reported (own engine only); a warm-up hands them on. */
  takeModelBugs?(): readonly ModelBug[];
}

function warmEngine(router: EngineRouter, timestamp: number): EngineRouter {
  router.engineAt(timestamp);
  return router;
}

export class RouterHost {
  private readonly pools = new LRUCache<string, RoutingPool[]>({ max: 4 });
  private readonly prices = new LRUCache<string, Record<string, string>>({ max: 4 });
  private readonly routers = new LRUCache<string, Promise<QuoteRouter>>({ max: 8 });

  async quote(task: QuoteTask): Promise<RouteOutcome> {
    const router = await this.router(task);
    if (task.warmOnly) {
      const modelBugs = router.takeModelBugs?.() ?? [];
      return { info: emptySwapInfo(task.sellToken, task.buyToken), ...(modelBugs.length > 0 ? { modelBugs } : {}) };
    }
    let table = this.prices.get(task.pricesKey);
    if (!table) {
      table = decodeShared<Record<string, string>>(task.prices);
      this.prices.set(task.pricesKey, table);
    }
    router.setPrices(task.pricesKey, table);
    return router.route(task);
  }

  private router(task: QuoteTask): Promise<QuoteRouter> {
    const key = `${task.engine}|${task.poolsKey}|${task.minLiquidityUsd}`;
    let router = this.routers.get(key);
    if (!router) {
      let pools = this.pools.get(task.poolsKey);
      if (!pools) {
        pools = decodeShared<RoutingPool[]>(task.pools);
        this.pools.set(task.poolsKey, pools);
      }
      const floor = aboveLiquidityFloor(pools, task.minLiquidityUsd);
      router =
        task.engine === 'sor'
          ? ChainRouter.create(task.chain, floor)
          : Promise.resolve(
              warmEngine(
                new EngineRouter(
                  task.chain,
                  floor.map((p) => p.spec),
                ),
                task.timestamp,
              ),
            );
      router.catch(() => this.routers.delete(key));
      this.routers.set(key, router);
    }
    return router;
  }
}
