import { NATIVE_ASSET_ALIASES, type ChainInfo } from '../../config/chains';
import type { StoredPool, StoredToken } from '../../domain/pool';
import { V3ModelCache } from '../../domain/protocols/v3/engine/v3ModelCache';
import { buildV3Models, prepareV3Models, type V3Models } from '../../domain/protocols/v3/engine/v3Models';
import type { StoredBuffer } from '../../domain/protocols/v3/stored/storedV3';
import { SwapEngine } from '../../domain/swap/engine';
import { edgesOf, type Edge } from '../../domain/swap/graph';
import type { PoolModel } from '../../domain/swap/poolModel';
import type { Route } from '../../domain/swap/route';
import type { ChainSnapshot } from '../../readModel/chainSnapshot';
import { gasPerSwapIn } from '../gasCost';
import { gasPriceTable } from '../tokenPrices';
import type { OrderKind, QuoteRequest, SerializedV3SwapInfo } from '../types';
import { emptyV3SwapInfo, v3SwapInfo, type V3HopAmounts } from './v3Answer';

/**
 * Routes within the V3 Vault: the same engine as V2 (`domain/swap/engine.ts`) over the V3
 * universe of one version (its V3 pools and buffers, `buildV3Models`), so a route never mixes the
 * two Vaults. One engine per universe and pricing timestamp, kept while they last, each built
 * from what the chain's last one can lend it (models, edges, the engine to derive from).
 *
 * The service runs it on the quote threads (`routing/routerHost.ts`, over the versions of
 * `v3Versions.ts`); `quote` over a snapshot runs it on the calling thread.
 */

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** One version of a chain's V3 Vault as the router reads it. */
export interface V3Universe {
  readonly chainId: number;
  /** The version's pools in id order (pools of other Vaults are passed over). */
  readonly pools: readonly StoredPool[];
  readonly buffers: ReadonlyMap<string, StoredBuffer>;
  /** Decimals of a token no V3 pool holds (a buffer's underlying), lower case. */
  readonly decimalsOf: (token: string) => number | undefined;
}

/** A V3 quote as the threads take it: tokens as sent (native aliases kept), raw amounts. */
export interface V3RouteRequest {
  readonly sellToken: string;
  readonly buyToken: string;
  readonly orderKind: OrderKind;
  readonly amount: bigint;
  readonly gasPrice: bigint;
  readonly singlePath?: boolean;
}

interface Built {
  readonly pools: readonly StoredPool[];
  readonly buffers: ReadonlyMap<string, StoredBuffer>;
  readonly timestamp: number;
  readonly built: V3Models;
  readonly engine: SwapEngine;
}

export interface V3Quote {
  readonly info: SerializedV3SwapInfo;
  /** The route behind `info` (absent for no route): what `/order` encodes. */
  readonly route?: Route;
  /** Each path's amounts at its token boundaries (absent for no route; `V3HopAmounts`). */
  readonly hopAmounts?: V3HopAmounts;
}

export class V3Router {
  private readonly universes = new WeakMap<readonly StoredPool[], Built>();
  /**
   * What a new universe reuses, so a block costs what it changed, not the whole V3 Vault: the
   * models of pools and buffers it left alone (`V3ModelCache`), their graph edges, and per chain
   * the last engine, which the next one derives from (its graph and its pairs' candidates).
   */
  private readonly models = new V3ModelCache();
  private readonly edges = new WeakMap<PoolModel, readonly Edge[]>();
  private readonly lastEngine = new Map<number, SwapEngine>();
  private readonly gasPrices = new WeakMap<readonly StoredToken[], Record<string, string>>();
  /** How far `prepare` got through a universe's pools for a timestamp, so each slice goes on from there. */
  private readonly preparing = new WeakMap<readonly StoredPool[], { readonly timestamp: number; from: number }>();
  /**
   * Per chain, the engine `prepare` built ahead: the latest universe at the next block's time,
   * with the pairs asked on it carried there. The next block's engine derives from it, so it
   * differs by what that block changed alone.
   */
  private readonly ahead = new Map<number, Built & { readonly parent: SwapEngine }>();

