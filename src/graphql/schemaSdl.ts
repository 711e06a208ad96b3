import { OPERATORS_BY_KIND } from './poolFilter';
import { graphqlParamFields, poolFilterFields, type FieldKind, type GraphqlParamField } from './poolFields';

/**
 * The schema, in the names of the deprecated AppSync API (Pool, PoolToken, PoolConnection,
 * TablePoolsFilterInput, `pools(... nextToken)`) so existing front-end queries keep working.
 * The pools filter input is generated from the field catalogue in poolFields.ts, and the pool
 * types' own parameters (those their folders declare with `graphql`) from the registry.
 */

const types = (params: string): string => /* GraphQL */ `
  "Any JSON value (the per-token and per-reward APR maps)."
  scalar JSON

  type Query {
    """
    Pools of a chain, filtered by \`where\`, ordered by \`orderBy\` (totalLiquidity, volume, apr, any
    numeric Pool field, or the APR parts stakingAprMin, stakingAprMax, rewardAprsTotal; default
    totalLiquidity) in \`orderDirection\` (desc or asc; default desc).
    \`first\` defaults to 100, at most 1000. Pass the returned \`nextToken\` to get the next page.
    """
    pools(
      first: Int
      chainId: Int!
      where: TablePoolsFilterInput
      orderBy: String
      orderDirection: String
      nextToken: String
    ): PoolConnection
    "One pool by id; null when the chain has no such pool."
    pool(chainId: Int!, id: String!): Pool
    "Every known token of a chain with its latest prices."
    tokens(chainId: Int!): [Token]
    "How many pools match \`where\`."
    poolsCount(chainId: Int!, where: TablePoolsFilterInput): Int
  }

  type PoolConnection {
    pools: [Pool]
    "Opaque cursor of the next page; null on the last page."
    nextToken: String
  }

  type Pool {
    chainId: Int!
    id: String!
    address: String
    poolType: String
    poolTypeVersion: Int
    "The Balancer protocol whose Vault holds the pool (2 or 3)."
    protocolVersion: Int
    factory: String
    symbol: String
    name: String
    swapEnabled: Boolean
    swapFee: String
    owner: String
    tokens: [PoolToken]
    tokensList: [String]
    totalWeight: String
    totalSwapVolume: String
    totalSwapFee: String
    "USD; the subgraph's figure until the decoration job has computed ours."
    totalLiquidity: String
    totalShares: String
    "USD volume of the last 24 hours."
    volumeSnapshot: String
    "USD fees of the last 24 hours."
    feesSnapshot: String
    createTime: Int
    swapsCount: String
    holdersCount: String
    amp: String
${params}
    apr: AprBreakdown
    maxApr: Float
    isNew: Boolean
    isInRecoveryMode: Boolean
    isPaused: Boolean
    priceRateProviders: [PriceRateProvider]
    "False for a pool routes leave out whatever the trade: one with no balance, or a V3 pool whose type or hook the service cannot price exactly."
    routable: Boolean
    "Why a V3 pool is not routable (an unknown hook, a type not carried, a setting missing); null otherwise."
    unroutableReason: String
  }

  type PoolToken {
    "<pool id>-<token address>"
    id: String
    symbol: String
    name: String
    decimals: Int
    address: String
    priceRate: String
    balance: String
    weight: String
    token: Token
  }

  type Token {
    chainId: Int
    address: String!
    symbol: String
    name: String
    decimals: Int
    "Price of one token in the chain's native asset."
    price: String
    priceUsd: String
    "Unix milliseconds of the last price update."
    lastUpdate: Float
    noPriceData: Boolean
    "Same as priceUsd (the subgraph's name)."
    latestUSDPrice: String
    "The pool whose BPT this token is; null for ordinary tokens."
    pool: Pool
  }

  type PriceRateProvider {
    address: String
    token: PriceRateProviderToken
  }

  type PriceRateProviderToken {
    address: String
  }

  "APRs as fractions (0.05 = 5%)."
  type AprBreakdown {
    swapFees: Float
    tokenAprs: AprTotalBreakdown
    stakingApr: AprRange
    rewardAprs: AprTotalBreakdown
    protocolApr: Float
    min: Float
    max: Float
  }

  type AprTotalBreakdown {
    total: Float
    "Token address -> APR."
    breakdown: JSON
  }

  type AprRange {
    min: Float
    max: Float
  }
`;

/** GraphQL input type per field kind; the operator lists come from the filter compiler. */
const FILTER_INPUTS: Readonly<Record<FieldKind, { name: string; scalar: string; description: string }>> = {
  id: { name: 'TableIDFilterInput', scalar: 'ID', description: 'Ids and addresses, compared case-insensitively.' },
  string: { name: 'TableStringFilterInput', scalar: 'String', description: 'Text, compared case-sensitively.' },
  decimal: {
    name: 'TableFloatFilterInput',
    scalar: 'Float',
    description: 'Numbers (exact decimal comparison for fields stored as decimal text).',
  },
  float: { name: 'TableFloatFilterInput', scalar: 'Float', description: '' },
  int: { name: 'TableIntFilterInput', scalar: 'Int', description: 'Integers.' },
  boolean: { name: 'TableBooleanFilterInput', scalar: 'Boolean', description: 'true or false.' },
  idList: {
    name: 'TableStringListFilterInput',
    scalar: 'String',
    description: 'Lists of addresses: contains = all listed present, notContains = none present.',
  },
};

const LIST_OPERATORS = new Set(['between', 'in', 'not_in']);

function filterInputSdl(kind: FieldKind): string {
  const { name, scalar, description } = FILTER_INPUTS[kind];
  const fields = OPERATORS_BY_KIND[kind].map(
    (op) => `  ${op}: ${LIST_OPERATORS.has(op) || kind === 'idList' ? `[${scalar}]` : scalar}`,
  );
  return `${description ? `"${description}"\n` : ''}input ${name} {\n${fields.join('\n')}\n}`;
}

function poolsFilterSdl(): string {
  const fields = [...poolFilterFields()].map(([field, kind]) => `  ${field}: ${FILTER_INPUTS[kind].name}`);
  return `"Filters on Pool fields; all given conditions must hold."\ninput TablePoolsFilterInput {\n${fields.join('\n')}\n}`;
}

function paramSdl({ name, scalar, description }: GraphqlParamField): string {
  return `${description ? `    ${JSON.stringify(description)}\n` : ''}    ${name}: ${scalar}`;
}

export function schemaSdl(): string {
  const kinds: FieldKind[] = ['id', 'string', 'decimal', 'int', 'boolean', 'idList'];
  return [types(graphqlParamFields().map(paramSdl).join('\n')), ...kinds.map(filterInputSdl), poolsFilterSdl()].join(
    '\n\n',
  );
}
