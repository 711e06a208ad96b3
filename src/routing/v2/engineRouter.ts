import { NATIVE_ASSET_ALIASES } from '../../config/chains';
import { SwapEngine } from '../../domain/swap/engine';
import type { JoinExitPool } from '../../domain/swap/joinExitPools';
import type { Edge } from '../../domain/swap/graph';
import { buildModels, isTimeDependent } from '../../domain/swap/models';
import type { PoolModel, PoolSpec } from '../../domain/swap/poolModel';
import { toBatchSwap, type Route } from '../../domain/swap/route';
import type { RouteOutcome, RouteRequest, RouterChain } from './chainRouter';
import { modelBugsOf, type ModelBug } from '../modelBugs';
import { gasPerSwapIn } from '../gasCost';
import { plainDecimal, priceImpact } from '../priceImpact';
import { emptySwapInfo } from '../serialize';
import type { SerializedSwapInfo } from '../types';

/**
 * The service's own engine (src/domain/swap) over one fixed pool set, answering in the SOR's wire
 * shape. When the pricing timestamp moves only the time-dependent models (Element pools price by
 * time to maturity) are rebuilt, with the graph over them; every other model and its edges stay.
 * Candidate paths are cached inside the engine per token pair.
 *
 * A router for the next pool version is built from the previous one (`previous`): the model of a
 * spec object the previous router already built is kept (time-dependent ones when built at the
 * same timestamp), with its edges and join/exit hop, so a version that changes k pools builds k
 * models, and its engine's graph is the previous engine's with those k pools swapped (graph.ts
 * `withChanges`). Each pair's candidates are carried over to it, costing the sequences through
 * the changed pools' pairs (candidateUpdates.ts).
 */

/** What building one spec's model gave: the model, or why the pool is left out. */
type Built =
  | { readonly model: PoolModel }
  | { readonly skipped: { readonly id: string; readonly reason: string } }
  | { readonly failed: true };

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

export class EngineRouter {
  private engine: SwapEngine | undefined;
  private engineTimestamp: number | undefined;
  /** The previous version's engine, whose graphs the first engine of this version derives from; then dropped. */
  private inherited: SwapEngine | undefined;
  /** Models of pools whose swaps do not depend on time: built once per pool spec. */
  private readonly fixed: {
    readonly models: PoolModel[];
    readonly skipped: { id: string; reason: string }[];
    readonly timed: PoolSpec[];
  };
  /** Per spec object: its model as built, shared with the routers of later versions (they keep unchanged specs' models). */
  private readonly built: WeakMap<PoolSpec, Built>;
  /** Per time-dependent spec: its model at the timestamp it was built for, shared the same way. */
  private readonly builtAt: WeakMap<PoolSpec, { readonly timestamp: number; readonly built: Built }>;
  private readonly edges: WeakMap<PoolModel, readonly Edge[]>;
  /** Join/exit hops per model, kept like the edges (src/domain/swap/joinExitPools.ts). */
  private readonly hops: WeakMap<PoolModel, JoinExitPool | null>;
  private prices: Readonly<Record<string, string>> = {};
  /** Pools left out of the engine (unknown type or version), with why; logged once per build. */
  skipped: readonly { readonly id: string; readonly reason: string }[] = [];
  /** Pools whose model broke while being built, not yet handed to the main thread's log. */
  private unreportedBugs: ModelBug[] = [];

  constructor(
    readonly chain: RouterChain,
    /** The engine's input, built from the stored pools (routingPools.ts). */
    specs: readonly PoolSpec[],
    /** The router of an earlier version of the same pool set, whose models of unchanged specs are kept. */
    previous?: EngineRouter,
    /** The candidates this chain's engines keep (the thread's share, routerHost.ts); default the engine's own. */
    private readonly candidateBudget?: () => number,
  ) {
    this.edges = previous?.edges ?? new WeakMap();
    this.built = previous?.built ?? new WeakMap();
    this.builtAt = previous?.builtAt ?? new WeakMap();
    this.inherited = previous?.engine ?? previous?.inherited;
    this.hops = previous?.hops ?? new WeakMap();
    const models: PoolModel[] = [];
    const skipped: { id: string; reason: string }[] = [];
    const timed: PoolSpec[] = [];
    for (const spec of specs) {
      if (isTimeDependent(spec)) {
        timed.push(spec);
        continue;
      }
      let built = this.built.get(spec);
      if (!built) {
        built = this.build(spec, 0);
        this.built.set(spec, built);
      }
      if ('model' in built) models.push(built.model);
      else if ('skipped' in built) skipped.push(built.skipped);
    }
    this.fixed = { models, skipped, timed };
  }

  /** One spec's model at `timestamp`, or why the pool is left out; a model that broke is reported once. */
  private build(spec: PoolSpec, timestamp: number): Built {
    const one = buildModels([spec], { timestamp });
    this.unreportedBugs.push(...modelBugsOf(one.failed));
    return one.models[0] ? { model: one.models[0] } : one.skipped[0] ? { skipped: one.skipped[0] } : { failed: true };
  }