  constructor(
    private readonly onModelBug: (chainId: number, id: string, error: unknown) => void = () => {},
    /** The candidates each chain's engines keep (the thread's share, routerHost.ts); default the engine's own. */
    private readonly candidateBudget?: () => number,
  ) {}

  private universe(source: V3Universe, timestamp: number): Built {
    const known = this.universes.get(source.pools);
    if (known && known.buffers === source.buffers && known.timestamp === timestamp) return known;
    const last = this.lastEngine.get(source.chainId);
    let ahead = this.ahead.get(source.chainId);
    // Kept until its time comes, while it stands on the chain's latest engine: a universe asked
    // meanwhile at an earlier time (a change in the same block, a client's choice of pools)
    // derives from it, and the block then derives from that one, which holds what both asked.
    if (ahead && (ahead.timestamp <= timestamp || ahead.parent !== last)) this.ahead.delete(source.chainId);
    if (ahead?.parent !== last) ahead = undefined;
    let universe: Built;
    if (ahead && ahead.pools === source.pools && ahead.buffers === source.buffers && ahead.timestamp === timestamp) {
      // The clock reached the time built ahead before any block changed the universe.
      universe = ahead;
      for (const f of universe.built.failed) this.onModelBug(source.chainId, f.id, f.error);
    } else {
      // The engine built ahead holds the latest candidates: derive from it, whatever it differs
      // by (models are compared by identity, so any earlier engine gives the same routes).
      const previous = ahead?.engine ?? known?.engine ?? last;
      universe = this.build(source, timestamp, previous);
      for (const f of universe.built.failed) this.onModelBug(source.chainId, f.id, f.error);
    }
    // The lists the engine before kept of pairs carried ahead were for its quotes until now.
    if (last !== universe.engine) last?.dropOwnLists();
    this.lastEngine.set(source.chainId, universe.engine);
    this.universes.set(source.pools, universe);
    return universe;
  }

  private build(source: V3Universe, timestamp: number, previous: SwapEngine | undefined): Built {
    const built = buildV3Models({
      pools: source.pools,
      buffers: source.buffers,
      timestamp: BigInt(timestamp),
      decimalsOf: source.decimalsOf,
      cache: this.models,
    });
    const engine = new SwapEngine(built.models, this.edges, {
      ...(previous ? { previous } : {}),
      ...(this.candidateBudget ? { candidateBudget: this.candidateBudget } : {}),
    });
    return { pools: source.pools, buffers: source.buffers, timestamp, built, engine };
  }

  /** Builds (or keeps) the universe's engine at `timestamp`, so no quote pays for it. */
  warm(source: V3Universe, timestamp: number): void {
    this.universe(source, timestamp);
  }

  /**
   * Builds ahead, for about `budgetMs`, what a universe at `timestamp` (the next block's) would
   * have to make, in three stages a later call goes on with. True once done.
   *  1. The models and edges of its time-dependent pools: the next block then builds only the
   *     pools it changes, since a stored pool it left alone keeps its object, and with it the
   *     model made here.
   *  2. Its engine, derived from the one quotes use now.
   *  3. The candidates of the pairs asked on that one, carried to it (`SwapEngine.carryFrom`).
   * The next block's engine derives from the engine of stage 2, so its first quote of a pair
   * asked before pays for what the block changed, not for every pool that moved with time.
   */
  prepare(source: V3Universe, timestamp: number, budgetMs: number): boolean {
    const end = performance.now() + budgetMs;
    const enough = () => performance.now() >= end;
    let progress = this.preparing.get(source.pools);
    if (progress?.timestamp !== timestamp) {
      progress = { timestamp, from: 0 };
      this.preparing.set(source.pools, progress);
    }
    if (progress.from < source.pools.length) {
      progress.from = prepareV3Models(
        {
          pools: source.pools,
          buffers: source.buffers,
          timestamp: BigInt(timestamp),
          cache: this.models,
          from: progress.from,
        },
        (model) => {
          if (!this.edges.has(model)) this.edges.set(model, edgesOf(model));
        },
        enough,
      );
      if (progress.from < source.pools.length || enough()) return false;
    }
    // Only over the universe quotes use now (the chain's latest engine), at another time: an
    // outdated version's slice, run before the newer one's replaced it, has nothing to carry.
    const current = this.universes.get(source.pools);
    if (
      !current ||
      current.buffers !== source.buffers ||
      current.timestamp === timestamp ||
      current.engine !== this.lastEngine.get(source.chainId)
    )
      return true;
    let ahead = this.ahead.get(source.chainId);
    if (
      !ahead ||
      ahead.pools !== source.pools ||
      ahead.buffers !== source.buffers ||
      ahead.timestamp !== timestamp ||
      ahead.parent !== current.engine
    ) {
      ahead = { ...this.build(source, timestamp, current.engine), parent: current.engine };
      this.ahead.set(source.chainId, ahead);
      if (enough()) return false;
    }
    return ahead.engine.carryFrom(current.engine, enough);
  }

