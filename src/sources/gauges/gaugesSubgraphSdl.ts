/**
 * The part of the Balancer gauges subgraph's schema this service reads: pools with their
 * preferential gauge (the newest gauge the DAO added and did not kill) and the gauge's reward
 * tokens, with graph-node's names and paging. Both local stand-ins (the devnet's endpoint and the
 * test fake) validate queries against it.
 */
export const GAUGES_SUBGRAPH_SDL = /* GraphQL */ `
  scalar BigDecimal
  scalar Bytes

  enum OrderDirection {
    asc
    desc
  }
  enum Pool_orderBy {
    id
    address
    poolId
  }

  input Pool_filter {
    id: ID
    id_gt: ID
    id_in: [ID!]
    poolId: Bytes
    preferentialGauge: String
    preferentialGauge_not: String
  }

  type RewardToken {
    "<token address>-<gauge address>"
    id: ID!
    symbol: String!
    decimals: Int!
    totalDeposited: BigDecimal!
  }

  type LiquidityGauge {
    id: ID!
    symbol: String!
    poolAddress: Bytes!
    poolId: Bytes
    isKilled: Boolean!
    isPreferentialGauge: Boolean!
    streamer: Bytes
    totalSupply: BigDecimal!
    tokens(first: Int = 100, skip: Int = 0): [RewardToken!]
  }

  type Pool {
    id: ID!
    poolId: Bytes
    address: Bytes!
    preferentialGauge: LiquidityGauge
  }

  type Query {
    pools(
      first: Int = 100
      skip: Int = 0
      orderBy: Pool_orderBy
      orderDirection: OrderDirection
      where: Pool_filter
    ): [Pool!]!
  }
`;

/** Pools that have a preferential gauge, by `id` (the pool address) cursor. */
export const PREFERENTIAL_GAUGES_QUERY = /* GraphQL */ `
  query PreferentialGauges($first: Int!, $lastId: ID!) {
    pools(first: $first, orderBy: id, orderDirection: asc, where: { id_gt: $lastId, preferentialGauge_not: null }) {
      id
      poolId
      preferentialGauge {
        id
        isKilled
        tokens(first: 8) {
          id
        }
      }
    }
  }
`;
