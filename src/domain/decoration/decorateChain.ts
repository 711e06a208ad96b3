import type { PoolDecoration, PoolHistoryPoint, StoredPool } from '../pool';
import { aprBreakdown, rateGrowthApr, swapFeeApr, TokenAprInput, tokenAprs } from './apr';
import { dependencyOrder } from './dependencyOrder';
import { dec, Exact, toOutput } from './exact';
import { GaugeAprs, GaugeData, gaugeAprs, NO_GAUGE_APRS } from './gaugeApr';
import { poolLiquidity } from './liquidity';
import { swapDeltas } from './swapDeltas';

/**
 * Decoration of every pool of one chain from stored pools, token USD prices and pool history.
 * Pure: the clock comes in as `nowSeconds`. Returns the decoration fields (without `decoratedAt`)
 * per pool id.
 */
export const NEW_POOL_SECONDS = 7 * 86_400;

export interface ChainDecorationInput {
  readonly pools: readonly StoredPool[];
  /** Lower-case token address -> USD price (decimal string). */
  readonly pricesUsd: ReadonlyMap<string, string>;
  /** History points of the chain's pools (any order, any pools). */
  readonly history: readonly PoolHistoryPoint[];
  readonly nowSeconds: number;
  /** Share of swap fees the protocol takes on this chain (0..1); pools in recovery mode pay none. */
  readonly protocolSwapFee: number;
  /** Staking and reward APR inputs; absent when the chain has no gauge source (both 0). */
  readonly gauges?: GaugeData;
}

export type Decoration = Omit<PoolDecoration, 'decoratedAt'>;

interface Done {
  readonly liquidity: Exact | undefined;
  /** Swap-fee + token APR in bps, what the pool's BPT earns when another pool holds it. */
  readonly yieldBps: number;
}

export function decorateChain(input: ChainDecorationInput): Map<string, Decoration> {
  const historyByPool = new Map<string, PoolHistoryPoint[]>();
  for (const p of input.history) {
    const list = historyByPool.get(p.poolId);
    if (list) list.push(p);
    else historyByPool.set(p.poolId, [p]);
  }
  const byAddress = new Map<string, (typeof input.pools)[number]>(input.pools.map((p) => [p.address, p]));
  const marketPrices = new Map<string, Exact>();
  for (const [address, usd] of input.pricesUsd) marketPrices.set(address, dec(usd));

  const done = new Map<string, Done>();
  const out = new Map<string, Decoration>();

  // A nested BPT is worth its pool's liquidity per share: computed this run when the pool came
  // first in dependency order, else (a cycle) the pool's previous liquidity.
  const bptPrice = (address: string): Exact | undefined => {
    const sub = byAddress.get(address);
    if (!sub) return undefined;
    const shares = dec(sub.totalShares);
    if (!shares.gt(0)) return undefined;
    const prev = sub.totalLiquidity !== undefined ? dec(sub.totalLiquidity) : undefined;
    const liquidity = done.has(sub.id) ? done.get(sub.id)!.liquidity : prev;
    return liquidity && liquidity.gt(0) ? liquidity.div(shares) : undefined;
  };
  const priceOf = (address: string) => bptPrice(address) ?? marketPrices.get(address);
  const usdOf = (address: string): number | undefined => priceOf(address)?.toNumber();

  const gauges = input.gauges;
  const gaugePart = (pool: StoredPool, liquidity: Exact | undefined): GaugeAprs => {
    if (!gauges) return NO_GAUGE_APRS;
    if (gauges.status === 'stale' || gauges.unread.has(pool.id)) {
      return pool.apr ? { stakingApr: pool.apr.stakingApr, rewardAprs: pool.apr.rewardAprs } : NO_GAUGE_APRS;
    }
    const gauge = gauges.byPool.get(pool.id);
    if (!gauge) return NO_GAUGE_APRS;
    const shares = Number(pool.totalShares);
    const bptUsd = liquidity && shares > 0 ? liquidity.toNumber() / shares : undefined;
    return gaugeAprs(gauge, { bptUsd, balUsd: usdOf(gauges.bal), tokenUsd: usdOf }, input.nowSeconds);
  };

  for (const pool of dependencyOrder(input.pools)) {
    const history = historyByPool.get(pool.id) ?? [];
    const computed = poolLiquidity(pool, priceOf);
    const liquidity = computed
      ? computed.total
      : pool.totalLiquidity !== undefined
        ? dec(pool.totalLiquidity)
        : undefined;

    const deltas = swapDeltas(pool, history, input.nowSeconds);
    const protocolFee = pool.isInRecoveryMode ? 0 : input.protocolSwapFee;
    const swapFees = swapFeeApr(deltas.fees, liquidity, protocolFee);

    const yields: TokenAprInput[] = [];
    if (computed) {
      for (const token of pool.tokens) {
        const value = computed.values.get(token.address);
        if (!value) continue;
        const nested = byAddress.get(token.address);
        const nestedDone = nested && nested.id !== pool.id ? done.get(nested.id) : undefined;
        const aprBps = nestedDone
          ? nestedDone.yieldBps
          : rateGrowthApr(token.address, token.priceRate, history, input.nowSeconds);
        yields.push({ address: token.address, aprBps, value });
      }
    }
    const apr = aprBreakdown(swapFees, tokenAprs(yields, liquidity), gaugePart(pool, liquidity));
    done.set(pool.id, { liquidity, yieldBps: apr.swapFees + apr.tokenAprs.total });

    out.set(pool.id, {
      ...(liquidity !== undefined ? { totalLiquidity: toOutput(liquidity) } : {}),
      volumeSnapshot: toOutput(deltas.volume),
      feesSnapshot: toOutput(deltas.fees),
      snapshotExtrapolated: deltas.extrapolated,
      apr,
      maxApr: apr.max,
      isNew: pool.createTime !== null && input.nowSeconds - pool.createTime < NEW_POOL_SECONDS,
    });
  }
  return out;
}