  /** Native price per token, once per token list (prices move with the token list's version). */
  private gasPricesOf(tokens: readonly StoredToken[]): Record<string, string> {
    let table = this.gasPrices.get(tokens);
    if (!table) {
      table = gasPriceTable(tokens);
      this.gasPrices.set(tokens, table);
    }
    return table;
  }

  /** A quote over a snapshot, on this thread. */
  quote(chain: ChainInfo, snap: ChainSnapshot, req: QuoteRequest, timestamp: number): V3Quote {
    if (!chain.v3) return this.route(chain.wrappedNative, undefined, req, timestamp, {});
    let decimals: Map<string, number> | undefined;
    const source = {
      chainId: snap.chainId,
      pools: snap.pools,
      buffers: snap.buffers,
      // Read only when a universe is built.
      decimalsOf: (t: string) =>
        (decimals ??= new Map(snap.tokens.map((k) => [k.address.toLowerCase(), k.decimals]))).get(t),
    };
    return this.route(chain.wrappedNative, source, req, timestamp, this.gasPricesOf(snap.tokens));
  }

  /**
   * The route over `source` (no route without one) at `timestamp`, gas priced by the native
   * price per token in `gasPrices` (`tokenPrices.ts` `gasPriceTable`).
   */
  route(
    wrappedNative: string,
    source: V3Universe | undefined,
    req: V3RouteRequest,
    timestamp: number,
    gasPrices: Readonly<Record<string, string>>,
  ): V3Quote {
    const weth = wrappedNative.toLowerCase();
    const nativeIn = NATIVE_ASSET_ALIASES.includes(req.sellToken.toLowerCase());
    const nativeOut = NATIVE_ASSET_ALIASES.includes(req.buyToken.toLowerCase());
    const tokenIn = nativeIn ? weth : req.sellToken.toLowerCase();
    const tokenOut = nativeOut ? weth : req.buyToken.toLowerCase();
    const wire = { tokenIn: nativeIn ? ZERO_ADDRESS : tokenIn, tokenOut: nativeOut ? ZERO_ADDRESS : tokenOut };
    const empty = { info: emptyV3SwapInfo(wire.tokenIn, wire.tokenOut) };
    if (!source || tokenIn === tokenOut) return empty;
    const { engine } = this.universe(source, timestamp);
    const decimalsOf = (t: string) => engine.graph.decimals.get(t);
    const route = engine.route({
      tokenIn,
      tokenOut,
      kind: req.orderKind,
      amount: req.amount,
      gasPerSwap: gasPerSwapIn(req.gasPrice, gasPrices, weth, decimalsOf),
      ...(req.singlePath ? { singlePath: true } : {}),
    });
    if (!route) return empty;
    const answer = v3SwapInfo(
      route,
      wire,
      (id) => engine.model(id),
      (t) => decimalsOf(t) ?? 18,
    );
    return answer ? { info: answer.info, route, hopAmounts: answer.hopAmounts } : empty;
  }
}
