import { decimalToUnits } from '../../../decimal';
import type { StoredPool } from '../../../pool';
import { loadBalances } from '../vault/poolData';
import type { V3PoolState } from '../vault/poolState';

/**
 * The V3 Vault's state of a stored V3 pool, as the Vault operations (`vault/`) run it: raw balances with the
 * decimal scaling and rates that turn them into live balances, the yield fee the Vault charges at
 * load (when the last live balances are known), fees, supply and flags. Undefined for a pool of
 * another protocol or one stored without its V3 Vault state. Exact: every stored decimal converts back
 * to the integer it was read as.
 */
export function v3PoolStateOf(pool: StoredPool): V3PoolState | undefined {
  const v3 = pool.v3;
  if (pool.protocolVersion !== 3 || v3 === undefined) return undefined;
  const balancesRaw = pool.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
  const state: V3PoolState = {
    address: pool.address,
    tokens: pool.tokens.map((t) => t.address),
    scalingFactors: pool.tokens.map((t) => 10n ** BigInt(18 - t.decimals)),
    tokenRates: pool.tokens.map((t) => decimalToUnits(t.priceRate, 18)),
    balancesLiveScaled18: [],
    balancesRaw,
    ...(v3.lastLiveBalances !== null
      ? {
          yieldFee: {
            aggregateYieldFee: decimalToUnits(v3.aggregateYieldFee, 18),
            lastLiveBalances: v3.lastLiveBalances.map((b) => decimalToUnits(b, 18)),
            paysYieldFees: v3.paysYieldFees,
          },
        }
      : {}),
    staticSwapFee: decimalToUnits(pool.swapFee, 18),
    aggregateSwapFee: decimalToUnits(v3.aggregateSwapFee, 18),
    totalSupply: decimalToUnits(pool.totalShares, 18),
    paused: pool.isPaused,
    inRecoveryMode: pool.isInRecoveryMode,
    supportsUnbalancedLiquidity: v3.supportsUnbalancedLiquidity,
  };
  // What `getCurrentLiveBalances` answers: loaded rounded down, the yield fee taken.
  return { ...state, balancesLiveScaled18: loadBalances(state, 'down').live };
}
