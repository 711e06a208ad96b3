import type { Address } from '../../../address';
import type { PoolChainState } from '../../../chainState';
import { DECORATION_FIELDS, type StoredPool, type StoredPoolToken } from '../../../pool';

/**
 * A V3 pool the Vault registered after the catalogue's last read (its `PoolRegistered` log), as a
 * stored pool only the chain describes: the type and version of the catalogue's pools from the same
 * factory (`sibling`), and, once read (`read`), the Vault's tokens, their decimals (from the
 * scaling factors) and placeholders for the type's parameters shaped like the sibling's (a weight
 * per token where it has weights, an amp where it has one), which the read state then replaces.
 * Without `read` its tokens are empty: what the first read asks does not depend on them. Pure.
 */
export function registeredV3Pool(
  address: string,
  factory: string,
  sibling: StoredPool,
  read?: PoolChainState,
): StoredPool {
  const weighted = sibling.tokens.some((t) => t.weight !== null);
  const factors = read?.v3?.scalingFactors ?? [];
  const tokens: StoredPoolToken[] = (read?.tokens ?? []).map((t, i) => ({
    address: t.address as Address,
    symbol: null,
    name: null,
    decimals: 18 - (String(factors[i] ?? 1n).length - 1),
    balance: '0',
    weight: weighted ? '0' : null,
    priceRate: '1',
  }));
  // The sibling's own figures (decoration) are not this pool's.
  const skeleton: Record<string, unknown> = { ...sibling };
  for (const field of DECORATION_FIELDS) delete skeleton[field];
  return {
    ...(skeleton as unknown as StoredPool),
    id: address,
    address: address as Address,
    factory,
    symbol: null,
    name: null,
    swapFee: '0',
    amp: sibling.amp === null ? null : '0',
    totalShares: '0',
    totalSwapVolume: '0',
    totalSwapFee: '0',
    createTime: null,
    swapsCount: null,
    holdersCount: null,
    tokens,
    tokensList: tokens.map((t) => t.address),
    priceRateProviders: [],
    subgraphLiquidity: null,
    routable: false,
    v3: {
      aggregateSwapFee: '0',
      aggregateYieldFee: '0',
      paysYieldFees: tokens.map(() => false),
      lastLiveBalances: null,
      supportsUnbalancedLiquidity: true,
      hook: null,
    },
  };
}
