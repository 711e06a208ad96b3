/**
 * The one GraphQL query the pool-update job sends to a Balancer V2 subgraph. It asks for every
 * field `normalizePool` reads: the router's inputs (balances, weights, amp, rates, the linear,
 * element and gyro parameters) and the decoration job's inputs (volumes, fees, shares, times).
 *
 * Paging is by cursor (`id_gt` the last id of the previous page, ordered by id): `skip` gets slower
 * with depth on graph-node and is capped, the cursor is neither.
 */

/** graph-node refuses `first` above 1000. */
export const MAX_PAGE_SIZE = 1000;

const TOKEN_FIELDS = [
  'id',
  'address',
  'symbol',
  'name',
  'decimals',
  'balance',
  'weight',
  'priceRate',
  'oldPriceRate',
  'isExemptFromYieldProtocolFee',
] as const;

const GYRO_FIELDS = [
  'alpha',
  'beta',
  'sqrtAlpha',
  'sqrtBeta',
  'root3Alpha',
  'c',
  's',
  'lambda',
  'tauAlphaX',
  'tauAlphaY',
  'tauBetaX',
  'tauBetaY',
  'u',
  'v',
  'w',
  'z',
  'dSq',
] as const;

/** Scalar pool fields, grouped by who needs them. */
export const POOL_SCALAR_FIELDS = [
  // identity and state
  'id',
  'address',
  'poolType',
  'poolTypeVersion',
  'factory',
  'owner',
  'symbol',
  'name',
  'swapFee',
  'swapEnabled',
  'isPaused',
  'isInRecoveryMode',
  'amp',
  // totals for decoration and history
  'totalShares',
  'totalWeight',
  'totalSwapVolume',
  'totalSwapFee',
  'totalLiquidity',
  'createTime',
  'swapsCount',
  'holdersCount',
  'tokensList',
  // linear pools
  'mainIndex',
  'wrappedIndex',
  'lowerTarget',
  'upperTarget',
  // element pools
  'expiryTime',
  'unitSeconds',
  'principalToken',
  'baseToken',
  // managed / investment pools and yield fees
  'managementFee',
  'protocolYieldFeeCache',
  // composable stable pools: the protocol fee basis BPT swaps are priced against
  'protocolSwapFeeCache',
  'lastJoinExitAmp',
  'lastPostJoinExitInvariant',
  // gyro pools
  ...GYRO_FIELDS,
] as const;

export const POOLS_QUERY = `query Pools($first: Int!, $lastId: ID!) {
  pools(first: $first, orderBy: id, orderDirection: asc, where: { id_gt: $lastId, totalShares_gt: "0" }) {
    ${POOL_SCALAR_FIELDS.join('\n    ')}
    tokens { ${TOKEN_FIELDS.join(' ')} }
    priceRateProviders { address token { address } }
  }
}`;

export interface PoolsQueryVariables {
  readonly first: number;
  /** Empty string for the first page: every id sorts after it. */
  readonly lastId: string;
}
