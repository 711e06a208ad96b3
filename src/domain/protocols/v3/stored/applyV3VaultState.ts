import { unitsToDecimal } from '../../../decimal';
import type { StoredPool } from '../../../pool';
import type { V3VaultChainState } from '../vaultReads';
import type { StoredV3VaultState, StoredV3Hook } from './storedV3';

const ZERO_ADDRESS = /^0x0{40}$/;

/**
 * `pool` (its balances, fee, flags and supply already the chain's) with the rest of the V3 Vault's
 * state as read: each token's rate, and the `v3` group. `chainOrder` is the Vault's token order
 * (the stored tokens are matched by address). A hook keeps the kind and parameters the catalogue
 * gave it while its address is the same; a new hooks contract is one the service does not know.
 */
export function applyV3VaultState(
  pool: StoredPool,
  vaultState: V3VaultChainState,
  chainOrder: readonly { readonly address: string }[],
): StoredPool {
  const index = new Map(chainOrder.map((t, i) => [t.address, i]));
  const at = <T>(list: readonly T[], address: string): T | undefined => list[index.get(address) ?? -1];
  const tokens = pool.tokens.map((t) => {
    const rate = at(vaultState.tokenRates, t.address);
    return rate === undefined ? t : { ...t, priceRate: unitsToDecimal(rate, 18) };
  });
  const v3: StoredV3VaultState = {
    ...(pool.v3 ?? {}),
    aggregateSwapFee: unitsToDecimal(vaultState.aggregateSwapFee, 18),
    aggregateYieldFee: unitsToDecimal(vaultState.aggregateYieldFee, 18),
    paysYieldFees: pool.tokens.map((t) => at(vaultState.paysYieldFees, t.address) ?? false),
    lastLiveBalances: pool.tokens.map((t) => unitsToDecimal(at(vaultState.lastLiveBalances, t.address) ?? 0n, 18)),
    supportsUnbalancedLiquidity: vaultState.supportsUnbalancedLiquidity,
    hook: hookOf(pool.v3?.hook ?? null, vaultState.hook, vaultState.hookParams),
  };
  const providers = pool.tokens.flatMap((t) => {
    const p = at(vaultState.rateProviders, t.address);
    return p === undefined || ZERO_ADDRESS.test(p) ? [] : [{ address: p, token: t.address }];
  });
  return { ...pool, tokens, priceRateProviders: providers, v3 };
}

/** The hook as read, its kind kept from the catalogue and its parameters the chain's where it read them. */
function hookOf(
  stored: StoredV3Hook | null,
  read: V3VaultChainState['hook'],
  readParams: V3VaultChainState['hookParams'],
): StoredV3Hook | null {
  if (ZERO_ADDRESS.test(read.address)) return null;
  const same = stored !== null && stored.address === read.address;
  const params = { ...(same ? stored.params : {}) };
  if (same) for (const [name, value] of Object.entries(readParams ?? {})) params[name] = unitsToDecimal(value, 18);
  return { address: read.address, kind: same ? stored.kind : null, flags: read.flags, params };
}
