import { LRUCache } from 'lru-cache';
import type { ChainInfo } from '../config/chains';
import type { RouterEngine } from '../config/env';
import type { StoredToken } from '../domain/pool';
import type { Logger } from '../log/logger';
import type { ChainSnapshot } from '../readModel/chainSnapshot';
import type { RouteOutcome } from './v2/chainRouter';
import type { QuoteExecutor } from './quoteExecutor';
import { PoolVersions, type PoolsInput } from './poolVersions';
import type { QuoteTask, V3QuoteTask, V3RouteOutcome } from './routerHost';
import { encodeShared } from './sharedJson';
import { sorTimestamp } from './v2/sorConfig';
import { gasPriceTable } from './tokenPrices';
import type { QuoteRequest, SerializedSwapInfo, SerializedV3SwapInfo } from './types';
import type { V3HopAmounts } from './v3/v3Answer';
import { v3NextQuoteTime, v3QuoteTime } from './v3/quoteTime';
import { V3Versions } from './v3/v3Versions';

/**
 * Main-thread side of routing: turns a snapshot into router inputs (once per pool or price
 * version; a pool version as a delta on the last when it can, poolVersions.ts), answers repeated requests from a bounded LRU cache keyed on those versions, joins
 * identical requests in flight, and hands the rest to the executor. The V3 Vault's quotes take the
 * same way with their own inputs (`v3/v3Versions.ts`: its pools and buffers as deltas) and keys.
 */

export interface QuoteServiceOptions {
  readonly executor: QuoteExecutor;
  readonly logger: Logger;
  readonly now: () => number;
  /** Answers kept in the LRU cache; 0 turns the cache off. */
  readonly cacheSize: number;
  /** A cached answer's longest life in ms (default `ANSWER_TTL_MS`). */
  readonly answerTtlMs?: number;
  readonly engine?: RouterEngine;
  /** Chains whose batch relayer lets routes join and exit pools. */
  readonly joinExit?: (chainId: number) => boolean;
}

/** A V3 quote as the threads answer it: `/sor`'s answer and, for a route, its paths' amounts at each token. */
export interface V3Answer {
  readonly info: SerializedV3SwapInfo;
  readonly hopAmounts?: V3HopAmounts;
}

interface SharedInput {
  readonly key: string;
  readonly data: SharedArrayBuffer;
}

/**
 * A cached answer's longest life. Its key holds the pool version, so on a followed chain it is
 * dead at the next block; without an age bound the LRU would still hold `QUOTE_CACHE_SIZE` of
 * them (tens of MiB of answers nobody can hit), filling at the quote rate.
 */
const ANSWER_TTL_MS = 30_000;

/** What a V3 warm-up (or a build ahead) asks: no quote, the universe's engine alone. */
const v3WarmUp = (chain: ChainInfo): QuoteRequest => ({
  sellToken: chain.wrappedNative,
  buyToken: chain.wrappedNative,
  orderKind: 'sell',
  amount: 1n,
  gasPrice: 0n,
  minLiquidityUsd: 0,
});

export class QuoteService {
  private readonly poolVersions = new PoolVersions();
  private readonly v3Versions = new V3Versions();
  private readonly priceInputs = new WeakMap<readonly StoredToken[], SharedInput>();
  private readonly cache: LRUCache<string, Promise<SerializedSwapInfo | V3Answer>> | undefined;
  private seq = 0;
  /** When the cache last dropped its stale answers (performance.now()). */
  private purgedAt = 0;
  /** Per line of versions (vault, chain, restricted or not), the start of the keys last cached. */
  private readonly cachedVersions = new Map<string, string>();
  private readonly answerTtlMs: number;
  /** True once a quote was asked for: only then is warming a new pool version worth a thread. */
  private used = false;
  /** Per chain: the V3 universe version and time last built ahead (`prepareNext`). */
  private readonly prepared = new Map<number, string>();
  /** Per chain: the time of the last V3 quote sent to the threads. */
  private readonly lastV3Time = new Map<number, number>();

  private readonly executor: QuoteExecutor;
  private readonly logger: Logger;
  private readonly now: () => number;
  private readonly engine: RouterEngine;
  private readonly joinExit: (chainId: number) => boolean;

  constructor(options: QuoteServiceOptions) {
    this.executor = options.executor;
    this.logger = options.logger;
    this.now = options.now;
    this.engine = options.engine ?? 'own';
    this.joinExit = options.joinExit ?? (() => false);
    this.answerTtlMs = options.answerTtlMs ?? ANSWER_TTL_MS;
    this.cache = options.cacheSize > 0 ? new LRUCache({ max: options.cacheSize, ttl: this.answerTtlMs }) : undefined;
  }

  /**
   * Builds the routers of a new snapshot (and, where V3 is deployed, its V3 engine at the next
   * block's time) so the first quote after a reload does not pay for them.
   */
  async warm(chain: ChainInfo, snap: ChainSnapshot, minLiquidityUsd: number): Promise<void> {
    await Promise.all([this.warmV2(chain, snap, minLiquidityUsd), chain.v3 ? this.warmV3(chain, snap) : undefined]);
  }

