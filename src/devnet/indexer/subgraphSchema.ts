import { buildSchema, GraphQLSchema } from 'graphql';
import { compareDecimal } from '../../domain/decimal';
import { subgraphSdl } from '../../sources/subgraph/subgraphSdl';

/** The devnet's indexing endpoint: the subgraph's schema and graph-node's `pools(...)` semantics. */
let built: { sdl: string; schema: GraphQLSchema } | undefined;
export function subgraphSchema(): GraphQLSchema {
  const sdl = subgraphSdl();
  if (built?.sdl !== sdl) built = { sdl, schema: buildSchema(sdl) };
  return built.schema;
}

export type SubgraphPool = Readonly<Record<string, unknown>> & { readonly id: string };

export interface PoolsArgs {
  readonly first: number;
  readonly skip: number;
  readonly orderBy?: string;
  readonly orderDirection?: 'asc' | 'desc';
  readonly where?: Readonly<{
    id?: string;
    id_gt?: string;
    id_lt?: string;
    id_in?: readonly string[];
    address?: string;
    address_in?: readonly string[];
    poolType?: string;
    poolType_in?: readonly string[];
    poolType_not_in?: readonly string[];
    swapEnabled?: boolean;
    totalShares_gt?: string;
    totalLiquidity_gt?: string;
  }>;
}

export class SubgraphQueryError extends Error {
  override readonly name: string = 'SubgraphQueryError';
}

const DECIMAL_ORDER = new Set(['totalShares', 'totalLiquidity', 'totalSwapVolume']);

function compareBy(field: string): (a: SubgraphPool, b: SubgraphPool) => number {
  return (a, b) => {
    const x = a[field];
    const y = b[field];
    if (DECIMAL_ORDER.has(field)) return compareDecimal(String(x ?? '0'), String(y ?? '0'));
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    const sx = String(x ?? '');
    const sy = String(y ?? '');
    return sx < sy ? -1 : sx > sy ? 1 : 0;
  };
}

/**
 * graph-node's `pools(...)` semantics over a list of pools: filter, order (ties by id), page. Pure.
 * `_change_block` is not applied: this index reads the chain at the head, so any pool may have
 * changed since any block, and it answers every pool (a pool update then diffs them all).
 */
export function selectPools(pools: readonly SubgraphPool[], args: PoolsArgs): SubgraphPool[] {
  if (args.first < 0 || args.first > 1000)
    throw new SubgraphQueryError(`The \`first\` argument must be between 0 and 1000, but is ${args.first}`);
  if (args.skip < 0 || args.skip > 5000)
    throw new SubgraphQueryError(`The \`skip\` argument must be between 0 and 5000, but is ${args.skip}`);
  const w = args.where ?? {};
  const lower = (xs: readonly string[] | undefined) => xs?.map((x) => x.toLowerCase());
  const idIn = lower(w.id_in);
  const addressIn = lower(w.address_in);
  const keep = (p: SubgraphPool): boolean =>
    (w.id === undefined || p.id === w.id.toLowerCase()) &&
    (w.id_gt === undefined || p.id > w.id_gt.toLowerCase()) &&
    (w.id_lt === undefined || p.id < w.id_lt.toLowerCase()) &&
    (idIn === undefined || idIn.includes(p.id)) &&
    (w.address === undefined || p.address === w.address.toLowerCase()) &&
    (addressIn === undefined || addressIn.includes(String(p.address))) &&
    (w.poolType === undefined || p.poolType === w.poolType) &&
    (w.poolType_in === undefined || w.poolType_in.includes(String(p.poolType))) &&
    (w.poolType_not_in === undefined || !w.poolType_not_in.includes(String(p.poolType))) &&
    (w.swapEnabled === undefined || p.swapEnabled === w.swapEnabled) &&
    (w.totalShares_gt === undefined || compareDecimal(String(p.totalShares ?? '0'), String(w.totalShares_gt)) > 0) &&
    (w.totalLiquidity_gt === undefined ||
      compareDecimal(String(p.totalLiquidity ?? '0'), String(w.totalLiquidity_gt)) > 0);
  const byField = compareBy(args.orderBy ?? 'id');
  const byId = compareBy('id');
  const sign = args.orderDirection === 'desc' ? -1 : 1;
  const sorted = pools.filter(keep).sort((a, b) => sign * (byField(a, b) || byId(a, b)));
  return sorted.slice(args.skip, args.skip + args.first);
}
