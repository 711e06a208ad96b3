import type { ParamField } from '../../domain/poolTypes/paramField';
import { registryVersion, storedFields } from '../../domain/poolTypes/registry';

/**
 * The part of the Balancer V2 subgraph's GraphQL schema this service reads: `pools`, `pool` and
 * `_meta`, with graph-node's names (`Pool`, `PoolToken`, `Pool_filter`, `Pool_orderBy`) and paging
 * arguments (`first` <= 1000, `skip`, `orderBy`, `orderDirection`). Both local stand-ins for the
 * subgraph (the devnet's indexing endpoint and the test fake) validate queries against it, so a
 * field or argument the real subgraph would refuse fails here too. Output fields are nullable
 * because pool files (the mainnet snapshot) leave some out. `Pool` declares every registered pool
 * type's own parameters (`domain/poolTypes/<family>/<type>Params.ts`) after the fields every pool has,
 * `PoolToken` their token parameters after the fields every token has.
 */
export function subgraphSdl(): string {
  if (cached?.version !== registryVersion())
    cached = { version: registryVersion(), sdl: sdlFor(storedFields().subgraph, storedFields().tokenSubgraph) };
  return cached.sdl;
}

let cached: { version: number; sdl: string } | undefined;

function sdlFor(params: readonly ParamField[], tokenParams: readonly ParamField[]): string {
  const typeFields = params.map((f) => `${f.name}: ${f.subgraph}`).join('\n    ');
  const tokenFields = tokenParams.map((f) => `${f.name}: ${f.subgraph}`).join('\n    ');
  return /* GraphQL */ `
  scalar BigDecimal
  scalar BigInt
  scalar Bytes

  enum OrderDirection {
    asc
    desc
  }
  enum Pool_orderBy {
    id
    address
    poolType
    totalShares
    totalLiquidity
    totalSwapVolume
    createTime
  }

  input Pool_filter {
    id: ID
    id_gt: ID
    id_lt: ID
    id_in: [ID!]
    address: Bytes
    address_in: [Bytes!]
    poolType: String
    poolType_in: [String!]
    poolType_not_in: [String!]
    swapEnabled: Boolean
    totalShares_gt: BigDecimal
    totalLiquidity_gt: BigDecimal
    _change_block: BlockChangedFilter
  }

  input BlockChangedFilter {
    number_gte: Int!
  }

  type PoolToken {
    id: ID
    address: String
    symbol: String
    name: String
    decimals: Int
    balance: BigDecimal
    weight: BigDecimal
    priceRate: BigDecimal
    ${tokenFields}
  }

  type PriceRateProvider {
    address: Bytes
    token: PoolToken
  }

  type Pool {
    id: ID!
    address: Bytes
    poolType: String
    poolTypeVersion: Int
    factory: Bytes
    owner: Bytes
    symbol: String
    name: String
    swapFee: BigDecimal
    swapEnabled: Boolean
    isPaused: Boolean
    isInRecoveryMode: Boolean
    amp: BigInt
    totalShares: BigDecimal
    totalWeight: BigDecimal
    totalSwapVolume: BigDecimal
    totalSwapFee: BigDecimal
    totalLiquidity: BigDecimal
    createTime: Int
    swapsCount: BigInt
    holdersCount: BigInt
    tokensList: [Bytes!]
    tokens: [PoolToken!]
    priceRateProviders: [PriceRateProvider!]
    ${typeFields}
  }

  type _Block_ {
    number: Int!
    hash: Bytes
    timestamp: Int
  }
  type _Meta_ {
    block: _Block_!
    deployment: String!
    hasIndexingErrors: Boolean!
  }

  type Query {
    pools(
      first: Int = 100
      skip: Int = 0
      orderBy: Pool_orderBy
      orderDirection: OrderDirection
      where: Pool_filter
    ): [Pool!]!
    pool(id: ID!): Pool
    _meta: _Meta_
  }
`;
}
