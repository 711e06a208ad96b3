import { buildSchema, GraphQLSchema } from 'graphql';
import { Contract, formatUnits, Provider } from 'ethers';
import { GAUGES_SUBGRAPH_SDL } from '../../sources/gauges/gaugesSubgraphSdl';
import type { DevnetGauges } from '../gauges';

/**
 * The devnet's gauges subgraph: the gauges subgraph's schema and graph-node's `pools(...)`
 * semantics over entries read from the chain (every gauge the GaugeController lists, its pool,
 * kill state, staked supply and reward tokens). The test fake serves the same shapes.
 */
let schema: GraphQLSchema | undefined;
export function gaugesSubgraphSchema(): GraphQLSchema {
  return (schema ??= buildSchema(GAUGES_SUBGRAPH_SDL));
}

export interface GaugeRewardTokenEntry {
  readonly id: string;
  readonly symbol: string;
  readonly decimals: number;
  readonly totalDeposited: string;
}

export interface GaugePoolEntry {
  /** Pool address. */
  readonly id: string;
  readonly poolId: string | null;
  readonly address: string;
  readonly preferentialGauge: {
    readonly id: string;
    readonly symbol: string;
    readonly poolAddress: string;
    readonly poolId: string | null;
    readonly isKilled: boolean;
    readonly isPreferentialGauge: boolean;
    readonly streamer: string | null;
    readonly totalSupply: string;
    readonly tokens: readonly GaugeRewardTokenEntry[];
  } | null;
}

export interface GaugePoolsArgs {
  readonly first: number;
  readonly skip: number;
  readonly orderBy?: 'id' | 'address' | 'poolId';
  readonly orderDirection?: 'asc' | 'desc';
  readonly where?: Readonly<{
    id?: string;
    id_gt?: string;
    id_in?: readonly string[];
    poolId?: string;
    preferentialGauge?: string | null;
    preferentialGauge_not?: string | null;
  }>;
}

/** graph-node's `pools(...)` over gauge pool entries: filter, order (ties by id), page. Pure. */
export function selectGaugePools(pools: readonly GaugePoolEntry[], args: GaugePoolsArgs): GaugePoolEntry[] {
  if (args.first < 0 || args.first > 1000)
    throw new Error(`The \`first\` argument must be between 0 and 1000, but is ${args.first}`);
  const w = args.where ?? {};
  const has = (k: string) => Object.prototype.hasOwnProperty.call(w, k);
  const gaugeId = (p: GaugePoolEntry) => p.preferentialGauge?.id ?? null;
  const keep = (p: GaugePoolEntry): boolean =>
    (w.id === undefined || p.id === w.id.toLowerCase()) &&
    (w.id_gt === undefined || p.id > w.id_gt.toLowerCase()) &&
    (w.id_in === undefined || w.id_in.map((x) => x.toLowerCase()).includes(p.id)) &&
    (w.poolId === undefined || p.poolId === w.poolId.toLowerCase()) &&
    (!has('preferentialGauge') || gaugeId(p) === (w.preferentialGauge?.toLowerCase() ?? null)) &&
    (!has('preferentialGauge_not') || gaugeId(p) !== (w.preferentialGauge_not?.toLowerCase() ?? null));
  const field = args.orderBy ?? 'id';
  const sign = args.orderDirection === 'desc' ? -1 : 1;
  const key = (p: GaugePoolEntry) => String(p[field] ?? '');
  return pools
    .filter(keep)
    .sort((a, b) => sign * (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(args.skip, args.skip + args.first);
}

/** Resolvers for `gaugesSubgraphSchema()` over a list (nested `tokens(first, skip)` included). */
export function gaugesRootValue(entries: () => Promise<readonly GaugePoolEntry[]>): Record<string, unknown> {
  return {
    pools: async (args: GaugePoolsArgs) =>
      selectGaugePools(await entries(), args).map((p) => ({
        ...p,
        preferentialGauge: p.preferentialGauge && {
          ...p.preferentialGauge,
          tokens: ({ first, skip }: { first: number; skip: number }) =>
            p.preferentialGauge!.tokens.slice(skip, skip + first),
        },
      })),
  };
}

const GAUGE_ABI = [
  'function lp_token() view returns (address)',
  'function symbol() view returns (string)',
  'function is_killed() view returns (bool)',
  'function totalSupply() view returns (uint256)',
  'function reward_count() view returns (uint256)',
  'function reward_tokens(uint256) view returns (address)',
];
const TOKEN_ABI = ['function symbol() view returns (string)', 'function decimals() view returns (uint8)'];

/** Reads the gauge pool entries of a devnet's gauge system from the chain. */
export async function readGaugeEntries(provider: Provider, system: DevnetGauges): Promise<GaugePoolEntry[]> {
  const out: GaugePoolEntry[] = [];
  for (const g of system.gauges) {
    const gauge = new Contract(g.address, GAUGE_ABI, provider);
    const [symbol, isKilled, totalSupply, count] = (await Promise.all([
      gauge.getFunction('symbol')(),
      gauge.getFunction('is_killed')(),
      gauge.getFunction('totalSupply')(),
      gauge.getFunction('reward_count')(),
    ])) as [string, boolean, bigint, bigint];
    const tokens: GaugeRewardTokenEntry[] = [];
    for (let i = 0; i < Number(count); i++) {
      const token = String(await gauge.getFunction('reward_tokens')(i)).toLowerCase();
      const erc20 = new Contract(token, TOKEN_ABI, provider);
      const [tokenSymbol, decimals] = (await Promise.all([
        erc20.getFunction('symbol')(),
        erc20.getFunction('decimals')(),
      ])) as [string, bigint];
      tokens.push({
        id: `${token}-${g.address}`,
        symbol: tokenSymbol,
        decimals: Number(decimals),
        totalDeposited: '0',
      });
    }
    out.push({
      id: g.poolAddress,
      poolId: g.poolId,
      address: g.poolAddress,
      preferentialGauge: {
        id: g.address,
        symbol,
        poolAddress: g.poolAddress,
        poolId: g.poolId,
        isKilled,
        isPreferentialGauge: true,
        streamer: null,
        totalSupply: formatUnits(totalSupply, 18),
        tokens,
      },
    });
  }
  return out;
}
