import Big from 'big.js';
import { toPlainDecimal, unitsToDecimal } from '../../domain/decimal';
import { devnetPoolType } from '../../domain/poolTypes/registry';
import type { OnchainPool, OnchainSwap } from './onchainPools';

/**
 * On-chain pool state -> the Balancer V2 subgraph's pool shape (human-unit decimal strings, as
 * graph-node serves BigDecimal), so the pool-update job reads the devnet exactly like a real
 * subgraph. Pure. USD figures (liquidity, volume, fees) use the devnet's fixed prices the way the
 * subgraph uses its own price feed; amounts are converted exactly, never through JS numbers.
 */
export type PricesUsd = ReadonlyMap<string, string>;

function usdOf(amount: string, price: string | undefined): Big | null {
  return price === undefined ? null : new Big(amount).times(price);
}

function plainBig(b: Big): string {
  return toPlainDecimal(b.toFixed());
}

/** A swap's USD size: what went in, or what came out when the in-token has no price (e.g. BPT). */
function swapVolumeUsd(swap: OnchainSwap, decimalsOf: (a: string) => number | undefined, prices: PricesUsd): Big {
  const side = (token: string, amount: bigint): Big | null => {
    const decimals = decimalsOf(token);
    return decimals === undefined ? null : usdOf(unitsToDecimal(amount, decimals), prices.get(token));
  };
  return side(swap.tokenIn, swap.amountIn) ?? side(swap.tokenOut, swap.amountOut) ?? new Big(0);
}

export function toSubgraphPool(pool: OnchainPool, prices: PricesUsd): Record<string, unknown> {
  const decimals = new Map(pool.tokens.map((t) => [t.address, t.decimals]));
  const swapFee = unitsToDecimal(pool.swapFee, 18);
  let liquidity = new Big(0);
  for (const t of pool.tokens) {
    if (t.address === pool.address) continue;
    // Another pool's BPT has no price of its own here, so it counts for nothing.
    liquidity = liquidity.plus(usdOf(unitsToDecimal(t.balance, t.decimals), prices.get(t.address)) ?? 0);
  }
  let volume = new Big(0);
  for (const s of pool.swaps) volume = volume.plus(swapVolumeUsd(s, (a) => decimals.get(a), prices));
  const weighted = pool.kind === 'weighted' || pool.kind === 'liquidityBootstrapping';
  const linear = pool.linear;
  const fees = pool.protocolFees ?? null;

  return {
    id: pool.id,
    address: pool.address,
    // The subgraph's name of the type the devnet deploys as this kind (its registry entry).
    poolType: devnetPoolType(pool.kind),
    poolTypeVersion: pool.version,
    factory: pool.factory,
    owner: pool.owner,
    symbol: pool.symbol,
    name: pool.name,
    swapFee,
    swapEnabled: !pool.paused && pool.swapEnabled,
    isPaused: pool.paused,
    isInRecoveryMode: pool.recoveryMode,
    // The subgraph stores amp without its precision (200, not 200000).
    amp: pool.amp ? (pool.amp.value / pool.amp.precision).toString() : null,
    totalShares: unitsToDecimal(pool.totalShares, 18),
    totalWeight: weighted ? '1' : '0',
    totalSwapVolume: plainBig(volume),
    totalSwapFee: plainBig(volume.times(swapFee)),
    totalLiquidity: plainBig(liquidity),
    createTime: pool.createTime,
    swapsCount: String(pool.swaps.length),
    holdersCount: null,
    tokensList: pool.tokens.map((t) => t.address),
    tokens: pool.tokens.map((t) => ({
      id: `${pool.id}-${t.address}`,
      address: t.address,
      symbol: t.symbol,
      name: t.name,
      decimals: t.decimals,
      balance: unitsToDecimal(t.balance, t.decimals),
      weight: t.weight === null ? null : unitsToDecimal(t.weight, 18),
      priceRate: unitsToDecimal(t.rate, 18),
      oldPriceRate: t.oldRate === null || t.oldRate === undefined ? null : unitsToDecimal(t.oldRate, 18),
      isExemptFromYieldProtocolFee: t.exemptFromYieldFee ?? null,
    })),
    priceRateProviders: pool.rateProviders.map((r) => ({ address: r.provider, token: { address: r.token } })),
    mainIndex: linear ? linear.mainIndex : null,
    wrappedIndex: linear ? linear.wrappedIndex : null,
    lowerTarget: linear ? unitsToDecimal(linear.lowerTarget, 18) : null,
    upperTarget: linear ? unitsToDecimal(linear.upperTarget, 18) : null,
    expiryTime: null,
    unitSeconds: null,
    principalToken: null,
    baseToken: null,
    managementFee: null,
    protocolYieldFeeCache: fees ? unitsToDecimal(fees.yieldFeeCache, 18) : null,
    protocolSwapFeeCache: fees
      ? unitsToDecimal(fees.swapFeeCache, 18)
      : pool.weightedFees
        ? unitsToDecimal(pool.weightedFees.swapFeeCache, 18)
        : null,
    // As the subgraph stores them: amp without its precision, the invariant in 18-decimal units.
    lastJoinExitAmp: fees && pool.amp ? unitsToDecimal((fees.lastJoinExitAmp * 1000n) / pool.amp.precision, 3) : null,
    lastPostJoinExitInvariant: fees
      ? unitsToDecimal(fees.lastPostJoinExitInvariant, 18)
      : pool.weightedFees
        ? unitsToDecimal(pool.weightedFees.lastPostJoinExitInvariant, 18)
        : null,
  };
}
