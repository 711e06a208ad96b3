import { LRUCache } from 'lru-cache';
import type { ChainInfo } from '../config/chains';
import type { RouterEngine } from '../config/env';
import type { StoredToken } from '../domain/pool';
import type { Logger } from '../log/logger';
import type { ChainSnapshot } from '../readModel/chainSnapshot';
import type { RouteOutcome } from './chainRouter';
import type { QuoteExecutor } from './quoteExecutor';
import { PoolVersions, type PoolsInput } from './poolVersions';
import type { QuoteTask } from './routerHost';
import { encodeShared } from './sharedJson';
import { sorTimestamp } from './sorConfig';
import { gasPriceTable } from './tokenPrices';
import type { QuoteRequest, SerializedSwapInfo } from './types';

/**
 * Main-thread side of routing: turns a snapshot into router inputs (once per pool or price
 * version; a pool version as a delta on the last when it can, poolVersions.ts), answers repeated requests from a bounded LRU cache keyed on those versions, joins
 * identical requests in flight, and hands the rest to the executor.
 */

export interface QuoteServiceOptions {
  readonly executor: QuoteExecutor;
  readonly logger: Logger;
  readonly now: () => number;
  /** Answers kept in the LRU cache; 0 turns the cache off. */
  readonly cacheSize: number;
  readonly engine?: RouterEngine;
  /** Chains whose batch relayer lets routes join and exit pools. */
  readonly joinExit?: (chainId: number) => boolean;
}

interface SharedInput {
  readonly key: string;
  readonly data: SharedArrayBuffer;
}

export class QuoteService {
  private readonly poolVersions = new PoolVersions();
  private readonly priceInputs = new WeakMap<readonly StoredToken[], SharedInput>();
  private readonly cache: LRUCache<string, Promise<SerializedSwapInfo>> | undefined;
  private seq = 0;
  /** True once a quote was asked for: only then is warming a new pool version worth a thread. */
  private used = false;

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
    this.cache = options.cacheSize > 0 ? new LRUCache({ max: options.cacheSize }) : undefined;
  }

  /** Builds the router of a new snapshot so the first quote after a reload does not pay for it. */
  async warm(chain: ChainInfo, snap: ChainSnapshot, minLiquidityUsd: number): Promise<void> {
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
    const hit = this.cache?.get(key);
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
    if (this.cache) {
      this.cache.set(key, result);
      result.catch(() => {
        if (this.cache?.get(key) === result) this.cache.delete(key);
      });
    }
    return result;
  }

  /** A model that broke on a stored pool is a bug in the engine (the pool is left out of routes). */
  private logModelBugs(chain: ChainInfo, outcome: RouteOutcome): void {
    for (const bug of outcome.modelBugs ?? [])
      this.logger.error(
        { chainId: chain.id, poolId: bug.poolId, err: bug.error },
        'pool model failed to build: a bug in the engine, the pool is left out of routes',
      );
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
