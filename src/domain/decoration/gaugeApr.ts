import type { AprBreakdown } from '../pool';
import { YEAR_SECONDS } from './apr';

/**
 * Staking (BAL) and reward-token APRs of a pool's preferential gauge, in the old API's basis
 * points, as a new depositor of one BPT would earn them:
 *
 * - BAL split by working balances (mainnet gauges, 2023 child-chain gauges): a balance counts 0.4
 *   without veBAL and up to 1 with the full boost, so one BPT without boost earns
 *   0.4 / (workingSupply + 0.4) of the gauge's BAL; min = yearly BAL x BAL price x that share /
 *   BPT price, and max = 2.5 x min (Balancer's published gauge APR formula);
 * - BAL or reward tokens split by balance (2022 child-chain gauges stream bridged BAL as a reward;
 *   reward tokens everywhere): one BPT earns 1 / (totalSupply + 1) of the yearly amount, min = max.
 *
 * A finished reward period pays nothing. Ratios of USD figures rounded to whole bps in floating
 * point, like the other APR parts (apr.ts).
 */
export const BOOST_FLOOR = 0.4;
export const MAX_BOOST = 2.5;

export interface BalEmission {
  /** BAL (wei) per second the gauge hands out now. */
  readonly perSecond: bigint;
  /** Split by working balances (veBAL boost) rather than by balance. */
  readonly boosted: boolean;
  /** Unix seconds the stream ends (a reward stream); null for inflation that does not end. */
  readonly periodFinish: number | null;
}

export interface GaugeReward {
  /** Lower-case token address. */
  readonly token: string;
  readonly decimals: number;
  /** Smallest units per second. */
  readonly perSecond: bigint;
  /** Unix seconds the current period ends. */
  readonly periodFinish: number;
}

/** A pool's preferential gauge as read from the chain, in on-chain units. */
export interface PoolGauge {
  readonly address: string;
  readonly isKilled: boolean;
  readonly bal: BalEmission;
  /** Staked BPT (wei). */
  readonly totalSupply: bigint;
  /** Sum of working balances (wei); what boosted BAL is divided by. */
  readonly workingSupply: bigint;
  /** Reward tokens other than the BAL above. */
  readonly rewards: readonly GaugeReward[];
}

/**
 * A chain's gauges for one decoration run. `fresh`: pools without a gauge earn nothing from one,
 * pools in `unread` (their gauge could not be read this time) keep their last figures. `stale`: the
 * gauge source failed and every pool keeps its last figures; zeros never replace good data.
 */
export type GaugeData =
  | {
      readonly status: 'fresh';
      /** Lower-case address of BAL on the chain. */
      readonly bal: string;
      /** Pool id -> its preferential gauge. */
      readonly byPool: ReadonlyMap<string, PoolGauge>;
      readonly unread: ReadonlySet<string>;
    }
  | { readonly status: 'stale' };

export interface GaugeAprs {
  readonly stakingApr: AprBreakdown['stakingApr'];
  readonly rewardAprs: AprBreakdown['rewardAprs'];
}

export interface GaugePrices {
  /** USD value of one BPT of the pool; APRs are 0 without it. */
  readonly bptUsd: number | undefined;
  readonly balUsd: number | undefined;
  readonly tokenUsd: (token: string) => number | undefined;
}

export const NO_GAUGE_APRS: GaugeAprs = { stakingApr: { min: 0, max: 0 }, rewardAprs: { total: 0, breakdown: {} } };

const WEI = 1e18;

function bps(fraction: number): number {
  const v = Math.round(fraction * 10_000);
  return Number.isFinite(v) && v > 0 ? v : 0;
}

/** Yearly USD one new BPT earns from `perSecond` (smallest units) of a token, per BPT price. */
function yearlyShare(perSecond: bigint, decimals: number, tokenUsd: number, share: number, bptUsd: number): number {
  return ((Number(perSecond) / 10 ** decimals) * YEAR_SECONDS * tokenUsd * share) / bptUsd;
}

export function gaugeAprs(gauge: PoolGauge, prices: GaugePrices, nowSeconds: number): GaugeAprs {
  const bpt = prices.bptUsd;
  if (bpt === undefined || !(bpt > 0) || !Number.isFinite(bpt)) return NO_GAUGE_APRS;
  const balanceShare = 1 / (Number(gauge.totalSupply) / WEI + 1);

  let stakingApr = { min: 0, max: 0 };
  const bal = gauge.bal;
  const balFlows =
    !gauge.isKilled && bal.perSecond > 0n && (bal.periodFinish === null || bal.periodFinish > nowSeconds);
  if (balFlows && prices.balUsd !== undefined && prices.balUsd > 0) {
    if (bal.boosted) {
      const share = BOOST_FLOOR / (Number(gauge.workingSupply) / WEI + BOOST_FLOOR);
      const min = yearlyShare(bal.perSecond, 18, prices.balUsd, share, bpt);
      stakingApr = { min: bps(min), max: bps(min * MAX_BOOST) };
    } else {
      const apr = bps(yearlyShare(bal.perSecond, 18, prices.balUsd, balanceShare, bpt));
      stakingApr = { min: apr, max: apr };
    }
  }

  const breakdown: Record<string, number> = {};
  let total = 0;
  for (const r of gauge.rewards) {
    if (r.periodFinish <= nowSeconds || r.perSecond <= 0n) continue;
    const usd = prices.tokenUsd(r.token);
    if (usd === undefined || !(usd > 0)) continue;
    const apr = bps(yearlyShare(r.perSecond, r.decimals, usd, balanceShare, bpt));
    if (apr === 0) continue;
    breakdown[r.token] = (breakdown[r.token] ?? 0) + apr;
    total += apr;
  }
  return { stakingApr, rewardAprs: { total, breakdown } };
}
