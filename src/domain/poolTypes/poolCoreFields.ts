/**
 * The subgraph's scalar fields every pool has (what the pools query asks for before each type's
 * own parameters), grouped by who needs them. A pool type may not declare a parameter by one of
 * these names, nor by a stored pool's own keys (`registry.ts`).
 */
export const POOL_CORE_FIELDS = [
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
] as const;
