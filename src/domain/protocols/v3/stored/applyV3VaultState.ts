import { unitsToDecimal } from '../../../decimal';
import type { StoredPool } from '../../../pool';
import type { V3FrameChainState } from '../vaultReads';
import type { StoredV3Frame, StoredV3Hook } from './storedV3';

const ZERO_ADDRESS = /^0x0{40}$/;

/**
 * `pool` (its balances, fee, flags and supply already the chain's) with the rest of the V3 Vault's
 * frame as read: each token's rate, and the `v3` group. `chainOrder` is the Vault's token order
 * (the stored tokens are matched by address). A hook keeps the kind and parameters the catalogue
 * gave it while its address is the same; a new hooks contract is one the service does not know.
 */
export function applyV3Frame(
  pool: StoredPool,
  frame: V3FrameChainState,
  chainOrder: readonly { readonly address: string }[],
): StoredPool {
  const index = new Map(chainOrder.map((t, i) => [t.address, i]));
  const at = <T>(list: readonly T[], address: string): T | undefined => list[index.get(address) ?? -1];
  const tokens = pool.tokens.map((t) => {
    const rate = at(frame.tokenRates, t.address);
    return rate === undefined ? t : { ...t, priceRate: unitsToDecimal(rate, 18) };
  });
  const v3: StoredV3Frame = {
    ...(pool.v3 ?? {}),
    aggregateSwapFee: unitsToDecimal(frame.aggregateSwapFee, 18),
    aggregateYieldFee: unitsToDecimal(frame.aggregateYieldFee, 18),
    paysYieldFees: pool.tokens.map((t) => at(frame.paysYieldFees, t.address) ?? false),
    lastLiveBalances: pool.tokens.map((t) => unitsToDecimal(at(frame.lastLiveBalances, t.address) ?? 0n, 18)),
    supportsUnbalancedLiquidity: frame.supportsUnbalancedLiquidity,
    hook: hookOf(pool.v3?.hook ?? null, frame.hook, frame.hookParams),
  };
  const providers = pool.tokens.flatMap((t) => {
    const p = at(frame.rateProviders, t.address);
    return p === undefined || ZERO_ADDRESS.test(p) ? [] : [{ address: p, token: t.address }];
  });
  return { ...pool, tokens, priceRateProviders: providers, v3 };
}

/** The hook as read, its kind kept from the catalogue and its parameters the chain's where it read them. */
function hookOf(
  stored: StoredV3Hook | null,
  read: V3FrameChainState['hook'],
  readParams: V3FrameChainState['hookParams'],
): StoredV3Hook | null {
  if (ZERO_ADDRESS.test(read.address)) return null;
  const same = stored !== null && stored.address === read.address;
  const params = { ...(same ? stored.params : {}) };
  if (same) for (const [name, value] of Object.entries(readParams ?? {})) params[name] = unitsToDecimal(value, 18);
  return { address: read.address, kind: same ? stored.kind : null, flags: read.flags, params };
}
