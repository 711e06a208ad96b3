import { BALANCER_API_CHAINS } from '../config/chains';
import { CONCRETE_POOL_TYPES } from './currentApiPool';

/** The fields every `GqlPoolBase` type has here. */
const POOL_BASE_FIELDS = `
    "The pool id: a V2 pool's 32-byte id, a V3 pool's address."
    id: ID!
    chain: GqlChain!
    vaultVersion: Int! @deprecated(reason: "use protocolVersion instead")
    protocolVersion: Int!
    type: GqlPoolType!
    name: String!
    symbol: String!
    address: Bytes!
    decimals: Int!
    owner: Bytes
    factory: Bytes
    createTime: Int!
    version: Int!
    "The pool's tokens in the Vault's order, with a nested pool's tokens one level deep."
    poolTokens: [GqlPoolTokenDetail!]!
    dynamicData: GqlPoolDynamicData!`;

/**
 * The current Balancer API's queries this service serves, in its names (balancer/backend's
 * `apps/api/gql/schema/sor.gql` and the types it uses), beside the deprecated dialect of
 * `schemaSdl.ts`. The SDK's and CoW's query documents validate against it unchanged. Two
 * differences, both invisible to those documents: a path token is `GqlSorPathToken` (the
 * deprecated dialect owns `Token`), and a route hop's deprecated `pool` is null for a buffer step.
 * `blockNumber` is this service's own field.
 */
