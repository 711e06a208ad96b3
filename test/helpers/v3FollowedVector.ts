import { unitsToDecimal } from '../../src/domain/decimal';
import type { FakeV3Pool } from '../fakes/v3VaultFake';
import type { V3Vector } from './v3Vectors';

/**
 * A V3 vector pool as the V3 Vault holds it at the vector's block, for the fake node
 * (`fakes/v3VaultFake.ts`): raw balances undone exactly from the vector's live balances (the Vault
 * recomputes the same live balances from them), no yield fee, no hook unless the caller adds one.
 * Its type's own getters are the caller's (`answers`). Also the V3 vault subgraph's row of the pool.
 */

const ZERO = `0x${'0'.repeat(40)}`;
const E18 = 10n ** 18n;

export function fakePoolOf(vector: V3Vector, answers: Map<string, string>, unbalanced = true): FakeV3Pool {
  const p = vector.pool;
  const factors = p.bigs('scalingFactors');
  const rates = p.bigs('tokenRates');
  const live = p.bigs('balancesLiveScaled18');
  const balancesRaw = live.map((l, i) => {
    const unit = factors[i]! * rates[i]!;
    const raw = (l * E18 + unit - 1n) / unit;
    if ((raw * unit) / E18 !== l) throw new Error(`${vector.file}: no raw balance gives live balance ${l}`);
    return raw;
  });
  return {
    address: p.poolAddress.toLowerCase(),
    tokens: p.tokens.map((t) => t.toLowerCase()),
    decimals: factors.map(decimalsOf),
    balancesRaw,
    lastLiveBalances: [...live],
    rates: [...rates],
    rateProviders: p.tokens.map(() => ZERO),
    paysYieldFees: p.tokens.map(() => false),
    staticSwapFee: p.big('swapFee'),
    aggregateSwapFee: p.has('aggregateSwapFee') ? p.big('aggregateSwapFee') : 0n,
    aggregateYieldFee: 0n,
    paused: false,
    recovery: false,
    totalSupply: p.big('totalSupply'),
    disableUnbalancedLiquidity: !unbalanced,
    answers,
  };
}

const decimalsOf = (factor: bigint): number => 18 - (factor.toString().length - 1);

/** The V3 vault subgraph's row of the fake pool. */
export function vaultRowOf(pool: FakeV3Pool): Record<string, unknown> & { id: string } {
  const flag = (i: number): boolean => pool.hook !== undefined && pool.hookFlags?.[i] === true;
  return {
    id: pool.address,
    address: pool.address,
    name: 'vector pool',
    symbol: 'VP',
    factory: `0x${'fa'.repeat(20)}`,
    swapFee: unitsToDecimal(pool.staticSwapFee, 18),
    totalShares: unitsToDecimal(pool.totalSupply, 18),
    blockTimestamp: '1700000000',
    swapsCount: '1',
    holdersCount: '1',
    tokens: pool.tokens.map((address, index) => ({
      address,
      index,
      name: 'T',
      symbol: 'T',
      decimals: pool.decimals[index]!,
      balance: unitsToDecimal(pool.balancesRaw[index]!, pool.decimals[index]!),
      priceRate: unitsToDecimal(pool.rates[index]!, 18),
      paysYieldFees: false,
    })),
    rateProviders: [],
    hookConfig: {
      hook: { address: pool.hook ?? ZERO },
      enableHookAdjustedAmounts: flag(0),
      shouldCallComputeDynamicSwapFee: flag(3),
      shouldCallBeforeSwap: flag(4),
      shouldCallAfterSwap: flag(5),
      shouldCallBeforeAddLiquidity: flag(6),
      shouldCallAfterAddLiquidity: flag(7),
      shouldCallBeforeRemoveLiquidity: flag(8),
      shouldCallAfterRemoveLiquidity: flag(9),
    },
    liquidityManagement: { disableUnbalancedLiquidity: pool.disableUnbalancedLiquidity === true },
  };
}
