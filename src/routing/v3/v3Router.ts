import { NATIVE_ASSET_ALIASES, type ChainInfo } from '../../config/chains';
import type { StoredPool, StoredToken } from '../../domain/pool';
import { V3ModelCache } from '../../domain/protocols/v3/engine/v3ModelCache';
import { buildV3Models, type V3Models } from '../../domain/protocols/v3/engine/v3Models';
import type { StoredBuffer } from '../../domain/protocols/v3/stored/storedV3';
import { SwapEngine } from '../../domain/swap/engine';
import type { Edge } from '../../domain/swap/graph';
import type { PoolModel } from '../../domain/swap/poolModel';
import type { Route } from '../../domain/swap/route';
import type { ChainSnapshot } from '../../readModel/chainSnapshot';
import { gasPerSwapIn } from '../gasCost';
import { gasPriceTable } from '../tokenPrices';
import type { QuoteRequest, SerializedV3SwapInfo } from '../types';
import { emptyV3SwapInfo, v3SwapInfo, type V3HopAmounts } from './v3Answer';

/**
 * Routes within the V3 Vault: the same engine as V2 (`domain/swap/engine.ts`) over the V3
 * universe of a snapshot (its V3 pools and buffers, `buildV3Models`), so a route never mixes the
 * two Vaults. One engine per snapshot state and pricing timestamp, kept while they last, each built
 * from what the chain's last one can lend it (models, edges, the engine to derive from).
 *
 * It runs on the calling thread: V3 universes are a few hundred pools and buffers, and the
 * worker pool's inputs (`poolVersions.ts`) carry the V2 Vault's pools only.
 */

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

interface Universe {
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
  private readonly universes = new WeakMap<readonly StoredPool[], Universe>();
  /**
   * What a new universe reuses, so a block costs what it changed, not the whole V3 Vault: the
   * models of pools and buffers it left alone (`V3ModelCache`), their graph edges, and per chain
   * the last engine, which the next one derives from (its graph and its pairs' candidates).
   */
  private readonly models = new V3ModelCache();
  private readonly edges = new WeakMap<PoolModel, readonly Edge[]>();
  private readonly lastEngine = new Map<number, SwapEngine>();
  private readonly gasPrices = new WeakMap<readonly StoredToken[], Record<string, string>>();

  constructor(private readonly onModelBug: (chainId: number, id: string, error: unknown) => void = () => {}) {}

  private universe(snap: ChainSnapshot, timestamp: number): Universe {
    const known = this.universes.get(snap.pools);
    if (known && known.buffers === snap.buffers && known.timestamp === timestamp) return known;
    const decimals = new Map(snap.tokens.map((t) => [t.address.toLowerCase(), t.decimals]));
    const built = buildV3Models({
      pools: snap.pools,
      buffers: snap.buffers,
      timestamp: BigInt(timestamp),
      decimalsOf: (t) => decimals.get(t),
      cache: this.models,
    });
    for (const f of built.failed) this.onModelBug(snap.chainId, f.id, f.error);
    const previous = known?.engine ?? this.lastEngine.get(snap.chainId);
    const engine = new SwapEngine(built.models, this.edges, previous ? { previous } : {});
    this.lastEngine.set(snap.chainId, engine);
    const universe = { buffers: snap.buffers, timestamp, built, engine };
    this.universes.set(snap.pools, universe);
    return universe;
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

  quote(chain: ChainInfo, snap: ChainSnapshot, req: QuoteRequest, timestamp: number): V3Quote {
    const weth = chain.wrappedNative.toLowerCase();
    const nativeIn = NATIVE_ASSET_ALIASES.includes(req.sellToken.toLowerCase());
    const nativeOut = NATIVE_ASSET_ALIASES.includes(req.buyToken.toLowerCase());
    const tokenIn = nativeIn ? weth : req.sellToken.toLowerCase();
    const tokenOut = nativeOut ? weth : req.buyToken.toLowerCase();
    const wire = { tokenIn: nativeIn ? ZERO_ADDRESS : tokenIn, tokenOut: nativeOut ? ZERO_ADDRESS : tokenOut };
    const empty = { info: emptyV3SwapInfo(wire.tokenIn, wire.tokenOut) };
    if (!chain.v3 || tokenIn === tokenOut) return empty;
    const { engine } = this.universe(snap, timestamp);
    const decimalsOf = (t: string) => engine.graph.decimals.get(t);
    const route = engine.route({
      tokenIn,
      tokenOut,
      kind: req.orderKind,
      amount: req.amount,
      gasPerSwap: gasPerSwapIn(req.gasPrice, this.gasPricesOf(snap.tokens), weth, decimalsOf),
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
