import type { ChainGauges } from '../../config/chains';
import type { GaugeData, GaugeReward, PoolGauge } from '../../domain/decoration/gaugeApr';
import type { JsonRpcOptions } from '../rpc/jsonRpc';
import { GaugeChainReading, readGaugesOnChain } from './gaugeChain';
import { GaugesSubgraphClient, GaugesSubgraphOptions } from './gaugesSubgraph';

/**
 * A chain's gauges for the decoration job: which pool has which preferential gauge and reward
 * tokens (gauges subgraph), and what each gauge pays now (the chain's RPC). Throws
 * `UpstreamError` when the subgraph or the node fails as a whole; gauges or entries that could not
 * be read put their pool in `unread` and are named in `problems`.
 */
export type FreshGauges = Extract<GaugeData, { status: 'fresh' }> & {
  readonly problems: readonly string[];
};

/** When the read must be over (unix ms) and how errors name that deadline. */
export interface GaugeReadDeadline {
  readonly at: number;
  readonly label: string;
}

export interface GaugeSource {
  fetch(nowSeconds: number, deadline?: GaugeReadDeadline): Promise<FreshGauges>;
}

export interface GaugeSourceOptions {
  readonly chain: ChainGauges;
  readonly subgraph: GaugesSubgraphOptions;
  readonly rpc: JsonRpcOptions;
}

/** Domain view of one gauge: BAL as inflation (boosted where the gauge has a working supply) or as a reward stream. */
export function toPoolGauge(
  gauge: string,
  isKilled: boolean,
  reading: GaugeChainReading,
  bal: string,
  decimals: ReadonlyMap<string, number>,
): PoolGauge | string {
  const rewards: GaugeReward[] = [];
  let balStream: { perSecond: bigint; periodFinish: number } | undefined;
  for (const r of reading.rewards) {
    if (r.token === bal && reading.balPerSecond === null) {
      balStream = r;
      continue;
    }
    const d = decimals.get(r.token);
    if (d === undefined) return `decimals of reward token ${r.token} unreadable`;
    rewards.push({ token: r.token, decimals: d, perSecond: r.perSecond, periodFinish: r.periodFinish });
  }
  const balEmission =
    reading.balPerSecond !== null
      ? { perSecond: reading.balPerSecond, boosted: reading.workingSupply !== null, periodFinish: null }
      : { perSecond: balStream?.perSecond ?? 0n, boosted: false, periodFinish: balStream?.periodFinish ?? null };
  return {
    address: gauge,
    isKilled,
    bal: balEmission,
    totalSupply: reading.totalSupply,
    workingSupply: reading.workingSupply ?? reading.totalSupply,
    rewards,
  };
}

export class BalancerGaugeSource implements GaugeSource {
  private readonly subgraph: GaugesSubgraphClient;

  constructor(private readonly options: GaugeSourceOptions) {
    this.subgraph = new GaugesSubgraphClient(options.subgraph);
  }

  async fetch(nowSeconds: number, deadline?: GaugeReadDeadline): Promise<FreshGauges> {
    const { chain } = this.options;
    const listed = await this.subgraph.fetchPreferentialGauges(deadline?.at, deadline?.label);
    // The node's batches share the run's deadline with the subgraph: retries stop at it.
    const rpc = deadline
      ? {
          ...this.options.rpc,
          retry: { ...this.options.rpc.retry, deadline: deadline.at, deadlineLabel: deadline.label },
        }
      : this.options.rpc;
    const problems: string[] = listed.skipped.map(
      (s) => `gauges subgraph entry${s.poolId ? ` for pool ${s.poolId}` : ''} skipped: ${s.reason}`,
    );
    const unread = new Set<string>(listed.skipped.flatMap((s) => (s.poolId ? [s.poolId] : [])));
    const reads = await readGaugesOnChain(rpc, chain.emissions, listed.gauges, nowSeconds);
    const byPool = new Map<string, PoolGauge>();
    for (const g of listed.gauges) {
      const reading = reads.readings.get(g.gauge);
      const gauge = reading
        ? toPoolGauge(g.gauge, g.isKilled, reading, chain.bal, reads.decimals)
        : (reads.unread.get(g.gauge) ?? 'not read');
      if (typeof gauge === 'string') {
        unread.add(g.poolId);
        problems.push(`gauge ${g.gauge} of pool ${g.poolId}: ${gauge}`);
      } else {
        byPool.set(g.poolId, gauge);
      }
    }
    return { status: 'fresh', bal: chain.bal, byPool, unread, problems };
  }
}
