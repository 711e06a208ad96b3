import { SOR, SwapTypes, type SwapInfo } from '@balancer-labs/sor';
import type { Provider } from '@ethersproject/providers';
import { BigNumber } from '@ethersproject/bignumber';
import { NATIVE_ASSET_ALIASES } from '../../config/chains';
import { buildModels } from '../../domain/swap/models';
import type { ModelBug } from '../modelBugs';
import type { PoolModel } from '../../domain/swap/poolModel';
import { replayBatchSwap } from '../../domain/swap/replay';
import { priceImpact } from '../priceImpact';
import { checkRoute, checkedRouteFromSwapInfo } from './routeCheck';
import { emptySwapInfo, serializeSwapInfo } from '../serialize';
import { sorConfigFor } from './sorConfig';
import { toSorPool } from './sorPools';
import type { RoutingPool } from './routingPools';
import type { OrderKind, SerializedSwapInfo } from '../types';

/**
 * One `@balancer-labs/sor` instance over one fixed pool set (one pool version, one liquidity
 * floor): the SOR adapter. It converts our routing pools to the SOR's shape (`sorPools.ts`) and
 * replays the SOR's answer through the engine's models built from the same pools. A new pool version gets a new instance: SOR 4.1.3 caches candidate paths per
 * (tokens, swap type, timestamp), so an instance fed new pools would keep quoting the old ones.
 */

export interface RouterChain {
  readonly id: number;
  readonly vault: string;
  readonly wrappedNative: string;
  /** The chain has a batch relayer: routes may join and exit pools (sells only). */
  readonly joinExit?: boolean;
}

export interface RouteRequest {
  readonly sellToken: string;
  readonly buyToken: string;
  readonly orderKind: OrderKind;
  /** Decimal string, smallest units. */
  readonly amount: string;
  readonly gasPrice: string;
  /** Unix seconds the SOR prices time-dependent pools at (see `sorTimestamp`). */
  readonly timestamp: number;
  /** Every step's `returnAmount` on any route (own engine only; `QuoteRequest.stepAmounts`). */
  readonly stepAmounts?: boolean;
  /** One path, no split (own engine only; `QuoteRequest.singlePath`). */
  readonly singlePath?: boolean;
}

export interface RouteOutcome {
  readonly info: SerializedSwapInfo;
  /** Why SOR routes were refused (the answer then avoids the pools named, or is no route). */
  readonly rejected?: string;
  /** Pools whose model broke while being built (left out of routing): bugs for the main thread to log. */
  readonly modelBugs?: readonly ModelBug[];
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** A route with a broken hop is retried without that hop's pool at most this many times. */
export const MAX_POOL_EXCLUSIONS = 2;

/** The SOR takes the zero address for the native asset; wallets also send 0xEeee...EEeE. */
export function sorTokenAddress(token: string): string {
  const t = token.toLowerCase();
  return NATIVE_ASSET_ALIASES.includes(t) ? ZERO_ADDRESS : t;
}

/** Handed to the SOR as its provider; the RPC-free chain id means it is never used. */
const NO_NODE = new Proxy(
  {},
  {
    get(_target, prop) {
      if (typeof prop === 'symbol' || prop === 'then') return undefined;
      throw new Error(`routing never calls a node, but the SOR asked its provider for '${prop}'`);
    },
  },
) as Provider;

type Attempt = { ok: true; info: SwapInfo } | { ok: false; reason: string; poolId?: string };

export class ChainRouter {
  private readonly sor: SOR;
  private prices: Readonly<Record<string, string>> = {};
  private pricesKey: string | undefined;
  private timestamp: number | undefined;
  /** Routers over this pool set minus pools that produced broken hops, keyed by excluded ids. */
  private readonly without = new Map<string, Promise<ChainRouter>>();

  private constructor(
    readonly chain: RouterChain,
    private readonly pools: readonly RoutingPool[],
  ) {
    const sorPools = pools.map(toSorPool);
    this.sor = new SOR(
      NO_NODE,
      sorConfigFor(chain),
      { getPools: async () => sorPools },
      {
        getNativeAssetPriceInToken: async (token: string) => this.prices[token.toLowerCase()] ?? '0',
      },
    );
  }

  static async create(chain: RouterChain, pools: readonly RoutingPool[]): Promise<ChainRouter> {
    const router = new ChainRouter(chain, pools);
    if (!(await router.sor.fetchPools()))
      throw new Error(`the SOR could not load the ${pools.length} pools of chain ${chain.id}`);
    return router;
  }

  /** Gas-cost prices (native asset per token); applied once per token-price version. */
  setPrices(key: string, table: Readonly<Record<string, string>>): void {
    if (key === this.pricesKey) return;
    const weth = this.chain.wrappedNative.toLowerCase();
    for (const addr of new Set([...Object.keys(this.prices), ...Object.keys(table)])) {
      // The SOR prices its wrapped native token at 1 itself; a missing price must not zero it.
      if (addr === weth) continue;
      this.sor.swapCostCalculator.setNativeAssetPriceInToken(addr, table[addr] ?? '0');
    }
    this.prices = table;
    this.pricesKey = key;
  }

