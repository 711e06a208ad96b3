import { divDown, mulDown, ONE } from '../../../../src/domain/swap/math/fixedPoint';
import { Revert } from '../../../../src/domain/swap/math/revert';
import {
  postJoinExitFeeBpt,
  preJoinExitFeeBpt,
  v1DueProtocolFee,
  weightedInvariant,
  weightedRateProduct,
  yieldOwnership,
} from '../../../../src/domain/poolTypes/weighted/weightedFees';

/**
 * The weighted v2+ protocol swap fee rule in isolation (the devnet suite test/devnet/weightedFees.test.ts
 * checks it against the contracts): what is minted before and after a join or exit.
 */
const E18 = 10n ** 18n;
const supply = 1_000_000n * E18;
const half = E18 / 2n;

test('nothing is due when the invariant did not grow, or fell, or the fee percentage is zero', () => {
  const last = 2_000_000n * E18;
  expect(preJoinExitFeeBpt(last, supply, { lastInvariant: last, swapPct: half })).toBe(0n);
  expect(preJoinExitFeeBpt(last - 1n, supply, { lastInvariant: last, swapPct: half })).toBe(0n);
  expect(preJoinExitFeeBpt(last * 2n, supply, { lastInvariant: last, swapPct: 0n })).toBe(0n);
});

test("1 % invariant growth at a 50 % fee mints the protocol's share of it: p = (1 - 1/1.01) / 2 of the grown supply", () => {
  const last = 2_000_000n * E18;
  const grown = (last * 101n) / 100n;
  const p = mulDown(ONE - divDown(ONE, divDown(grown, last)), half);
  const minted = preJoinExitFeeBpt(grown, supply, { lastInvariant: last, swapPct: half });
  expect(minted).toBe((supply * p) / (ONE - p));
  // 0.495 % of the supply after minting.
  expect(Number((minted * 10n ** 6n) / (supply + minted))).toBe(4950);
});

test('a join that grows the invariant no faster than the supply owes nothing after it; a fee-charging one does', () => {
  const weights = [E18 / 2n, E18 / 2n];
  const pre = weightedInvariant(weights, [1000n * E18, 1000n * E18]);
  const proportional = weightedInvariant(weights, [1100n * E18, 1100n * E18]);
  expect(postJoinExitFeeBpt(pre, proportional, supply, (supply * 11n) / 10n, half)).toBe(0n);
  // The same invariant growth for 9 % more supply (the rest was the join's swap fee).
  expect(postJoinExitFeeBpt(pre, proportional, supply, (supply * 109n) / 100n, half)).toBeGreaterThan(0n);
  expect(postJoinExitFeeBpt(pre, proportional, supply, (supply * 109n) / 100n, 0n)).toBe(0n);
});

describe('weighted v1: the due fee is paid in the largest-weight token', () => {
  const balance = 120_000n * E18;
  const w = (6n * E18) / 10n;
  const last = 2_000_000n * E18;

  test('nothing is due without growth or with a zero percentage', () => {
    expect(v1DueProtocolFee(balance, w, last, last, half)).toBe(0n);
    expect(v1DueProtocolFee(balance, w, last, last - 1n, half)).toBe(0n);
    expect(v1DueProtocolFee(balance, w, last, last * 2n, 0n)).toBe(0n);
  });

  test('1 % growth at 50 %: half of the token balance that carries the growth, balance * (1 - (1/1.01)^(1/w)) / 2', () => {
    const due = v1DueProtocolFee(balance, w, last, (last * 101n) / 100n, half);
    const expected = (120_000 * (1 - (1 / 1.01) ** (1 / 0.6))) / 2;
    expect(Math.abs(Number(due) / 1e18 - expected)).toBeLessThan(1e-6);
  });

  test('growth beyond 1 / 0.7 is charged as if it were 1 / 0.7 (the power base is floored)', () => {
    const atFloor = v1DueProtocolFee(balance, w, 7n * E18, 10n * E18, half);
    expect(v1DueProtocolFee(balance, w, 7n * E18, 20n * E18, half)).toBe(atFloor);
    expect(v1DueProtocolFee(balance, w, 7n * E18, 9n * E18, half)).toBeLessThan(atFloor);
  });
});

describe('the yield part (pools with a rate provider)', () => {
  const last = 2_000_000n * E18;
  const yieldOf = (rateProduct: bigint) => ({ athRateProduct: E18, rateProduct, yieldPct: half });

  test('nothing while the rate product is at or below its all-time high; the high stays', () => {
    expect(yieldOwnership(yieldOf(E18))).toEqual({ percentage: 0n });
    expect(yieldOwnership(yieldOf(E18 - 1n))).toEqual({ percentage: 0n });
    expect(preJoinExitFeeBpt(last, supply, { lastInvariant: last, swapPct: half, yield: yieldOf(E18 - 1n) })).toBe(0n);
  });

  test('5 % above the high at a 50 % yield fee: p = (1 - 1/1.05) / 2, and the product is the new high', () => {
    const product = (E18 * 105n) / 100n;
    const p = mulDown(ONE - divDown(ONE, divDown(product, E18)), half);
    expect(yieldOwnership(yieldOf(product))).toEqual({ percentage: p, newHigh: product });
    const minted = preJoinExitFeeBpt(last, supply, { lastInvariant: last, swapPct: half, yield: yieldOf(product) });
    expect(minted).toBe((supply * p) / (ONE - p));
  });

  test('swap and yield percentages are added, then minted in one division (not two mintings)', () => {
    const product = (E18 * 105n) / 100n;
    const grown = (last * 101n) / 100n;
    const swapP = mulDown(ONE - divDown(ONE, divDown(grown, last)), half);
    const yieldP = yieldOwnership(yieldOf(product)).percentage;
    const both = preJoinExitFeeBpt(grown, supply, { lastInvariant: last, swapPct: half, yield: yieldOf(product) });
    expect(both).toBe((supply * (swapP + yieldP)) / (ONE - swapP - yieldP));
    const apart = (supply * swapP) / (ONE - swapP) + (supply * yieldP) / (ONE - yieldP);
    expect(both).not.toBe(apart);
  });

  test('a zero high with a product above it divides by zero, as the pool reverts', () => {
    expect(() => yieldOwnership({ athRateProduct: 0n, rateProduct: E18, yieldPct: half })).toThrow(Revert);
  });

  test('the rate product: tokens without a provider count 1, an exponent of 1 is exact', () => {
    expect(weightedRateProduct([half, half], [null, null])).toBe(ONE);
    // A single weight of 1 takes powDown's shortcut: the rate itself.
    expect(weightedRateProduct([ONE], [1_234_567_890_123_456_789n])).toBe(1_234_567_890_123_456_789n);
  });
});
