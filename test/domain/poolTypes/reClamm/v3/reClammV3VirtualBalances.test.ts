import { ONE } from '../../../../../src/domain/swap/math/fixedPoint';
import {
  floorSqrt,
  reClammCenteredness,
  reClammPriceRatio,
} from '../../../../../src/domain/poolTypes/reClamm/v3/reClammV3Math';
import type { ReClammState } from '../../../../../src/domain/poolTypes/reClamm/v3/reClammV3State';
import {
  reClammStateAfterLiquidity,
  reClammStateAfterSwap,
} from '../../../../../src/domain/poolTypes/reClamm/v3/reClammV3StateAfter';
import {
  currentVirtualBalances,
  fourthRootPriceRatio,
} from '../../../../../src/domain/poolTypes/reClamm/v3/reClammV3VirtualBalances';
import { vaultSwap } from '../../../../../src/domain/protocols/v3/vault/swap';
import { Revert } from '../../../../../src/domain/swap/math/revert';
import { reClammVectorPool, reClammVectorState } from '../../../../helpers/v3ReClammVector';
import { loadV3Vector } from '../../../../helpers/v3Vectors';

/**
 * How a ReClamm pool's virtual balances move with time beyond what the chain's vectors show (each
 * vector is seconds after the pool's last update): long out of range, and during a price ratio
 * update, which no vector catches in progress.
 */

const DAY = 86_400n;
const v1OutOfRange = loadV3Vector('8453-31094381-ReClamm-WETH-USDC-Out-Of-Range.json');
const v2OutOfRange = loadV3Vector('8453-32641745-ReClamm-V2-Out-Of-Range.json');
const v1InRange = loadV3Vector('8453-31094200-ReClamm-WETH-USDC-In-Range.json');

const within = (actual: bigint, expected: bigint, tolerance: bigint): boolean =>
  (actual > expected ? actual - expected : expected - actual) <= tolerance;

describe('ReClamm virtual balances out of range', () => {
  const state = reClammVectorState(v2OutOfRange.pool);
  const balances = state.balancesLiveScaled18;
  const at = (days: bigint) => currentVirtualBalances(state, balances, state.lastTimestamp + days * DAY);
  const centeredness = (days: bigint) => {
    const { virtualA, virtualB } = at(days);
    return reClammCenteredness(balances, virtualA, virtualB).centeredness;
  };

  test('a v2 pool slides its range toward the market price until it is centred, then stops', () => {
    expect(centeredness(1n)).toBeGreaterThan(centeredness(0n) + 10n ** 16n);
    expect(centeredness(20n)).toBeGreaterThan(ONE - 10n ** 12n);
    expect(at(200n)).toEqual(at(20n));
  });

  test('a v1 pool left out of range for days reverts, as on chain, so it is not quoted', () => {
    const pool = v1OutOfRange.pool;
    const stale = reClammVectorPool(pool, pool.big('lastTimestamp') + 5n * DAY);
    const swap = v1OutOfRange.swaps[0]!;
    const request = { kind: swap.kind, tokenIn: swap.tokenIn, tokenOut: swap.tokenOut, amountGivenRaw: swap.amountRaw };
    expect(() => vaultSwap(stale, request)).toThrow(Revert);
  });

  test('a timestamp before the last update (state and time from different blocks) is refused', () => {
    expect(() => at(-1n)).toThrow(Revert);
  });
});