  async route(req: RouteRequest): Promise<RouteOutcome> {
    const tokenIn = sorTokenAddress(req.sellToken);
    const tokenOut = sorTokenAddress(req.buyToken);
    const reasons: string[] = [];
    const excluded: string[] = [];
    for (let router: ChainRouter | undefined; ;) {
      const attempt = await (router ?? this).attempt(tokenIn, tokenOut, req);
      if (attempt.ok) {
        return {
          info: this.exact(serializeSwapInfo(attempt.info), req.orderKind, req.timestamp),
          ...(reasons.length > 0 ? { rejected: reasons.join('; ') } : {}),
        };
      }
      if (attempt.reason !== '') reasons.push(attempt.reason);
      if (!attempt.poolId || excluded.length >= MAX_POOL_EXCLUSIONS) break;
      excluded.push(attempt.poolId);
      router = await this.routerWithout(excluded);
      router.setPrices(this.pricesKey ?? '', this.prices);
    }
    return { info: emptySwapInfo(tokenIn, tokenOut), ...(reasons.length > 0 ? { rejected: reasons.join('; ') } : {}) };
  }

  private models: { readonly timestamp: number; readonly byId: Map<string, PoolModel> } | undefined;
  private decimals: Map<string, number> | undefined;

  /**
   * The SOR's return amount replaced by the Vault's own arithmetic (the engine's pool models) over
   * the same swaps; a route through a pool the models do not carry keeps the SOR's estimate.
   */
  private exact(info: SerializedSwapInfo, kind: OrderKind, timestamp: number): SerializedSwapInfo {
    if (this.models?.timestamp !== timestamp) {
      const built = buildModels(
        this.pools.map((p) => p.spec),
        { timestamp },
      );
      this.models = { timestamp, byId: new Map(built.models.map((m) => [m.id, m])) };
    }
    this.decimals ??= new Map(
      this.pools.flatMap((p) => p.spec.tokens.map((t) => [t.address.toLowerCase(), t.decimals] as const)),
    );
    const weth = this.chain.wrappedNative.toLowerCase();
    const assets = info.tokenAddresses.map((a) => (a.toLowerCase() === ZERO_ADDRESS ? weth : a.toLowerCase()));
    const steps = info.swaps.map((s) => ({
      poolId: s.poolId.toLowerCase(),
      assetInIndex: s.assetInIndex,
      assetOutIndex: s.assetOutIndex,
      amount: BigInt(s.amount),
    }));
    const byId = this.models.byId;
    const r = replayBatchSwap(kind, steps, assets, (id) => byId.get(id));
    const index = (t: string) => info.tokenAddresses.findIndex((a) => a.toLowerCase() === t.toLowerCase());
    const delta = r.ok ? r.deltas[index(kind === 'sell' ? info.tokenOut : info.tokenIn)] : undefined;
    const exactAmount = delta === undefined ? undefined : kind === 'sell' ? -delta : delta;
    const amount = exactAmount !== undefined && exactAmount > 0n ? exactAmount : BigInt(info.returnAmount);
    const shift = amount - BigInt(info.returnAmount);
    const decimalsOf = (t: string) =>
      this.decimals?.get(t.toLowerCase() === ZERO_ADDRESS ? weth : t.toLowerCase()) ?? 18;
    return {
      ...info,
      returnAmount: amount.toString(),
      returnAmountFromSwaps: amount.toString(),
      returnAmountConsideringFees: (BigInt(info.returnAmountConsideringFees) + shift).toString(),
      priceImpact: priceImpact(
        kind,
        BigInt(info.swapAmount),
        amount,
        decimalsOf(info.tokenIn),
        decimalsOf(info.tokenOut),
        Number(info.marketSp),
      ),
    };
  }

  private async attempt(tokenIn: string, tokenOut: string, req: RouteRequest): Promise<Attempt> {
    if (this.timestamp !== req.timestamp) {
      // Paths cached for an older timestamp can never be asked for again: drop them.
      this.sor.routeProposer.cache = {};
      this.timestamp = req.timestamp;
    }
    const swapType = req.orderKind === 'sell' ? SwapTypes.SwapExactIn : SwapTypes.SwapExactOut;
    let info: SwapInfo;
    try {
      info = await this.sor.getSwaps(tokenIn, tokenOut, swapType, BigNumber.from(req.amount), {
        gasPrice: BigNumber.from(req.gasPrice),
        timestamp: req.timestamp,
        forceRefresh: false,
      });
    } catch (e) {
      // The SOR throws on some pool graphs (e.g. "Pool does not contain tokenIn"): for the client
      // that is a pair we cannot route, not a server fault.
      return { ok: false, reason: `the SOR failed: ${e instanceof Error ? e.message : String(e)}` };
    }
    if (info.swaps.length === 0 || info.returnAmount.isZero()) return { ok: false, reason: '' };
    const verdict = checkRoute(checkedRouteFromSwapInfo(info), req.orderKind);
    return verdict.ok ? { ok: true, info } : verdict;
  }

  private routerWithout(poolIds: readonly string[]): Promise<ChainRouter> {
    const key = [...poolIds].sort().join(',');
    let router = this.without.get(key);
    if (!router) {
      const skip = new Set(poolIds);
      router = ChainRouter.create(
        this.chain,
        this.pools.filter((p) => !skip.has(p.spec.id)),
      );
      router.catch(() => this.without.delete(key));
      if (this.without.size >= 16) this.without.delete(this.without.keys().next().value!);
      this.without.set(key, router);
    }
    return router;
  }
}