  private async warmV3(chain: ChainInfo, snap: ChainSnapshot): Promise<void> {
    const timestamp = v3QuoteTime(chain, snap, this.now());
    const outcome = await this.executor.runV3(this.v3Task(chain, snap, v3WarmUp(chain), timestamp, 'warm'));
    this.logModelBugs(chain, outcome, 3);
    this.prepareNext(chain, snap, timestamp);
  }

  /**
   * Has the threads build ahead, while idle, what the block after `timestamp` will need of this
   * V3 universe (its time-dependent pools at that block's time, `V3Router.prepare`), so a block
   * costs its warm-up the pools it changed, not every pool whose price moves with time. Once per
   * universe version and time.
   */
  private prepareNext(chain: ChainInfo, snap: ChainSnapshot, timestamp: number): void {
    const next = v3NextQuoteTime(chain, timestamp);
    const key = `${this.v3Versions.input(snap, 'chain').key}@${next}`;
    if (this.prepared.get(chain.id) === key) return;
    this.prepared.set(chain.id, key);
    this.executor.prepareV3(this.v3Task(chain, snap, v3WarmUp(chain), next, 'prepare')).then(
      (outcome) => outcome && this.logModelBugs(chain, outcome, 3),
      // A stopped thread or a closing pool: the block's own warm-up builds what is missing.
      () => {},
    );
  }

  private async warmV2(chain: ChainInfo, snap: ChainSnapshot, minLiquidityUsd: number): Promise<void> {
    const outcome = await this.executor.run(
      this.task(
        chain,
        snap,
        {
          sellToken: chain.wrappedNative,
          buyToken: chain.wrappedNative,
          orderKind: 'sell',
          amount: 1n,
          gasPrice: 0n,
          minLiquidityUsd,
        },
        true,
      ),
    );
    this.logModelBugs(chain, outcome);
  }

  get hasQuoted(): boolean {
    return this.used;
  }

  /** Answers the cache holds, settled or in flight. */
  get answersHeld(): number {
    return this.cache?.size ?? 0;
  }

  quote(chain: ChainInfo, snap: ChainSnapshot, req: QuoteRequest): Promise<SerializedSwapInfo> {
    this.used = true;
    const pools = this.poolsInput(snap, req.restricted === true);
    const prices = this.pricesInput(snap);
    const timestamp = sorTimestamp(this.now());
    // Prices only matter when gas does; leaving them out of gas-free keys keeps those hits alive
    // across the 30-second price updates.
    const key = [
      this.engine,
      pools.key,
      req.gasPrice === 0n ? '-' : prices.key,
      timestamp,
      req.minLiquidityUsd,
      req.sellToken,
      req.buyToken,
      req.orderKind,
      req.amount,
      req.gasPrice,
      req.stepAmounts === true ? 'steps' : '-',
      req.singlePath === true ? 'single' : '-',
    ].join('|');
    const hit = this.cache?.get(key) as Promise<SerializedSwapInfo> | undefined;
    if (hit) return hit;
    const result = this.executor.run(this.task(chain, snap, req)).then((outcome: RouteOutcome) => {
      this.logModelBugs(chain, outcome);
      if (outcome.rejected) {
        this.logger.warn(
          { chainId: chain.id, sellToken: req.sellToken, buyToken: req.buyToken, reason: outcome.rejected },
          'route rejected by the sanity check',
        );
      }
      return outcome.info;
    });
    this.remember(key, result, `2|${chain.id}|${req.restricted === true}`, `${this.engine}|${pools.key}|`);
    return result;
  }

  /**
   * A quote within the V3 Vault (`protocolVersion: 3`) on a quote thread, at `timestamp`
   * (`v3/quoteTime.ts`); the answer is cached like a V2 one, keyed on the V3 universe's version.
   */
  quoteV3(chain: ChainInfo, snap: ChainSnapshot, req: QuoteRequest, timestamp: number): Promise<V3Answer> {
    this.used = true;
    const universe = this.v3Versions.input(snap, req.restricted === true ? 'restricted' : 'chain');
    const key = [
      'v3',
      universe.key,
      req.gasPrice === 0n ? '-' : this.pricesInput(snap).key,
      timestamp,
      req.sellToken,
      req.buyToken,
      req.orderKind,
      req.amount,
      req.gasPrice,
      req.singlePath === true ? 'single' : '-',
    ].join('|');
    const hit = this.cache?.get(key) as Promise<V3Answer> | undefined;
    if (hit) return hit;
    const result = this.executor.runV3(this.v3Task(chain, snap, req, timestamp)).then((outcome) => {
      this.logModelBugs(chain, outcome, 3);
      return outcome.hopAmounts ? { info: outcome.info, hopAmounts: outcome.hopAmounts } : { info: outcome.info };
    });
    this.remember(key, result, `3|${chain.id}|${req.restricted === true}`, `v3|${universe.key}|`);
    if (req.restricted !== true) {
      // On demand the quotes' time moves with the clock between blocks: while quotes come every
      // second, the next second is built ahead too (not after a lone quote, which none may follow).
      const last = this.lastV3Time.get(chain.id);
      this.lastV3Time.set(chain.id, timestamp);
      if (chain.blocks === 'timer' || last === timestamp - 1) this.prepareNext(chain, snap, timestamp);
    }
    return result;
  }

