import {
  MaxTradeSizeRatioExceeded,
  quantAmmMath,
} from '../../../../../src/domain/poolTypes/quantAmm/v3/quantAmmV3Pool';
import { quantAmmWeights } from '../../../../../src/domain/poolTypes/quantAmm/v3/quantAmmV3Weights';
import type { QuantAmmState } from '../../../../../src/domain/poolTypes/quantAmm/v3/quantAmmV3State';
import type { PoolSwapParams } from '../../../../../src/domain/protocols/v3/poolMath';
import { isRevert } from '../../../../../src/domain/swap/math/revert';
import { loadV3Vector, vectorVaultState } from '../../../../helpers/v3Vectors';

// A real pool's state (the QuantAMM vector) as the starting point; times moved around it.
const p = loadV3Vector('1-22524240-QuantAMM.json').pool;
const state: QuantAmmState = {
  ...vectorVaultState(p),
  firstFourWeightsAndMultipliers: p.bigs('firstFourWeightsAndMultipliers'),
  secondFourWeightsAndMultipliers: p.bigs('secondFourWeightsAndMultipliers'),
  lastUpdateTime: p.big('lastUpdateTime'),
  lastInteropTime: p.big('lastInteropTime'),
  maxTradeSizeRatio: p.big('maxTradeSizeRatio'),
};
const ONE = 10n ** 18n;
const balances = state.balancesLiveScaled18;
const swapParams =
  (indexIn: number, indexOut: number) =>
  (amountGivenScaled18: bigint, kind: PoolSwapParams['kind'] = 'exactIn'): PoolSwapParams => ({
    kind,
    amountGivenScaled18,
    balancesScaled18: balances,
    indexIn,
    indexOut,
  });
const wbtcToUsdc = swapParams(0, 2);
const usdcToWbtc = swapParams(2, 0);

describe('QuantAMM weights move with the block time', () => {
  test('at the last update the weights are the stored ones; a second later each moved by its multiplier', () => {
    const atUpdate = quantAmmWeights(state, 3, state.lastUpdateTime);
    const later = quantAmmWeights(state, 3, state.lastUpdateTime + 1n);
    const word = state.firstFourWeightsAndMultipliers;
    expect(atUpdate).toEqual(word.slice(0, 3));
    expect(later.map((w, k) => w - atUpdate[k]!)).toEqual(word.slice(3, 6));
  });

  test('the weights stop at lastInteropTime: a quote a day later equals one at that second', () => {
    const atEnd = quantAmmMath(state, state.lastInteropTime).onSwap(wbtcToUsdc(ONE / 100n));
    const dayLater = quantAmmMath(state, state.lastInteropTime + 86_400n).onSwap(wbtcToUsdc(ONE / 100n));
    const before = quantAmmMath(state, state.lastInteropTime - 3_600n).onSwap(wbtcToUsdc(ONE / 100n));
    expect(dayLater).toBe(atEnd);
    expect(before).not.toBe(atEnd);
  });

  test('this pool moves weight from USDC to WBTC, their sum unchanged', () => {
    const sum = (ws: readonly bigint[]): bigint => ws.reduce((a, b) => a + b);
    const atUpdate = quantAmmWeights(state, 3, state.lastUpdateTime);
    const now = quantAmmWeights(state, 3, p.big('currentTimestamp'));
    expect(now[0]).toBeGreaterThan(atUpdate[0]!);
    expect(now[2]).toBeLessThan(atUpdate[2]!);
    expect(sum(now)).toBe(sum(atUpdate));
  });

  test('pools of more than four tokens keep tokens 4.. in the second word, weights then multipliers', () => {
    const w = (k: bigint): bigint => (k + 1n) * 10n ** 16n;
    const m = (k: bigint): bigint => (k % 2n === 0n ? 1n : -1n) * (k + 1n) * 10n ** 9n;
    const six: QuantAmmState = {
      ...state,
      firstFourWeightsAndMultipliers: [w(0n), w(1n), w(2n), w(3n), m(0n), m(1n), m(2n), m(3n)],
      secondFourWeightsAndMultipliers: [w(4n), w(5n), m(4n), m(5n), 0n, 0n, 0n, 0n],
      lastInteropTime: state.lastUpdateTime + 1000n,
    };
    const weights = quantAmmWeights(six, 6, state.lastUpdateTime + 10n);
    expect(weights).toEqual([0n, 1n, 2n, 3n, 4n, 5n].map((k) => w(k) + 10n * m(k)));
  });

  test('a time before the last weight update cannot be priced', () => {
    expect(() => quantAmmWeights(state, 3, state.lastUpdateTime - 1n)).toThrow(/before the last weight update/);
  });
});

describe("QuantAMM's max trade size ratio caps both sides of a swap", () => {
  const math = quantAmmMath(state, p.big('currentTimestamp'));
  const capOf = (k: number): bigint => (balances[k]! * state.maxTradeSizeRatio) / ONE;

  test('exact in: up to the cap of the balance in is priced, one wei more is refused', () => {
    expect(math.onSwap(usdcToWbtc(capOf(2)))).toBeLessThan(capOf(0));
    expect(() => math.onSwap(usdcToWbtc(capOf(2) + 1n))).toThrow(MaxTradeSizeRatioExceeded);
  });

  test('exact in: an amount in within the cap is still refused when what it buys passes the cap out', () => {
    // WBTC carries two thirds of the weight, so a tenth of its balance buys more than a tenth of the USDC.
    expect(() => math.onSwap(wbtcToUsdc(capOf(0)))).toThrow(/amount out above/);
  });

  test('exact out: asking more than the cap of the balance out is refused as a revert', () => {
    let error: unknown;
    try {
      math.onSwap(wbtcToUsdc(capOf(2) + 1n, 'exactOut'));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(MaxTradeSizeRatioExceeded);
    expect(isRevert(error)).toBe(true);
  });

  test('routes see the cap as the swap ratio (below the weighted 30%)', () => {
    expect(math.maxSwapRatio).toEqual({ in: state.maxTradeSizeRatio, out: state.maxTradeSizeRatio });
  });
});
