import { stableV3Math, steadyAmp } from '../../../../../src/domain/poolTypes/stable/v3/stableV3Pool';
import type { StableV3State } from '../../../../../src/domain/poolTypes/stable/v3/stableV3State';
import type { PoolSwapParams } from '../../../../../src/domain/protocols/v3/poolMath';
import { isRevert } from '../../../../../src/domain/swap/math/revert';

const E18 = 10n ** 18n;

function stable(fields: Partial<StableV3State> = {}): StableV3State {
  return {
    address: '0x0000000000000000000000000000000000000f01',
    tokens: ['0x01', '0x02', '0x03'],
    scalingFactors: [1n, 1n, 1n],
    tokenRates: [E18, E18, E18],
    balancesLiveScaled18: [1_000_000n * E18, 1_200_000n * E18, 900_000n * E18],
    staticSwapFee: 10n ** 14n,
    aggregateSwapFee: 0n,
    totalSupply: 3_100_000n * E18,
    paused: false,
    inRecoveryMode: false,
    supportsUnbalancedLiquidity: true,
    amp: steadyAmp(200_000n),
    ...fields,
  };
}

const swap = (state: StableV3State, timestamp: bigint, p: Partial<PoolSwapParams> = {}): bigint =>
  stableV3Math(state, timestamp).onSwap({
    kind: 'exactIn',
    amountGivenScaled18: 50_000n * E18,
    balancesScaled18: state.balancesLiveScaled18,
    indexIn: 0,
    indexOut: 2,
    ...p,
  });

describe('V3 stable pool', () => {
  test('an amp ramp prices at the amp interpolated at the timestamp, and at its end value after it', () => {
    const ramp = stable({ amp: { startValue: 200_000n, endValue: 1_000_000n, startTime: 1_000n, endTime: 3_000n } });
    // Halfway the integer interpolation gives 600,000.
    expect(swap(ramp, 2_000n)).toBe(swap(stable({ amp: steadyAmp(600_000n) }), 0n));
    expect(swap(ramp, 1_250n)).toBe(swap(stable({ amp: steadyAmp(300_000n) }), 0n));
    expect(swap(ramp, 5_000n)).toBe(swap(stable({ amp: steadyAmp(1_000_000n) }), 0n));
    expect(swap(ramp, 2_000n)).not.toBe(swap(ramp, 2_500n));
  });

  test('an invariant asked rounded up is the rounded-down one plus 1 wei', () => {
    const math = stableV3Math(stable(), 0n);
    const balances = stable().balancesLiveScaled18;
    expect(math.computeInvariant(balances, 'up')).toBe(math.computeInvariant(balances, 'down') + 1n);
  });

  test('the 2026 build refuses balances 10,000 times apart; the launch build prices them', () => {
    const lopsided = stable({ balancesLiveScaled18: [1_000n * E18, 10_000_001n * E18, 900_000n * E18] });
    const code = (f: () => unknown): string | undefined => {
      try {
        f();
      } catch (e) {
        if (isRevert(e)) return (e as { code?: string }).code;
        throw e;
      }
      return undefined;
    };
    const p = { amountGivenScaled18: 100n * E18, balancesScaled18: lopsided.balancesLiveScaled18 };
    expect(code(() => swap(lopsided, 0n, p))).toBeUndefined();
    expect(code(() => swap({ ...lopsided, maxImbalanceRatio: 10_000n }, 0n, p))).toBe('MaxImbalanceRatioExceeded');
    // A swap that would take the pool past the ratio is refused too.
    const near = stable({
      balancesLiveScaled18: [1_000n * E18, 9_000_000n * E18, 900_000n * E18],
      maxImbalanceRatio: 10_000n,
    });
    const sellIntoBig = {
      indexIn: 1,
      indexOut: 0,
      amountGivenScaled18: 2_000_000n * E18,
      balancesScaled18: near.balancesLiveScaled18,
    };
    expect(code(() => swap(near, 0n, sellIntoBig))).toBe('MaxImbalanceRatioExceeded');
  });
});