export function currentApiSdl(): string {
  return /* GraphQL */ `
  "An amount in the token's own units (human form), as a decimal string: \\"1.5\\"."
  scalar AmountHumanReadable
  "A decimal number as a string."
  scalar BigDecimal
  "An integer as a string."
  scalar BigInt
  "Hex bytes (an address, a pool id) as a string."
  scalar Bytes

  "The current Balancer API's chain names; HARDHAT is the local devnet (31337)."
  enum GqlChain {
${Object.keys(BALANCER_API_CHAINS)
  .map((name) => `    ${name}`)
  .join('\n')}
  }

  enum GqlSorSwapType {
    EXACT_IN
    EXACT_OUT
  }

  extend type Query {
    """
    The best swap between two tokens from this service's exact V2 and V3 engines at the chain's
    head (the current Balancer API's routing query). Without useProtocolVersion, the better of both
    Vaults for the user. No route is an answer with no paths and zero amounts, priceImpact.error saying why.
    """
    sorGetSwapPaths(
      "The chain to query."
      chain: GqlChain!
      "Token address of the tokenIn."
      tokenIn: String!
      "Token address of the tokenOut."
      tokenOut: String!
      "EXACT_IN (swapAmount is what is paid) or EXACT_OUT (swapAmount is what is received)."
      swapType: GqlSorSwapType!
      "The amount to swap, in human form."
      swapAmount: AmountHumanReadable!
      "Ignored: amounts are always the chain's exact state at the answer's blockNumber."
      queryBatchSwap: Boolean @deprecated(reason: "Use Balancer SDK to query on-chain amounts from SOR response")
      "2 or 3 for one Vault; absent: the better of both."
      useProtocolVersion: Int
      "Whether V3 pools with hooks may be routed through; default false."
      considerPoolsWithHooks: Boolean
      "Route only through these pools (V2 pool ids, V3 pool addresses)."
      poolIds: [String!]
      "Adds callData: the transaction /order builds for this route."
      callDataInput: GqlSwapCallDataInput
        @deprecated(reason: "Use Balancer SDK to build swap callData from SOR response")
    ): GqlSorGetSwapPaths!
    "One pool as the chain's state has it. An id the chain does not have is an error naming it."
    poolGetPool(
      id: String!
      chain: GqlChain
      "Checked, then unused: the pool carries no per-user fields."
      userAddress: String
    ): GqlPoolBase!
    "Tokens of the given chains, optionally only those listed (any case)."
    tokenGetTokens(chains: [GqlChain!]!, where: GqlTokenFilter): [GqlToken!]!
  }

  interface GqlPoolBase {${POOL_BASE_FIELDS}
  }

${CONCRETE_POOL_TYPES.map((t) => `  type ${t} implements GqlPoolBase {${POOL_BASE_FIELDS}\n  }`).join('\n\n')}

  "A pool token."
  type GqlPoolTokenDetail {
    id: ID!
    "The token's index in the Vault's token order."
    index: Int!
    address: String!
    name: String!
    symbol: String!
    decimals: Int!
    "Human units."
    balance: BigDecimal!
    priceRate: BigDecimal!
    weight: BigDecimal
    hasNestedPool: Boolean!
    "The pool whose BPT this token is (one level deep); the pool's own BPT too."
    nestedPool: GqlNestedPool
    "An ERC-4626 token the V3 Vault has a buffer for."
    isErc4626: Boolean!
    "Its underlying token, for an ERC-4626 token with a buffer."
    underlyingToken: GqlToken
  }

  type GqlNestedPool {
    id: ID!
    address: Bytes!
    type: GqlPoolType!
    tokens: [GqlPoolTokenDetail!]!
  }

  type GqlPoolDynamicData {
    poolId: ID!
    swapFee: BigDecimal!
    "Protocol and pool creator fees combined (V3)."
    aggregateSwapFee: BigDecimal!
    aggregateYieldFee: BigDecimal!
    swapEnabled: Boolean!
    "Human units."
    totalShares: BigDecimal!
    totalSupply: BigDecimal!
    "USD; 0 before the decoration job has computed it."
    totalLiquidity: BigDecimal!
    isInRecoveryMode: Boolean!
    isPaused: Boolean!
  }

  "A token, as the current API describes it."
  type GqlToken {
    address: String!
    name: String!
    symbol: String!
    decimals: Int!
    chainId: Int!
    chain: GqlChain!
    priority: Int!
    tradable: Boolean!
    "An ERC-4626 token the V3 Vault has a buffer for (the ERC-4626 tokens this service knows)."
    isErc4626: Boolean!
    underlyingTokenAddress: String
    isBufferAllowed: Boolean!
  }

  enum GqlTokenType {
    WHITE_LISTED @deprecated(reason: "Use BLOCKED instead")
    BLOCKED_V2
    BLOCKED_V3
    BPT
    PHANTOM_BPT
    ERC4626
  }

  input GqlTokenFilter {
    "Only these addresses."
    tokensIn: [String!]
    "Only tokens of these types (BPT, PHANTOM_BPT, ERC4626; the block lists are not served)."
    typeIn: [GqlTokenType!]
  }

  "The swap paths for a swap."
  type GqlSorGetSwapPaths {
    vaultVersion: Int! @deprecated(reason: "Use protocolVersion instead")
    "The Vault these paths go through: 2 or 3."
    protocolVersion: Int!
    tokenIn: String!
    tokenOut: String!
    swapType: GqlSorSwapType!
    "The route as one Vault batchSwap (for a V3 answer, pool ids are pool addresses)."
    swaps: [GqlSorSwap!]!
    "The batchSwap's assets."
    tokenAddresses: [String!]!
    "The paths, as the Balancer SDK and the V3 BatchRouter take them."
    paths: [GqlSorPath!]!
    tokenInAmount: AmountHumanReadable!
    tokenOutAmount: AmountHumanReadable!
    swapAmount: AmountHumanReadable!
    swapAmountRaw: BigDecimal!
    returnAmount: AmountHumanReadable!
    returnAmountRaw: BigDecimal!
    "The price of tokenOut in tokenIn."
    effectivePrice: AmountHumanReadable!
    "The price of tokenIn in tokenOut."
    effectivePriceReversed: AmountHumanReadable!
    routes: [GqlSorSwapRoute!]!
    priceImpact: GqlPriceImpact!
    callData: GqlSorCallData @deprecated(reason: "Use Balancer SDK to build swap callData from SOR response")
    "The block whose chain state the answer was read at; null where the chain's head is not followed."
    blockNumber: Int
  }

  "A path of a swap, as the Balancer SDK and the V3 BatchRouter take it."
  type GqlSorPath {
    vaultVersion: Int! @deprecated(reason: "Use protocolVersion instead")
    protocolVersion: Int!
    "The path's pools in order (a buffer step names its ERC-4626 token)."
    pools: [String!]!
    "Per pool: whether the step is a V3 buffer."
    isBuffer: [Boolean!]!
    "The path's tokens in order (one more than pools)."
    tokens: [GqlSorPathToken!]!
    outputAmountRaw: String!
    inputAmountRaw: String!
  }

  type GqlSorPathToken {
    address: String!
    decimals: Int!
  }

  "The price impact of the swap; null with error set when it cannot be computed."
  type GqlPriceImpact {
    "As a fraction: 0.01 is 1 %."
    priceImpact: AmountHumanReadable
    error: String
  }

  type GqlSorCallData {
    callData: String!
    to: String!
    value: BigDecimal!
    minAmountOutRaw: String
    maxAmountInRaw: String
  }

  "Inputs for the swap transaction (as /order's body)."
  input GqlSwapCallDataInput {
    "The max slippage in percent: 0.5 is 0.5 %."
    slippagePercentage: String!
    "Unix seconds; default now + 1 hour."
    deadline: Int
    sender: String!
    "Must be the sender for a Balancer V3 route (its routers pay the sender)."
    receiver: String!
  }

  "A step of the route as the V2 Vault's batchSwap takes it."
  type GqlSorSwap {
    poolId: String!
    assetInIndex: Int!
    assetOutIndex: Int!
    "The step's amount; 0 continues from the previous step's."
    amount: String!
    userData: String!
  }

  type GqlSorSwapRoute {
    tokenIn: String!
    tokenInAmount: AmountHumanReadable!
    tokenOut: String!
    tokenOutAmount: AmountHumanReadable!
    "The route's share of the swap amount."
    share: Float!
    hops: [GqlSorSwapRouteHop!]!
  }

  type GqlSorSwapRouteHop {
    tokenIn: String!
    tokenInAmount: AmountHumanReadable!
    tokenOut: String!
    tokenOutAmount: AmountHumanReadable!
    poolId: String!
    "The hop's pool; null for a buffer step."
    pool: GqlPoolMinimal @deprecated
  }

  "The fields of a pool this service holds."
  type GqlPoolMinimal {
    id: ID!
    chain: GqlChain!
    vaultVersion: Int! @deprecated(reason: "use protocolVersion instead")
    protocolVersion: Int!
    name: String!
    symbol: String!
    address: Bytes!
    decimals: Int!
    owner: Bytes
    factory: Bytes
    createTime: Int!
    type: GqlPoolType!
    version: Int!
  }

  enum GqlPoolType {
    COMPOSABLE_STABLE
    COW_AMM
    ELEMENT
    FIXED_LBP
    FX
    GYRO
    GYRO3
    GYROE
    INVESTMENT
    LIQUIDITY_BOOTSTRAPPING
    META_STABLE
    PHANTOM_STABLE
    QUANT_AMM_WEIGHTED
    RECLAMM
    STABLE
    UNKNOWN
    WEIGHTED
  }
`;
}
