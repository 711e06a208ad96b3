import {
  compareDecimal,
  decimalToUnits,
  isZeroDecimal,
  toPlainDecimal,
  unitsToDecimal,
} from '../../src/domain/decimal';

describe('exact decimals', () => {
  test.each([
    ['0.0', undefined, '0'],
    ['2900000.0', undefined, '2900000'],
    ['1e-7', undefined, '0.0000001'],
    ['1E+3', undefined, '1000'],
    ['-0.000', undefined, '0'],
    ['000123.4500', undefined, '123.45'],
    ['.5', undefined, '0.5'],
    ['5192296767907031.501338248588350849', 6, '5192296767907031.501338'],
    ['0.1234567', 6, '0.123456'],
    ['0.0000001', 6, '0'],
    ['12345678901234567890123456789.123456789012345678901', 18, '12345678901234567890123456789.123456789012345678'],
  ])('%s (max %s fraction digits) -> %s', (input, max, out) => {
    expect(toPlainDecimal(input, max)).toBe(out);
  });

  test('units conversion is exact beyond 2^53', () => {
    expect(decimalToUnits('123456789.123456789123456789', 18)).toBe(123456789123456789123456789n);
    expect(decimalToUnits('1e-7', 18)).toBe(100000000000n);
    expect(decimalToUnits('0.0000001', 6)).toBe(0n);
    expect(unitsToDecimal(123456789123456789123456789n, 18)).toBe('123456789.123456789123456789');
    expect(unitsToDecimal(5n, 6)).toBe('0.000005');
    expect(unitsToDecimal(-1500000n, 6)).toBe('-1.5');
    const max = 2n ** 256n - 1n;
    expect(decimalToUnits(unitsToDecimal(max, 18), 18)).toBe(max);
  });

  test('garbage is refused', () => {
    for (const bad of ['', 'abc', '1.2.3', '0x10', '1e', 'NaN', 'Infinity'])
      expect(() => toPlainDecimal(bad)).toThrow(/not a decimal/);
  });

  test('zero detection and comparison', () => {
    expect(isZeroDecimal('0.0')).toBe(true);
    expect(isZeroDecimal('0e10')).toBe(true);
    expect(isZeroDecimal('0.0001')).toBe(false);
    expect(compareDecimal('0.01', '0.010')).toBe(0);
    expect(compareDecimal('1e-7', '0.0000002')).toBe(-1);
    expect(compareDecimal('100000000000000000000000.1', '100000000000000000000000')).toBe(1);
  });
});
