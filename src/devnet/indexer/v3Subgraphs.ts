import { buildSchema, GraphQLSchema } from 'graphql';
import { formatUnits } from 'ethers';
import { compareDecimal, toPlainDecimal } from '../../domain/decimal';
import { devnetPoolType, poolTypeDefs, protocolOfDef, registryVersion } from '../../domain/poolTypes/registry';
import type { OnchainV3Pool } from './onchainV3Pools';

/**
 * The devnet's two Balancer V3 subgraphs over pools read from the chain (`onchainV3Pools.ts`): the
 * `balancer-v3-vault` subgraph's pools (tokens in the Vault's order, balances, rates, rate
 * providers, hooks, liquidity flags) and the `balancer-v3-pools` subgraph's types and parameters,
 * in the names and shapes the service's V3 catalogue asks for (`sources/subgraph/v3/v3Catalogue.ts`).
 * Like the devnet's V2 subgraph, it reads the head, so `_change_block` answers every pool.
 */

const VAULT_SDL = `
scalar Bytes
scalar BigDecimal
scalar BigInt
input BlockChangedFilter { number_gte: Int! }
input Pool_filter { id: Bytes, id_gt: Bytes, id_in: [Bytes!], totalShares_gt: BigDecimal, _change_block: BlockChangedFilter }
enum Pool_orderBy { id }
enum OrderDirection { asc desc }
type Hook { id: Bytes! address: Bytes! }
type HookConfig {
  hook: Hook!
  enableHookAdjustedAmounts: Boolean!
  shouldCallComputeDynamicSwapFee: Boolean!
  shouldCallBeforeSwap: Boolean!
  shouldCallAfterSwap: Boolean!
  shouldCallBeforeAddLiquidity: Boolean!
  shouldCallAfterAddLiquidity: Boolean!
  shouldCallBeforeRemoveLiquidity: Boolean!
  shouldCallAfterRemoveLiquidity: Boolean!
}
type LiquidityManagement { disableUnbalancedLiquidity: Boolean! }
type PoolToken {
  id: Bytes! address: Bytes! index: Int! name: String! symbol: String! decimals: Int! balance: BigDecimal!
  priceRate: BigDecimal! paysYieldFees: Boolean!
}
type RateProvider { id: Bytes! address: Bytes! token: PoolToken! }
type Pool {
  id: Bytes! address: Bytes! name: String! symbol: String! factory: Bytes! swapFee: BigDecimal!
  totalShares: BigDecimal! blockTimestamp: BigInt! swapsCount: BigInt! holdersCount: BigInt!
  tokens: [PoolToken!]! rateProviders: [RateProvider!]! hookConfig: HookConfig liquidityManagement: LiquidityManagement!
}
type _Block_ { number: Int! hash: Bytes timestamp: Int }
type _Meta_ { block: _Block_! deployment: String! hasIndexingErrors: Boolean! }
type Query {
  pools(first: Int = 100, skip: Int = 0, orderBy: Pool_orderBy, orderDirection: OrderDirection, where: Pool_filter): [Pool!]!
  pool(id: Bytes!): Pool
  _meta: _Meta_
}`;

/**
 * The pools subgraph's schema: the weighted and stable parameters the devnet's pools have, and an
 * entity for every other registered V3 type's parameters with the fields its definition asks for
 * (the catalogue selects them all; the devnet has no such pool, so they answer null).
 */
function poolsSdl(): string {
  const entities = new Map<string, Set<string>>();
  for (const def of poolTypeDefs())
    if (protocolOfDef(def) === 3 && def.paramsEntity !== undefined) {
      const fields = entities.get(def.paramsEntity) ?? new Set<string>();
      for (const f of def.params) fields.add(f.name);
      entities.set(def.paramsEntity, fields);
    }
  entities.delete('weightedParams');
  entities.delete('stableParams');
  const typeName = (entity: string) => `${entity[0]!.toUpperCase()}${entity.slice(1)}Entity`;
  const types = [...entities].map(
    ([entity, fields]) => `type ${typeName(entity)} { id: Bytes ${[...fields].map((f) => `${f}: Value`).join(' ')} }`,
  );
  return `
scalar Bytes
scalar BigDecimal
scalar BigInt
"A parameter as the subgraph stores it (a decimal, an integer or a list of them)."
scalar Value
input Pool_filter { id: Bytes, id_in: [Bytes!] }
type Factory { id: Bytes! type: String! version: Int! }
type WeightedParams { weights: [BigDecimal!]! }
type StableParams { amp: BigInt! }
${types.join('\n')}
type Pool {
  id: Bytes! address: Bytes! factory: Factory! weightedParams: WeightedParams stableParams: StableParams
  ${[...entities.keys()].map((e) => `${e}: ${typeName(e)}`).join(' ')}
}
type _Block_ { number: Int! }
type _Meta_ { block: _Block_! }
type Query {
  pools(first: Int = 100, skip: Int = 0, where: Pool_filter): [Pool!]!
  _meta: _Meta_
}`;
}

