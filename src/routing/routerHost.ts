import { LRUCache } from 'lru-cache';
import { CANDIDATE_BUDGET } from '../domain/swap/engine';
import type { RouterEngine } from '../config/env';
import type { RouteOutcome, RouteRequest, RouterChain } from './v2/chainRouter';
import { modelBugsOf, type ModelBug } from './modelBugs';
import { EngineRouter } from './v2/engineRouter';
import { emptySwapInfo } from './serialize';
import { applyPoolDelta, type PoolDelta, type PoolsInput } from './poolVersions';
import { aboveLiquidityFloor, type RoutingPool } from './v2/routingPools';
import { decodeShared } from './sharedJson';
import type { OrderKind, SerializedV3SwapInfo } from './types';
import { applyV3Delta, heldV3, type V3Delta, type V3Held, type V3Set } from './v3/v3Versions';
import { emptyV3SwapInfo, type V3HopAmounts } from './v3/v3Answer';
import { V3Router } from './v3/v3Router';

/**
 * Holds the routers of one thread (a worker, or the main thread with `ROUTER_WORKERS=0`) and
 * answers quote tasks. Pool sets and prices travel as JSON in SharedArrayBuffers, so a task costs
 * no copy; each is decoded once per thread and key. A pool version arrives as a base set plus
 * deltas (poolVersions.ts): the thread applies the deltas after the latest version it holds, and
 * builds the new own-engine router from that version's router, keeping the unchanged pools' models.
 * The V3 Vault's universe arrives the same way (`v3/v3Versions.ts`) and is routed by this thread's
 * `V3Router`, which builds each version's engine from the last one's.
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

/** A quote within the V3 Vault (`V3Router`); its pools, buffers and prices travel as a V2 task's do. */
export interface V3QuoteTask {
  readonly vault: 3;
  readonly chain: RouterChain;
  /** The V3 universe's version: its key, base and deltas (`V3Set`, `V3Delta` as JSON). */
  readonly universe: PoolsInput;
  readonly pricesKey: string;
  readonly prices: SharedArrayBuffer;
  readonly sellToken: string;
  readonly buyToken: string;
  readonly orderKind: OrderKind;
  /** Decimal strings, smallest units. */
  readonly amount: string;
  readonly gasPrice: string;
  /** Unix seconds time-dependent pools price at (`v3/quoteTime.ts`). */
  readonly timestamp: number;
  readonly singlePath?: boolean;
  /** Only build (or keep) the version's engine at `timestamp`. */
  readonly warmOnly?: boolean;
  /**
   * Only build ahead, for one slice of time, the models of its time-dependent pools at `timestamp`
   * (the next block's, `V3Router.prepare`); the outcome says whether some are left (`more`).
   */
  readonly prepare?: boolean;
}

export interface V3RouteOutcome {
  readonly info: SerializedV3SwapInfo;
  /** Each path's amounts at its token boundaries, for a route (`V3HopAmounts`). */
  readonly hopAmounts?: V3HopAmounts;
  /** V3 pools or buffers whose model broke while being built (left out of routing). */
  readonly modelBugs?: readonly ModelBug[];
  /** A `prepare` slice left work for another. */
  readonly more?: boolean;
}

/** What a quote thread is sent, and what it answers to each. */
export type HostTask = QuoteTask | V3QuoteTask;
export type OutcomeOf<T extends HostTask> = T extends V3QuoteTask ? V3RouteOutcome : RouteOutcome;

export function isV3Task(task: HostTask): task is V3QuoteTask {
  return 'vault' in task && task.vault === 3;
}

/**
 * The version `input` names, from the latest earlier version the thread holds in `held` plus the
 * deltas after it (or across the bridge to a new base), decoding the base only when it holds none.
 */
