import { LRUCache } from 'lru-cache';
import type { RouterEngine } from '../config/env';
import type { RouteOutcome, RouteRequest, RouterChain } from './chainRouter';
import type { ModelBug } from './modelBugs';
import { EngineRouter } from './engineRouter';
import { emptySwapInfo } from './serialize';
import { applyPoolDelta, type PoolDelta, type PoolsInput } from './poolVersions';
import { aboveLiquidityFloor, type RoutingPool } from './routingPools';
import { decodeShared } from './sharedJson';

/**
 * Holds the routers of one thread (a worker, or the main thread with `ROUTER_WORKERS=0`) and
 * answers quote tasks. Pool sets and prices travel as JSON in SharedArrayBuffers, so a task costs
 * no copy; each is decoded once per thread and key. A pool version arrives as a base set plus
 * deltas (poolVersions.ts): the thread applies the deltas after the latest version it holds, and
 * builds the new own-engine router from that version's router, keeping the unchanged pools' models.
 */

export interface QuoteTask extends RouteRequest {
  readonly chain: RouterChain;
  /** The pool set: its key (unique per chain and pool version), base and deltas. */
  readonly pools: PoolsInput;
  /** Unique per token-price version. */
  readonly pricesKey: string;
  readonly prices: SharedArrayBuffer;
  readonly minLiquidityUsd: number;
  /** Which router answers: the service's own engine, or @balancer-labs/sor (`ROUTER_ENGINE`). */
  readonly engine: RouterEngine;
  /** Only build (or keep) the router; used to warm a new pool version before quotes arrive. */
  readonly warmOnly?: boolean;
}

/** What both engines offer a thread: prices per version, then quotes. */
interface QuoteRouter {
  setPrices(key: string, table: Readonly<Record<string, string>>): void;
  route(req: RouteRequest): Promise<RouteOutcome>;
  /** Model build failures not yet reported (own engine only); a warm-up hands them on. */
  takeModelBugs?(): readonly ModelBug[];
}

/**
 * The SOR adapter, loaded on the first `ROUTER_ENGINE=sor` task: `@balancer-labs/sor` and the
 * ethers v5 it runs on cost each thread tens of MiB that the own engine never uses.
 */
function sorAdapter(): typeof import('./chainRouter') {
  return require('./chainRouter') as typeof import('./chainRouter');
}

function warmEngine(router: EngineRouter, timestamp: number): EngineRouter {
  router.engineAt(timestamp);
  return router;
}

export class RouterHost {
  private readonly pools = new LRUCache<string, RoutingPool[]>({ max: 8 });
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

  /** The version's pools: from the latest earlier version this thread holds, plus the deltas after it. */
  private poolSet(input: PoolsInput): RoutingPool[] {
    const held = this.pools.get(input.key);
    if (held) return held;
    const before = input.bridge && !this.pools.has(input.base.key) && this.pools.get(input.bridge.from);
    if (before) {
      // A base this thread can reach from the version it holds: the objects of every pool the
      // delta leaves alone are kept, and with them their models.
      this.pools.set(input.base.key, applyPoolDelta(before, decodeShared<PoolDelta>(input.bridge!.delta.data)));
    }
    const keys = [input.base.key, ...input.deltas.map((d) => d.key)];
    let from = keys.length - 1;
    while (from >= 0 && !this.pools.has(keys[from]!)) from--;
    let pools = from >= 0 ? this.pools.get(keys[from]!)! : decodeShared<RoutingPool[]>(input.base.data);
    for (let k = Math.max(from, 0); k < input.deltas.length; k++)
      pools = applyPoolDelta(pools, decodeShared<PoolDelta>(input.deltas[k]!.data));
    this.pools.set(input.key, pools);
    return pools;
  }

  private router(task: QuoteTask): Promise<QuoteRouter> {
    const keyOf = (poolsKey: string) => `${task.engine}|${poolsKey}|${task.minLiquidityUsd}`;
    const key = keyOf(task.pools.key);
    let router = this.routers.get(key);
    if (!router) {
      const floor = aboveLiquidityFloor(this.poolSet(task.pools), task.minLiquidityUsd);
      if (task.engine === 'sor') router = sorAdapter().ChainRouter.create(task.chain, floor);
      else {
        const earlier = [
          ...(task.pools.bridge ? [task.pools.bridge.from] : []),
          task.pools.base.key,
          ...task.pools.deltas.map((d) => d.key),
        ]
          .reverse()
          .map((k) => this.routers.get(keyOf(k)))
          .find((r) => r !== undefined);
        router = (earlier ?? Promise.resolve(undefined)).then(
          (previous) =>
            warmEngine(
              new EngineRouter(
                task.chain,
                floor.map((p) => p.spec),
                previous instanceof EngineRouter ? previous : undefined,
              ),
              task.timestamp,
            ),
          () =>
            warmEngine(
              new EngineRouter(
                task.chain,
                floor.map((p) => p.spec),
              ),
              task.timestamp,
            ),
        );
      }
      router.catch(() => this.routers.delete(key));
      this.routers.set(key, router);
    }
    return router;
  }
}