  /**
   * Keeps an answer in flight or settled; a failure leaves the cache. `version` is how the keys
   * of the answers at this pool version of the line `line` begin.
   */
  private remember(key: string, result: Promise<SerializedSwapInfo | V3Answer>, line: string, version: string): void {
    if (!this.cache) return;
    const before = this.cachedVersions.get(line);
    if (before !== version) {
      this.cachedVersions.set(line, version);
      // A request quotes at the snapshot served when it arrives, so once a line has an answer at
      // a new version none asks at the one before: drop its answers now, not when they age out.
      // On a followed chain that is every block, and the cache then holds about a block's
      // answers instead of the quote rate times the age bound. A late request still at the old
      // version only costs a miss.
      if (before !== undefined) this.dropVersion(before);
    }
    this.cache.set(key, result);
    // Stale answers leave only when read or evicted by count: drop them in one pass now and then.
    const t = performance.now();
    if (t - this.purgedAt > this.answerTtlMs / 3) {
      this.purgedAt = t;
      this.cache.purgeStale();
    }
    result.catch(() => {
      if (this.cache?.get(key) === result) this.cache.delete(key);
    });
  }

  private dropVersion(version: string): void {
    const dead = [...this.cache!.keys()].filter((k) => k.startsWith(version));
    for (const k of dead) this.cache!.delete(k);
  }

  /** A model that broke on a stored pool is a bug in the engine (the pool is left out of routes). */
  private logModelBugs(chain: ChainInfo, outcome: RouteOutcome | V3RouteOutcome, vault: 2 | 3 = 2): void {
    for (const bug of outcome.modelBugs ?? [])
      this.logger.error(
        { chainId: chain.id, poolId: bug.poolId, err: bug.error },
        `${vault === 3 ? 'V3 pool' : 'pool'} model failed to build: a bug in the engine, the pool is left out of routes`,
      );
  }

  private v3Task(
    chain: ChainInfo,
    snap: ChainSnapshot,
    req: QuoteRequest,
    timestamp: number,
    only?: 'warm' | 'prepare',
  ): V3QuoteTask {
    const prices = this.pricesInput(snap);
    return {
      vault: 3,
      chain: { id: chain.id, vault: chain.v3?.vault ?? chain.vault, wrappedNative: chain.wrappedNative },
      universe: this.v3Versions.input(snap, req.restricted === true ? 'restricted' : 'chain'),
      pricesKey: prices.key,
      prices: prices.data,
      sellToken: req.sellToken,
      buyToken: req.buyToken,
      orderKind: req.orderKind,
      amount: req.amount.toString(),
      gasPrice: req.gasPrice.toString(),
      timestamp,
      ...(req.singlePath ? { singlePath: true } : {}),
      ...(only === 'warm' ? { warmOnly: true } : only === 'prepare' ? { prepare: true } : {}),
    };
  }

  private task(chain: ChainInfo, snap: ChainSnapshot, req: QuoteRequest, warmOnly = false): QuoteTask {
    const pools = this.poolsInput(snap, req.restricted === true);
    const prices = this.pricesInput(snap);
    return {
      chain: {
        id: chain.id,
        vault: chain.vault,
        wrappedNative: chain.wrappedNative,
        joinExit: this.joinExit(chain.id),
      },
      pools,
      pricesKey: prices.key,
      prices: prices.data,
      minLiquidityUsd: req.minLiquidityUsd,
      engine: this.engine,
      sellToken: req.sellToken,
      buyToken: req.buyToken,
      orderKind: req.orderKind,
      amount: req.amount.toString(),
      gasPrice: req.gasPrice.toString(),
      timestamp: sorTimestamp(this.now()),
      ...(req.stepAmounts ? { stepAmounts: true } : {}),
      ...(req.singlePath ? { singlePath: true } : {}),
      warmOnly,
    };
  }

  private poolsInput(snap: ChainSnapshot, restricted: boolean): PoolsInput {
    return this.poolVersions.input(snap.chainId, snap.poolsVersion, snap.pools, restricted ? 'restricted' : 'chain');
  }

  private pricesInput(snap: ChainSnapshot): SharedInput {
    let input = this.priceInputs.get(snap.tokens);
    if (!input) {
      input = {
        key: `${snap.chainId}:t${snap.tokensVersion}:${++this.seq}`,
        data: encodeShared(gasPriceTable(snap.tokens)),
      };
      this.priceInputs.set(snap.tokens, input);
    }
    return input;
  }
}