function versionOf<H extends object, D>(
  held: LRUCache<string, H>,
  input: PoolsInput,
  decodeBase: (data: SharedArrayBuffer) => H,
  apply: (before: H, delta: D) => H,
): H {
  const known = held.get(input.key);
  if (known) return known;
  const before = input.bridge && !held.has(input.base.key) && held.get(input.bridge.from);
  if (before) {
    // A base this thread can reach from the version it holds: the objects of every item the
    // delta leaves alone are kept, and with them their models.
    held.set(input.base.key, apply(before, decodeShared<D>(input.bridge!.delta.data)));
  }
  const keys = [input.base.key, ...input.deltas.map((d) => d.key)];
  let from = keys.length - 1;
  while (from >= 0 && !held.has(keys[from]!)) from--;
  let version = from >= 0 ? held.get(keys[from]!)! : decodeBase(input.base.data);
  for (let k = Math.max(from, 0); k < input.deltas.length; k++)
    version = apply(version, decodeShared<D>(input.deltas[k]!.data));
  held.set(input.key, version);
  return version;
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
function sorAdapter(): typeof import('./v2/chainRouter') {
  return require('./v2/chainRouter') as typeof import('./v2/chainRouter');
}

/**
 * How long one slice of building ahead runs (`V3QuoteTask.prepare`): a quote arriving meanwhile
 * waits for about this much before its thread takes it, plus the step in hand, which is not cut
 * short: one pool's model, the engine derived ahead, or one pair carried (tens of ms at most).
 */
const PREPARE_SLICE_MS = 8;

function warmEngine(router: EngineRouter, timestamp: number): EngineRouter {
  router.engineAt(timestamp);
  return router;
}

/**
 * One string per token address in a thread's pool sets. JSON decoding makes a string per
 * occurrence, and each pool set holds a token's address in every pool that has it: about 4 MiB
 * per 11,000 pools, per thread and chain.
 */
class TokenAddresses {
  private readonly known = new Map<string, string>();

  intern(pools: RoutingPool[]): RoutingPool[] {
    // Token lists only grow; a bound keeps a thread that sees churn from holding every address.
    if (this.known.size > 200_000) this.known.clear();
    const one = (a: string) => {
      let kept = this.known.get(a);
      if (kept === undefined) this.known.set(a, (kept = a));
      return kept;
    };
    for (const pool of pools) {
      for (const token of pool.spec.tokens) (token as { address: string }).address = one(token.address);
      const list = pool.tokensList as string[];
      for (let k = 0; k < list.length; k++) list[k] = one(list[k]!);
    }
    return pools;
  }
}

export class RouterHost {
  private readonly pools = new LRUCache<string, RoutingPool[]>({ max: 8 });
  private readonly prices = new LRUCache<string, Record<string, string>>({ max: 4 });
  private readonly routers = new LRUCache<string, Promise<QuoteRouter>>({ max: 8 });
  private readonly addresses = new TokenAddresses();

  private readonly v3Sets = new LRUCache<string, V3Held>({ max: 8 });
  private v3ModelBugs: ModelBug[] = [];
  /**
   * The chains this thread has quoted: each chain's lineages keep `CANDIDATE_BUDGET` over their
   * count. A lineage reads its share when it keeps a pair's list, so an earlier chain's shrinks at
   * its next search; the set never shrinks, as a chain once quoted is enabled.
   */
  private readonly chains = new Set<number>();
  private readonly candidateShare = (): number => Math.floor(CANDIDATE_BUDGET / Math.max(1, this.chains.size));
  private readonly v3 = new V3Router(
    (_chainId, id, error) => this.v3ModelBugs.push(...modelBugsOf([{ id, error }])),
    this.candidateShare,
  );

  run<T extends HostTask>(task: T): Promise<OutcomeOf<T>> {
    return (isV3Task(task) ? this.quoteV3(task) : this.quote(task)) as Promise<OutcomeOf<T>>;
  }

  quoteV3(task: V3QuoteTask): Promise<V3RouteOutcome> {
    const chainId = task.chain.id;
    this.chains.add(chainId);
    const { universe } = versionOf<V3Held, V3Delta>(
      this.v3Sets,
      task.universe,
      (data) => heldV3(chainId, decodeShared<V3Set>(data)),
      (before, delta) => applyV3Delta(chainId, before, delta),
    );
    let answer: { readonly info: SerializedV3SwapInfo; readonly hopAmounts?: V3HopAmounts; readonly more?: boolean };
    if (task.prepare) {
      const done = this.v3.prepare(universe, task.timestamp, PREPARE_SLICE_MS);
      answer = { info: emptyV3SwapInfo(task.sellToken, task.buyToken), ...(done ? {} : { more: true }) };
    } else if (task.warmOnly) {
      this.v3.warm(universe, task.timestamp);
      answer = { info: emptyV3SwapInfo(task.sellToken, task.buyToken) };
    } else {
      const req = {
        sellToken: task.sellToken,
        buyToken: task.buyToken,
        orderKind: task.orderKind,
        amount: BigInt(task.amount),
        gasPrice: BigInt(task.gasPrice),
        ...(task.singlePath ? { singlePath: true } : {}),
      };
      const { info, hopAmounts } = this.v3.route(
        task.chain.wrappedNative,
        universe,
        req,
        task.timestamp,
        this.pricesOf(task),
      );
      answer = hopAmounts ? { info, hopAmounts } : { info };
    }
    const modelBugs = this.v3ModelBugs;
    this.v3ModelBugs = [];
    return Promise.resolve(modelBugs.length > 0 ? { ...answer, modelBugs } : answer);
  }

  private pricesOf(task: { readonly pricesKey: string; readonly prices: SharedArrayBuffer }): Record<string, string> {
    let table = this.prices.get(task.pricesKey);
    if (!table) {
      table = decodeShared<Record<string, string>>(task.prices);
      this.prices.set(task.pricesKey, table);
    }
    return table;
  }

  async quote(task: QuoteTask): Promise<RouteOutcome> {
    this.chains.add(task.chain.id);
    const router = await this.router(task);
    if (task.warmOnly) {
      const modelBugs = router.takeModelBugs?.() ?? [];
      return { info: emptySwapInfo(task.sellToken, task.buyToken), ...(modelBugs.length > 0 ? { modelBugs } : {}) };
    }
    router.setPrices(task.pricesKey, this.pricesOf(task));
    return router.route(task);
  }

  /** The version's pools: from the latest earlier version this thread holds, plus the deltas after it. */
  private poolSet(input: PoolsInput): RoutingPool[] {
    return versionOf<RoutingPool[], PoolDelta>(
      this.pools,
      input,
      (data) => this.addresses.intern(decodeShared<RoutingPool[]>(data)),
      (before, delta) => applyPoolDelta(before, { ...delta, upserts: this.addresses.intern([...delta.upserts]) }),
    );
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
                this.candidateShare,
              ),
              task.timestamp,
            ),
          () =>
            warmEngine(
              new EngineRouter(
                task.chain,
                floor.map((p) => p.spec),
                undefined,
                this.candidateShare,
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
