import { SOR, SwapTypes, type SubgraphPoolBase, type SwapInfo } from '@balancer-labs/sor';
import type { Provider } from '@ethersproject/providers';
import { BigNumber } from '@ethersproject/bignumber';
import { NATIVE_ASSET_ALIASES } from '../config/chains';
import { checkRoute, routeFromSwapInfo } from './routeCheck';
import { emptySwapInfo, serializeSwapInfo } from './serialize';
import { sorConfigFor } from './sorConfig';
import type { OrderKind, SerializedSwapInfo } from './types';

/**
 * One `@balancer-labs/sor` instance over one fixed pool set (one pool version, one liquidity
 * floor). A new pool version gets a new instance: SOR 4.1.3 caches candidate paths per
 * (tokens, swap type, timestamp), so an instance fed new pools would keep quoting the old ones.
 */

export interface RouterChain {
  readonly id: number;
  readonly vault: string;
  readonly wrappedNative: string;
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
}

export interface RouteOutcome {
  readonly info: SerializedSwapInfo;
  /** Set when the SOR found a route that failed the sanity check (it is answered as no route). */
  readonly rejected?: string;
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

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

export class ChainRouter {
  private readonly sor: SOR;
  private prices: Readonly<Record<string, string>> = {};
  private pricesKey: string | undefined;
  private timestamp: number | undefined;

  private constructor(
    readonly chain: RouterChain,
    pools: SubgraphPoolBase[],
  ) {
    this.sor = new SOR(NO_NODE, sorConfigFor(chain), { getPools: async () => pools }, {
      getNativeAssetPriceInToken: async (token: string) => this.prices[token.toLowerCase()] ?? '0',
    });
  }

  static async create(chain: RouterChain, pools: SubgraphPoolBase[]): Promise<ChainRouter> {
    const router = new ChainRouter(chain, pools);
    if (!(await router.sor.fetchPools())) throw new Error(`the SOR could not load the ${pools.length} pools of chain ${chain.id}`);
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
    if (this.timestamp !== req.timestamp) {
      // Paths cached for an older timestamp can never be asked for again: drop them.
      this.sor.routeProposer.cache = {};
      this.timestamp = req.timestamp;
    }
    const tokenIn = sorTokenAddress(req.sellToken);
    const tokenOut = sorTokenAddress(req.buyToken);
    const swapType = req.orderKind === 'sell' ? SwapTypes.SwapExactIn : SwapTypes.SwapExactOut;
    const info: SwapInfo = await this.sor.getSwaps(tokenIn, tokenOut, swapType, BigNumber.from(req.amount), {
      gasPrice: BigNumber.from(req.gasPrice),
      timestamp: req.timestamp,
      forceRefresh: false,
    });
    if (info.swaps.length === 0 || info.returnAmount.isZero()) return { info: emptySwapInfo(tokenIn, tokenOut) };
    const verdict = checkRoute(routeFromSwapInfo(info), req.orderKind);
    if (!verdict.ok) return { info: emptySwapInfo(tokenIn, tokenOut), rejected: verdict.reason };
    return { info: serializeSwapInfo(info) };
  }
}
