/**
 * The query documents today's clients of the current Balancer API send, verbatim: the shapes
 * their code reads are what the tests check.
 */

/** gnosis/solvers `src/infra/dex/balancer/dto.rs` `QUERY` (the trailing comma is theirs). */
export const COW_QUERY = `
query sorGetSwapPaths($chain: GqlChain!, $swapAmount: AmountHumanReadable!, $swapType: GqlSorSwapType!, $tokenIn: String!, $tokenOut: String!) {
    sorGetSwapPaths(
        chain: $chain,
        swapAmount: $swapAmount,
        swapType: $swapType,
        tokenIn: $tokenIn,
        tokenOut: $tokenOut,
    ) {
        tokenAddresses
        swaps {
            poolId
            assetInIndex
            assetOutIndex
            amount
            userData
        }
        swapAmountRaw
        returnAmountRaw
        tokenIn
        tokenOut
        protocolVersion
        paths {
            inputAmountRaw
            isBuffer
            outputAmountRaw
            pools
            protocolVersion
            tokens {
              address
            }
        }
    }
}
`;

/** @balancer/sdk `src/data/providers/balancer-api/modules/sorSwapPaths` `sorSwapPathQuery`. */
export const SDK_SOR_QUERY = `
  query sorGetSwapPaths(
    $chain: GqlChain!
    $swapType: GqlSorSwapType!
    $swapAmount: AmountHumanReadable!
    $tokenIn: String!
    $tokenOut: String!
    $considerPoolsWithHooks: Boolean
    $poolIds: [String!]
  ) {
    sorGetSwapPaths(
      swapAmount: $swapAmount
      chain: $chain
      swapType: $swapType
      tokenIn: $tokenIn
      tokenOut: $tokenOut
      considerPoolsWithHooks: $considerPoolsWithHooks
      poolIds: $poolIds
    ) {
      tokenInAmount
      tokenOutAmount
      returnAmount
      priceImpact {
        error
        priceImpact
      }
      swapAmount
      paths {
        inputAmountRaw
        outputAmountRaw
        pools
        isBuffer
        protocolVersion
        tokens {
          address
          decimals
        }
      }
    }
  }
`;

/** The same module's `sorSwapPathQueryWithVersion`. */
export const SDK_SOR_QUERY_WITH_VERSION = `
  query sorGetSwapPathsWithVersion(
    $chain: GqlChain!
    $swapType: GqlSorSwapType!
    $swapAmount: AmountHumanReadable!
    $tokenIn: String!
    $tokenOut: String!
    $useProtocolVersion: Int!
    $poolIds: [String!]
    $considerPoolsWithHooks: Boolean
  ) {
    sorGetSwapPaths(
      swapAmount: $swapAmount
      chain: $chain
      swapType: $swapType
      tokenIn: $tokenIn
      tokenOut: $tokenOut
      useProtocolVersion: $useProtocolVersion
      considerPoolsWithHooks: $considerPoolsWithHooks
      poolIds: $poolIds
    ) {
      tokenInAmount
      tokenOutAmount
      returnAmount
      priceImpact {
        error
        priceImpact
      }
      swapAmount
      paths {
        inputAmountRaw
        outputAmountRaw
        pools
        isBuffer
        protocolVersion
        tokens {
          address
          decimals
        }
      }
    }
  }
`;

/** Every field of the answer, for the tests of what each one holds. */
export const FULL_SOR_QUERY = `
query full($chain: GqlChain!, $swapAmount: AmountHumanReadable!, $swapType: GqlSorSwapType!, $tokenIn: String!, $tokenOut: String!, $useProtocolVersion: Int, $poolIds: [String!], $considerPoolsWithHooks: Boolean, $callDataInput: GqlSwapCallDataInput) {
  sorGetSwapPaths(chain: $chain, swapAmount: $swapAmount, swapType: $swapType, tokenIn: $tokenIn, tokenOut: $tokenOut, useProtocolVersion: $useProtocolVersion, poolIds: $poolIds, considerPoolsWithHooks: $considerPoolsWithHooks, callDataInput: $callDataInput) {
    vaultVersion protocolVersion tokenIn tokenOut swapType
    swaps { poolId assetInIndex assetOutIndex amount userData }
    tokenAddresses
    paths { vaultVersion protocolVersion pools isBuffer tokens { address decimals } inputAmountRaw outputAmountRaw }
    tokenInAmount tokenOutAmount swapAmount swapAmountRaw returnAmount returnAmountRaw
    effectivePrice effectivePriceReversed
    routes { tokenIn tokenInAmount tokenOut tokenOutAmount share hops { tokenIn tokenInAmount tokenOut tokenOutAmount poolId pool { id type protocolVersion } } }
    priceImpact { priceImpact error }
    callData { callData to value minAmountOutRaw maxAmountInRaw }
    blockNumber
  }
}
`;

/** @balancer/sdk `modules/pool-state` `poolStateQuery`. */
export const SDK_POOL_STATE_QUERY = `
    query poolGetPool($id: String!, $chain: GqlChain!) {
      poolGetPool(id: $id, chain: $chain) {
        id
        address
        type
        protocolVersion
        poolTokens {
          index
          address
          decimals
        }
      }
    }`;

/** The same module's `poolStateWithRawTokensQuery`. */
export const SDK_POOL_WITH_BALANCES_QUERY = `
    query poolGetPoolWithBalances($id: String!, $chain: GqlChain!) {
      poolGetPool(id: $id, chain: $chain) {
        id
        address
        type
        protocolVersion
        poolTokens {
          index
          address
          decimals
          balance
        }
        dynamicData {
          totalShares
        }
      }
    }`;

/** `modules/nested-pool-state` `nestedPoolStateQuery`. */
export const SDK_NESTED_POOL_QUERY = `
  query poolGetNestedPool($id: String!, $chain: GqlChain!) {
    poolGetPool(id: $id, chain: $chain) {
      id
      protocolVersion
      address
      type
      poolTokens {
        index
        address
        decimals
        nestedPool {
          id
          address
          type
          tokens {
            index
            address
            decimals
            underlyingToken {
              address
              decimals
            }
          }
        }
        underlyingToken {
          address
          decimals
        }
      }
    }
  }
`;

/** `modules/boosted-pool-state` `boostedPoolStateQuery`. */
export const SDK_BOOSTED_POOL_QUERY = `
    query poolGetPoolWithUnderlyings($id: String!, $chain: GqlChain!) {
      poolGetPool(id: $id, chain: $chain) {
        id
        address
        type
        protocolVersion
        poolTokens {
          index
          address
          decimals
          underlyingToken {
            address
            decimals
          }
        }
      }
    }`;

/** `modules/buffer-state` `bufferStateQuery`. */
export const SDK_BUFFER_QUERY = `
      query tokenGetTokens($wrappedTokenAddress: String!, $chain: GqlChain!) {
        tokenGetTokens(
          chains: [$chain],
          where: {tokensIn: [$wrappedTokenAddress]}
        ) {
          address
          decimals
          isErc4626
          underlyingTokenAddress
        }
      }
    `;