describe('ReClamm price ratio update', () => {
  const start = 1_100_000_000_000_000_000n;
  const end = 1_210_000_000_000_000_000n;
  const range = { startFourthRootPriceRatio: start, endFourthRootPriceRatio: end };
  const window = { ...range, priceRatioUpdateStartTime: 1_000n, priceRatioUpdateEndTime: 2_000n };

  test('the fourth root of the price ratio moves geometrically from start to end', () => {
    expect(fourthRootPriceRatio(window, 900n)).toBe(start);
    expect(fourthRootPriceRatio(window, 2_500n)).toBe(end);
    expect(within(fourthRootPriceRatio(window, 1_500n), floorSqrt(start * end), 10n ** 6n)).toBe(true);
  });

  test('the range widens to the new price ratio and keeps the pool as centred as it was', () => {
    const base = reClammVectorState(v1InRange.pool);
    const balances = base.balancesLiveScaled18;
    const [lastA, lastB] = base.lastVirtualBalances;
    const ratioBefore = reClammPriceRatio(balances, lastA, lastB);
    const fourthRootBefore = floorSqrt(floorSqrt(ratioBefore * ONE) * ONE);
    const fourthRootAfter = (fourthRootBefore * 105n) / 100n;
    const state: ReClammState = {
      ...base,
      priceRatio: {
        startFourthRootPriceRatio: fourthRootBefore,
        endFourthRootPriceRatio: fourthRootAfter,
        priceRatioUpdateStartTime: base.lastTimestamp,
        priceRatioUpdateEndTime: base.lastTimestamp + DAY,
      },
    };
    const { virtualA, virtualB, changed } = currentVirtualBalances(state, balances, base.lastTimestamp + 2n * DAY);
    expect(changed).toBe(true);
    const ratioAfter = reClammPriceRatio(balances, virtualA, virtualB);
    const expectedRatio = fourthRootAfter ** 4n / ONE ** 3n;
    expect(within(ratioAfter, expectedRatio, expectedRatio / 10n ** 9n)).toBe(true);
    const before = reClammCenteredness(balances, lastA, lastB).centeredness;
    const after = reClammCenteredness(balances, virtualA, virtualB).centeredness;
    expect(within(after, before, 10n ** 9n)).toBe(true);
  });
});

describe('ReClamm state after an operation in the same block', () => {
  const pool = v2OutOfRange.pool;
  const now = pool.big('currentTimestamp');
  const state = reClammVectorState(pool);
  const swap = v2OutOfRange.swaps[0]!;
  const request = { kind: swap.kind, tokenIn: swap.tokenIn, tokenOut: swap.tokenOut, amountGivenRaw: swap.amountRaw };

  test('a second swap in the block prices on what the first stored, without moving time again', () => {
    const first = vaultSwap(reClammVectorPool(pool), request);
    const after = reClammStateAfterSwap(state, state.balancesLiveScaled18, now);
    expect(after.lastTimestamp).toBe(now);
    const moved = currentVirtualBalances(state, state.balancesLiveScaled18, now);
    expect(after.lastVirtualBalances).toEqual([moved.virtualA, moved.virtualB]);
    const balances = first.balancesLiveScaled18After;
    const second = currentVirtualBalances(after, balances, now);
    expect(second).toEqual({ virtualA: moved.virtualA, virtualB: moved.virtualB, changed: false });
    // Moving the stored state again from the new balances would price the second swap differently.
    const twice = currentVirtualBalances(state, balances, now);
    expect([twice.virtualA, twice.virtualB]).not.toEqual([moved.virtualA, moved.virtualB]);
  });

  test('a proportional add scales the virtual balances with the supply, keeping the centeredness', () => {
    const supply = state.totalSupply;
    const after = reClammStateAfterLiquidity(state, state.balancesLiveScaled18, now, supply, supply * 2n);
    const moved = currentVirtualBalances(state, state.balancesLiveScaled18, now);
    const [a, b] = after.lastVirtualBalances;
    expect(within(a, moved.virtualA * 2n, 1n) && within(b, moved.virtualB * 2n, 1n)).toBe(true);
    const doubled = state.balancesLiveScaled18.map((x) => x * 2n);
    const before = reClammCenteredness(state.balancesLiveScaled18, moved.virtualA, moved.virtualB).centeredness;
    expect(within(reClammCenteredness(doubled, a, b).centeredness, before, 10n)).toBe(true);
  });
});
