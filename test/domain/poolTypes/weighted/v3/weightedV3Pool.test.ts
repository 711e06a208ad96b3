import { weightedV3Math } from '../../../../../src/domain/poolTypes/weighted/v3/weightedV3Pool';
import type { WeightedV3State } from '../../../../../src/domain/poolTypes/weighted/v3/weightedV3State';
import { isRevert } from '../../../../../src/domain/swap/math/revert';

const E18 = 10n ** 18n;
const state = (fields: Partial<WeightedV3State> = {}): WeightedV3State => ({
  address: '0x0000000000000000000000000000000000000f02',
  tokens: ['0x01', '0x02'],
  scalingFactors: [1n, 1n],
  tokenRates: [E18, E18],
  balancesLiveScaled18: [1_000n * E18, 4_000n * E18],
  staticSwapFee: 10n ** 16n,
  aggregateSwapFee: 0n,
  totalSupply: 2_000n * E18,
  paused: false,
  inRecoveryMode: false,
  supportsUnbalancedLiquidity: true,
  weights: [2n * 10n ** 17n, 8n * 10n ** 17n],
  ...fields,
});

function code(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (isRevert(e)) return (e as { code?: string }).code;
    throw e;
  }
  return undefined;
}

describe('V3 weighted pool', () => {
  test('a swap may bring in at most 30% of the balance in and take out at most 30% of the balance out', () => {
    const math = weightedV3Math(state());
    const balances = state().balancesLiveScaled18;
    const exactIn = (amount: bigint) => () =>
      math.onSwap({
        kind: 'exactIn',
        amountGivenScaled18: amount,
        balancesScaled18: balances,
        indexIn: 0,
        indexOut: 1,
      });
    const exactOut = (amount: bigint) => () =>
      math.onSwap({
        kind: 'exactOut',
        amountGivenScaled18: amount,
        balancesScaled18: balances,
        indexIn: 0,
        indexOut: 1,
      });
    expect(code(exactIn(300n * E18))).toBeUndefined();
    expect(code(exactIn(300n * E18 + 1n))).toBe('MaxInRatio');
    expect(code(exactOut(1_200n * E18))).toBeUndefined();
    expect(code(exactOut(1_200n * E18 + 1n))).toBe('MaxOutRatio');
  });

  test('the 2026 build keeps each token above its minimum balance and prices on the balance in plus 1 wei', () => {
    const launch = weightedV3Math(state());
    const rebuilt = weightedV3Math(state({ minTokenBalances: [10n ** 6n, 3_900n * E18] }));
    const balances = state().balancesLiveScaled18;
    const take = (amount: bigint) => ({
      kind: 'exactOut' as const,
      amountGivenScaled18: amount,
      balancesScaled18: balances,
      indexIn: 0,
      indexOut: 1,
    });
    expect(code(() => rebuilt.onSwap(take(100n * E18)))).toBeUndefined();
    expect(code(() => rebuilt.onSwap(take(100n * E18 + 1n)))).toBe('TokenBalanceBelowMin');
    expect(code(() => launch.onSwap(take(100n * E18 + 1n)))).toBeUndefined();
    // A larger balance in asks for at least as much in.
    expect(rebuilt.onSwap(take(10n * E18))).toBeGreaterThanOrEqual(launch.onSwap(take(10n * E18)));
  });

  test('a single-token remove from a launch pool rounds 1/weight up, so it pays at least what the 2026 build pays', () => {
    // 1/0.3 is not a whole number, so the two roundings of the exponent differ.
    const weights = [3n * 10n ** 17n, 7n * 10n ** 17n];
    const launch = weightedV3Math(state({ weights }));
    const rebuilt = weightedV3Math(state({ weights, minTokenBalances: [1n, 1n] }));
    const balances = state().balancesLiveScaled18;
    let larger = 0;
    for (let k = 1n; k <= 20n; k++) {
      const ratio = 10n ** 18n - k * 7n * 10n ** 15n;
      const launchLeft = launch.computeBalance(balances, 0, ratio);
      const rebuiltLeft = rebuilt.computeBalance(balances, 0, ratio);
      expect(launchLeft).toBeLessThanOrEqual(rebuiltLeft);
      if (launchLeft < rebuiltLeft) larger++;
      // An add rounds the same way in both builds.
      expect(launch.computeBalance(balances, 0, 2n * 10n ** 18n - ratio)).toBe(
        rebuilt.computeBalance(balances, 0, 2n * 10n ** 18n - ratio),
      );
    }
    expect(larger).toBeGreaterThan(0);
  });
});
