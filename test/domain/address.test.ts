import { AddressError, isAddress, parseAddress } from '../../src/domain/address';

describe('parseAddress', () => {
  it('takes any case and gives lower case', () => {
    expect(parseAddress('0xBA12222222228d8Ba445958a75a0704d566BF2C8')).toBe(
      '0xba12222222228d8ba445958a75a0704d566bf2c8',
    );
    expect(parseAddress('0xba12222222228d8ba445958a75a0704d566bf2c8')).toBe(
      '0xba12222222228d8ba445958a75a0704d566bf2c8',
    );
  });

  it('refuses what is not an address, naming the field and the value', () => {
    expect(() => parseAddress('0x1234', 'sellToken')).toThrow(
      new AddressError('sellToken: expected a 20-byte hex address (0x + 40 hex digits), got "0x1234"'),
    );
    expect(() => parseAddress('ba12222222228d8ba445958a75a0704d566bf2c8')).toThrow(
      /^address: .*got "ba12222222228d8ba445958a75a0704d566bf2c8"$/,
    );
    expect(() => parseAddress('0xZZ12222222228d8ba445958a75a0704d566bf2c8')).toThrow(/got "0xZZ12/);
    expect(() => parseAddress(42, 'wallet')).toThrow(/^wallet: .*got 42$/);
    expect(() => parseAddress(undefined, 'wallet')).toThrow(/^wallet: .*got undefined$/);
  });

  it('tells an address already in lower case from one that is not', () => {
    expect(isAddress('0xba12222222228d8ba445958a75a0704d566bf2c8')).toBe(true);
    expect(isAddress('0xBA12222222228d8Ba445958a75a0704d566BF2C8')).toBe(false);
    expect(isAddress('0x12')).toBe(false);
  });
});
