import { AbiCoder, Interface } from 'ethers';
import { encodedWords, wordDecoder, wordsDecoder } from '../../../src/sources/chainState/abiWords';

const IFACE = new Interface([
  'function getPoolTokens(bytes32 poolId) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)',
  'function getPausedState() view returns (bool paused, uint256 pauseWindowEndTime, uint256 bufferPeriodEndTime)',
  'function getNormalizedWeights() view returns (uint256[])',
  'function getRateProviders() view returns (address[])',
  'function getSwapFeePercentage() view returns (uint256)',
  'function name() view returns (string)',
  'function pair() view returns (uint256[2])',
]);

const decoder = (fn: string) => wordDecoder(IFACE.getFunction(fn)!);
const A = '0x1111111111111111111111111111111111111111';
const B = '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd';

/** What ethers decodes, with addresses lower-case as the reader keeps them. */
function viaEthers(fn: string, data: string): unknown[] {
  const lower = (v: unknown): unknown =>
    typeof v === 'string' ? v.toLowerCase() : Array.isArray(v) ? v.map(lower) : v;
  return [...IFACE.decodeFunctionResult(fn, data)].map(lower);
}

describe('wordDecoder', () => {
  it.each([
    ['getPoolTokens', [[A, B], [10n ** 24n, 7n], 123n]],
    ['getPoolTokens', [[], [], 0n]],
    ['getPausedState', [true, 2n ** 255n, 1n]],
    ['getPausedState', [false, 0n, 0n]],
    ['getNormalizedWeights', [[8n * 10n ** 17n, 2n * 10n ** 17n]]],
    ['getRateProviders', [[A, '0x0000000000000000000000000000000000000000', B]]],
    ['getSwapFeePercentage', [2n ** 256n - 1n]],
  ])('decodes %s as ethers does', (fn, values) => {
    const data = IFACE.encodeFunctionResult(fn, values);
    expect(decoder(fn)!(data)).toEqual(viaEthers(fn, data));
  });

  it('leaves strings and fixed-size arrays to ethers', () => {
    expect(decoder('name')).toBeUndefined();
    expect(decoder('pair')).toBeUndefined();
  });

  it('answers undefined for data that is not the getter’s answer', () => {
    const tokens = IFACE.encodeFunctionResult('getPoolTokens', [[A, B], [1n, 2n], 3n]);
    const decode = decoder('getPoolTokens')!;
    expect(decode(tokens.slice(0, -64))).toBeUndefined(); // cut short
    expect(decode('0x1234')).toBeUndefined(); // not whole words
    expect(decode(`0x${'00'.repeat(31)}ff${'00'.repeat(64)}`)).toBeUndefined(); // offset past the end
    const notAnAddress = `0x${'ff'.repeat(32)}`;
    expect(
      decoder('getRateProviders')!(`0x${'00'.repeat(31)}20${'00'.repeat(31)}01${notAnAddress.slice(2)}`),
    ).toBeUndefined();
  });
});

describe('wordsDecoder on signed words and a returned struct holding arrays', () => {
  const STRUCTS = new Interface([
    'function getECLPParams() view returns (tuple(int256 alpha, int256 beta) params, tuple(int256 u, int256 dSq) d)',
    'function getData() view returns (tuple(uint256[] balances, uint256 totalSupply, bool paused, int256[] words, uint256 time) data)',
  ]);

  it('reads int256 words in two’s complement, as ethers does', () => {
    const data = STRUCTS.encodeFunctionResult('getECLPParams', [
      [-(10n ** 38n), 2n ** 255n - 1n],
      [-1n, -(2n ** 255n)],
    ]);
    expect(wordsDecoder(['int256', 'int256', 'int256', 'int256'])(data)).toEqual([
      -(10n ** 38n),
      2n ** 255n - 1n,
      -1n,
      -(2n ** 255n),
    ]);
  });

  it('reads the fields of one returned struct, its arrays counted from the struct', () => {
    const data = STRUCTS.encodeFunctionResult('getData', [[[5n, 6n], 7n, true, [-129n, 0n, 3n], 1_747_699_223n]]);
    const types = ['uint256[]', 'uint256', 'bool', 'int256[]', 'uint256'] as const;
    expect(wordsDecoder(types, true)(data)).toEqual([[5n, 6n], 7n, true, [-129n, 0n, 3n], 1_747_699_223n]);
    // Read as if its fields were returned one by one, the struct's offset is no answer.
    expect(wordsDecoder(types)(data)).toBeUndefined();
  });
});

test('one-word arguments are encoded as ethers encodes them; other types and values out of range are left to it', () => {
  const coder = AbiCoder.defaultAbiCoder();
  const id = `0x${'ab'.repeat(20)}0002000000000000000000${'0f'}`;
  const inputs = ['bytes32', 'address', 'uint256', 'uint8'] as const;
  const args = [id, `0x${'cd'.repeat(20)}`, 2n ** 255n + 7n, 3] as const;
  expect(encodedWords(inputs, args)).toBe(coder.encode([...inputs], [...args]).slice(2));
  expect(encodedWords(['uint256[]'], [[1n]])).toBeUndefined();
  expect(encodedWords(['uint8'], [256])).toBeUndefined();
  expect(encodedWords(['address'], ['0x1234'])).toBeUndefined();
});