let schemas: { version: number; vault: GraphQLSchema; pools: GraphQLSchema } | undefined;
export function v3SubgraphSchemas(): { vault: GraphQLSchema; pools: GraphQLSchema } {
  if (schemas?.version !== registryVersion())
    schemas = { version: registryVersion(), vault: buildSchema(VAULT_SDL), pools: buildSchema(poolsSdl()) };
  return schemas;
}

/** A raw amount as graph-node serves a BigDecimal: plain, no trailing zeros. */
const decimal = (amount: bigint, decimals: number): string => toPlainDecimal(formatUnits(amount, decimals));

const ZERO_ADDRESS = /^0x0{40}$/;

/** The `balancer-v3-vault` subgraph's pool. */
export function toV3VaultPool(pool: OnchainV3Pool): Record<string, unknown> & { id: string } {
  const tokens = pool.tokens.map((t) => ({
    id: `${pool.address}-${t.address}`,
    address: t.address,
    index: t.index,
    name: t.name,
    symbol: t.symbol,
    decimals: t.decimals,
    balance: decimal(t.balance, t.decimals),
    priceRate: decimal(t.rate, 18),
    paysYieldFees: t.paysYieldFees,
  }));
  const h = pool.hooks;
  return {
    id: pool.address,
    address: pool.address,
    name: pool.name,
    symbol: pool.symbol,
    factory: pool.factory,
    swapFee: decimal(pool.swapFee, 18),
    totalShares: decimal(pool.totalSupply, 18),
    blockTimestamp: String(pool.registeredAt),
    swapsCount: '0',
    holdersCount: '0',
    tokens,
    rateProviders: pool.tokens.flatMap((t, i) =>
      ZERO_ADDRESS.test(t.rateProvider)
        ? []
        : [{ id: `${pool.address}-${t.address}`, address: t.rateProvider, token: tokens[i]! }],
    ),
    hookConfig: ZERO_ADDRESS.test(h.address)
      ? null
      : {
          hook: { id: h.address, address: h.address },
          enableHookAdjustedAmounts: h.enableHookAdjustedAmounts,
          shouldCallComputeDynamicSwapFee: h.shouldCallComputeDynamicSwapFee,
          shouldCallBeforeSwap: h.shouldCallBeforeSwap,
          shouldCallAfterSwap: h.shouldCallAfterSwap,
          shouldCallBeforeAddLiquidity: h.shouldCallBeforeAddLiquidity,
          shouldCallAfterAddLiquidity: h.shouldCallAfterAddLiquidity,
          shouldCallBeforeRemoveLiquidity: h.shouldCallBeforeRemoveLiquidity,
          shouldCallAfterRemoveLiquidity: h.shouldCallAfterRemoveLiquidity,
        },
    liquidityManagement: { disableUnbalancedLiquidity: pool.disableUnbalancedLiquidity },
  };
}

/** The pools subgraph's type name of the pools the devnet's V3 factory of `kind` creates. */
function typeName(kind: OnchainV3Pool['kind']): string {
  if (kind === 'weighted') return 'Weighted';
  if (kind === 'stable') return 'Stable';
  // The token sales: the name their registered definitions give the devnet's kinds.
  return devnetPoolType(kind);
}

/** The `balancer-v3-pools` subgraph's pool: its factory's type and version, its parameters. */
export function toV3TypePool(pool: OnchainV3Pool): Record<string, unknown> & { id: string } {
  return {
    id: pool.address,
    address: pool.address,
    factory: { id: pool.factory, type: typeName(pool.kind), version: 1 },
    weightedParams: pool.weights ? { weights: pool.weights.map((w) => decimal(w, 18)) } : null,
    stableParams: pool.amp !== null ? { amp: pool.amp.toString() } : null,
  };
}

interface V3Where {
  readonly id?: string;
  readonly id_gt?: string;
  readonly id_in?: readonly string[];
  readonly totalShares_gt?: string;
}

export interface V3PoolsArgs {
  readonly first: number;
  readonly skip: number;
  readonly orderDirection?: 'asc' | 'desc';
  readonly where?: V3Where;
}

/** graph-node's `pools(...)` over rows keyed by id: filter, order by id, page. Pure. */
export function selectV3Rows<R extends { id: string; totalShares?: unknown }>(
  rows: readonly R[],
  args: V3PoolsArgs,
): R[] {
  if (args.first < 0 || args.first > 1000)
    throw new Error(`The \`first\` argument must be between 0 and 1000, but is ${args.first}`);
  const w = args.where ?? {};
  const idIn = w.id_in?.map((x) => x.toLowerCase());
  const kept = rows.filter(
    (r) =>
      (w.id === undefined || r.id === w.id.toLowerCase()) &&
      (w.id_gt === undefined || r.id > w.id_gt.toLowerCase()) &&
      (idIn === undefined || idIn.includes(r.id)) &&
      (w.totalShares_gt === undefined || compareDecimal(String(r.totalShares ?? '0'), w.totalShares_gt) > 0),
  );
  const sign = args.orderDirection === 'desc' ? -1 : 1;
  return kept.sort((a, b) => sign * (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(args.skip, args.skip + args.first);
}
