import {
  decimalFraction,
  INT256_MAX,
  LimitError,
  maxIn,
  minOut,
  signedLimits,
  UINT256_MAX,
} from '../../src/routing/limits';

describe('slippage arithmetic', () => {
  test('slippage 0 keeps the quoted amount on both sides', () => {
    expect(minOut(123456789n, '0')).toBe(123456789n);
    expect(maxIn(123456789n, '0')).toBe(123456789n);
  });

  test('1% rounds the minimum down and the maximum up', () => {
    // 999 * 0.99 = 989.01 -> 989; 999 * 1.01 = 1008.99 -> 1009
    expect(minOut(999n, '0.01')).toBe(989n);
    expect(maxIn(999n, '0.01')).toBe(1009n);
    // exact multiples stay exact
    expect(minOut(1000n, '0.01')).toBe(990n);
    expect(maxIn(1000n, '0.01')).toBe(1010n);
  });

  test('0.999999 leaves a millionth of the output and nearly doubles the input', () => {
    expect(minOut(10n ** 18n, '0.999999')).toBe(10n ** 12n);
    expect(minOut(999_999n, '0.999999')).toBe(0n);
    expect(maxIn(10n ** 18n, '0.999999')).toBe(2n * 10n ** 18n - 10n ** 12n);
  });

  test('exponent forms of tiny slippages are exact', () => {
    expect(decimalFraction('1e-7')).toEqual({ num: 1n, den: 10n ** 7n });
    expect(minOut(10n ** 7n, '1e-7')).toBe(10n ** 7n - 1n);
    expect(maxIn(1n, '1e-7')).toBe(2n);
  });

  test('slippage of 1 or more, or negative, is refused', () => {
    expect(() => minOut(1n, '1')).toThrow(LimitError);
    expect(() => maxIn(1n, '1.5')).toThrow(LimitError);
    expect(() => minOut(1n, '-0.1')).toThrow(LimitError);
  });

  test('amounts near 2^256-1 do not lose a wei', () => {
    expect(minOut(UINT256_MAX, '0.5')).toBe(UINT256_MAX / 2n);
    expect(maxIn(UINT256_MAX, '0')).toBe(UINT256_MAX);
  });
});

describe('signed Vault limits', () => {
  test('sell: the in-token may take the amount, the out-token must pay at least minOut', () => {
    const l = signedLimits({
      kind: 'sell',
      assetCount: 3,
      inIndex: 2,
      outIndex: 0,
      amount: 500n,
      returnAmount: 1000n,
      slippage: '0.01',
    });
    expect(l.limits).toEqual([-990n, 0n, 500n]);
    expect(l.maxPaid).toBe(500n);
    expect(l.minReceived).toBe(990n);
  });

  test('buy: the in-token may take at most maxIn, the out-token must pay the amount', () => {
    const l = signedLimits({
      kind: 'buy',
      assetCount: 2,
      inIndex: 0,
      outIndex: 1,
      amount: 7n,
      returnAmount: 999n,
      slippage: '0.01',
    });
    expect(l.limits).toEqual([1009n, -7n]);
  });

  test('limits that do not fit int256 are refused, not wrapped', () => {
    expect(() =>
      signedLimits({
        kind: 'sell',
        assetCount: 2,
        inIndex: 0,
        outIndex: 1,
        amount: INT256_MAX + 1n,
        returnAmount: 1n,
        slippage: '0',
      }),
    ).toThrow(LimitError);
    expect(() =>
      signedLimits({
        kind: 'buy',
        assetCount: 2,
        inIndex: 0,
        outIndex: 1,
        amount: 1n,
        returnAmount: INT256_MAX,
        slippage: '0.01',
      }),
    ).toThrow(LimitError);
    const edge = signedLimits({
      kind: 'sell',
      assetCount: 2,
      inIndex: 0,
      outIndex: 1,
      amount: INT256_MAX,
      returnAmount: INT256_MAX,
      slippage: '0',
    });
    expect(edge.limits).toEqual([INT256_MAX, -INT256_MAX]);
  });
});