  /** The time-dependent specs' models at `timestamp`: those a router of this pool set built at that timestamp are kept. */
  private timedAt(timestamp: number): { models: PoolModel[]; skipped: { id: string; reason: string }[] } {
    const models: PoolModel[] = [];
    const skipped: { id: string; reason: string }[] = [];
    for (const spec of this.fixed.timed) {
      let at = this.builtAt.get(spec);
      if (at?.timestamp !== timestamp) {
        at = { timestamp, built: this.build(spec, timestamp) };
        this.builtAt.set(spec, at);
      }
      if ('model' in at.built) models.push(at.built.model);
      else if ('skipped' in at.built) skipped.push(at.built.skipped);
    }
    return { models, skipped };
  }

  setPrices(_key: string, table: Readonly<Record<string, string>>): void {
    this.prices = table;
  }

  engineAt(timestamp: number): SwapEngine {
    if (!this.engine || this.engineTimestamp !== timestamp) {
      const timed = this.timedAt(timestamp);
      const previous = this.engine ?? this.inherited;
      this.inherited = undefined;
      this.engine = new SwapEngine([...this.fixed.models, ...timed.models], this.edges, {
        joinExit: this.chain.joinExit === true,
        hopCache: this.hops,
        ...(previous ? { previous } : {}),
        ...(this.candidateBudget ? { candidateBudget: this.candidateBudget } : {}),
      });
      this.engineTimestamp = timestamp;
      this.skipped = [...this.fixed.skipped, ...timed.skipped];
    }
    return this.engine;
  }

  route(req: RouteRequest): Promise<RouteOutcome> {
    const outcome = this.routeNow(req);
    const modelBugs = this.takeModelBugs();
    return Promise.resolve(modelBugs.length > 0 ? { ...outcome, modelBugs } : outcome);
  }

  /** Model build failures since the last call: each is reported once, with the outcome that follows it. */
  takeModelBugs(): ModelBug[] {
    const bugs = this.unreportedBugs;
    this.unreportedBugs = [];
    return bugs;
  }

  routeNow(req: RouteRequest): RouteOutcome {
    const engine = this.engineAt(req.timestamp);
    const weth = this.chain.wrappedNative.toLowerCase();
    const nativeIn = NATIVE_ASSET_ALIASES.includes(req.sellToken.toLowerCase());
    const nativeOut = NATIVE_ASSET_ALIASES.includes(req.buyToken.toLowerCase());
    const tokenIn = nativeIn ? weth : req.sellToken.toLowerCase();
    const tokenOut = nativeOut ? weth : req.buyToken.toLowerCase();
    const wireIn = nativeIn ? ZERO_ADDRESS : tokenIn;
    const wireOut = nativeOut ? ZERO_ADDRESS : tokenOut;
    const empty = {
      info: {
        ...emptySwapInfo(wireIn, wireOut),
        tokenInForSwaps: tokenIn,
        tokenOutFromSwaps: tokenOut,
        priceImpact: '0',
      },
    };
    if (tokenIn === tokenOut) return empty;
    const gasPerSwap = gasPerSwapIn(BigInt(req.gasPrice), this.prices, weth, (t) => engine.graph.decimals.get(t));
    const route = engine.route({
      tokenIn,
      tokenOut,
      kind: req.orderKind,
      amount: BigInt(req.amount),
      gasPerSwap,
      ...(req.singlePath ? { singlePath: true } : {}),
    });
    if (!route) return empty;
    return { info: this.serialize(route, wireIn, wireOut, req.stepAmounts === true) };
  }

  private serialize(route: Route, wireIn: string, wireOut: string, stepAmounts: boolean): SerializedSwapInfo {
    const batch = toBatchSwap(route);
    const decimals = (t: string) => this.engine?.graph.decimals.get(t) ?? 18;
    // The Vault takes the zero address for the native asset in place of its wrapped token.
    const assets = batch.assets.map((a) => (a === route.tokenIn ? wireIn : a === route.tokenOut ? wireOut : a));
    const amount = route.amount.toString();
    const returnAmount = route.returnAmount.toString();
    const consideringFees =
      route.kind === 'sell' ? route.returnAmount - route.gasCost : route.returnAmount + route.gasCost;
    // A join or exit needs the batch relayer: such routes are marked, with every step's result
    // (what each path's minimum out follows from; see src/routing/v2/relayer).
    const relayer = batch.steps.some((s) => s.action !== undefined);
    const stepExtras = (k: number, action: 'join' | 'exit' | undefined) =>
      relayer || stepAmounts
        ? { ...(action ? { action } : {}), returnAmount: String(route.stepAmounts?.[k] ?? '') }
        : {};
    return {
      tokenAddresses: assets,
      swaps: batch.steps.map((s, k) => ({
        poolId: s.poolId,
        assetInIndex: s.assetInIndex,
        assetOutIndex: s.assetOutIndex,
        amount: s.amount.toString(),
        userData: '0x',
        ...stepExtras(k, s.action),
      })),
      swapAmount: amount,
      swapAmountForSwaps: amount,
      returnAmount,
      returnAmountFromSwaps: returnAmount,
      returnAmountConsideringFees: consideringFees.toString(),
      tokenIn: wireIn,
      tokenInForSwaps: route.tokenIn,
      tokenOut: wireOut,
      tokenOutFromSwaps: route.tokenOut,
      marketSp: plainDecimal(route.spotPrice),
      priceImpact: priceImpact(
        route.kind,
        route.amount,
        route.returnAmount,
        decimals(route.tokenIn),
        decimals(route.tokenOut),
        route.spotPrice,
      ),
      ...(relayer ? { relayerRequired: true as const } : {}),
    };
  }
}
