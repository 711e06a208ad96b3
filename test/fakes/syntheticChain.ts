import { id } from 'ethers';
import { decimalToUnits } from '../../src/domain/decimal';
import type { FakeChainPool } from './chainRpcServer';
import type { SyntheticPool } from './syntheticPools';

/**
 * A synthetic pool (`syntheticPools.ts`) on the fake node (`chainRpcServer.ts`) with every getter
 * its type and version have, as the contract answers them: a Weighted v4 pool's weights, fee basis
 * and (no) rate providers, a Stable v2 pool's amp and last invariant, and the pause and recovery
 * state and supply of both. A read of it reverts nothing, as a read of a real pool of these types
 * does not, so what a full read costs is its getters' and not getters sent again after a revert.
 */
const selector = (signature: string) => id(signature).slice(0, 10);
const word = (n: bigint) => n.toString(16).padStart(64, '0');
const words = (...values: bigint[]) => `0x${values.map(word).join('')}`;
const array = (values: readonly bigint[]) => words(32n, BigInt(values.length), ...values);

const GET_PAUSED_STATE = selector('getPausedState()');
const IN_RECOVERY_MODE = selector('inRecoveryMode()');
const TOTAL_SUPPLY = selector('totalSupply()');
const GET_NORMALIZED_WEIGHTS = selector('getNormalizedWeights()');
const GET_LAST_POST_JOIN_EXIT_INVARIANT = selector('getLastPostJoinExitInvariant()');
const GET_PROTOCOL_FEE_PERCENTAGE_CACHE = selector('getProtocolFeePercentageCache(uint256)');
const GET_ATH_RATE_PRODUCT = selector('getATHRateProduct()');
const GET_RATE_PROVIDERS = selector('getRateProviders()');
const GET_AMPLIFICATION_PARAMETER = selector('getAmplificationParameter()');
const GET_LAST_INVARIANT = selector('getLastInvariant()');

const E18 = 10n ** 18n;
/** The pause window and buffer period ended long before the blocks the fake makes. */
const PAUSE_WINDOW_END = 1_600_000_000n;
const BUFFER_PERIOD_END = 1_602_592_000n;
const AMP_PRECISION = 1000n;

export function syntheticChainPool(p: SyntheticPool): FakeChainPool {
  const supply = decimalToUnits(p.totalShares, 18);
  const getters = new Map<string, string>([
    [GET_PAUSED_STATE, words(p.isPaused ? 1n : 0n, PAUSE_WINDOW_END, BUFFER_PERIOD_END)],
    [IN_RECOVERY_MODE, words(p.isInRecoveryMode ? 1n : 0n)],
    [TOTAL_SUPPLY, words(supply)],
  ]);
  if (p.poolType === 'Weighted') {
    getters.set(GET_NORMALIZED_WEIGHTS, array(p.tokens.map((t) => decimalToUnits(t.weight ?? '0', 18))));
    getters.set(GET_LAST_POST_JOIN_EXIT_INVARIANT, words(supply / 2n));
    getters.set(`${GET_PROTOCOL_FEE_PERCENTAGE_CACHE}${word(0n)}`, words(E18 / 2n));
    getters.set(GET_ATH_RATE_PRODUCT, words(0n));
    getters.set(GET_RATE_PROVIDERS, array(p.tokens.map(() => 0n)));
  } else {
    const amp = decimalToUnits(p.amp ?? '0', 0) * AMP_PRECISION;
    getters.set(GET_AMPLIFICATION_PARAMETER, words(amp, 0n, AMP_PRECISION));
    getters.set(GET_LAST_INVARIANT, words(supply, amp));
  }
  return {
    id: p.id,
    address: p.address,
    tokens: p.tokens.map((t) => t.address),
    balances: p.tokens.map((t) => decimalToUnits(t.balance, t.decimals)),
    swapFee: decimalToUnits(p.swapFee, 18),
    getters,
  };
}
