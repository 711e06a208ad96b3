import { parseMinLiquidity, parseOrderBody, parseSorBody, RequestError } from '../../src/routing/requestSchema';

const WETH = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2';
const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
const SENDER = '0x1111111111111111111111111111111111111111';
const base = { sellToken: WETH, buyToken: DAI, orderKind: 'sell', amount: '1000', gasPrice: '0' };

function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RequestError);
    return (e as Error).message;
  }
  throw new Error('expected a RequestError');
}

describe('/sor body', () => {
  test('accepts any address case, decimal strings and safe JSON integers', () => {
    const b = parseSorBody({ ...base, amount: 1000, gasPrice: 30_000_000_000, orderKind: 'buy', extra: 'ignored' });
    expect(b).toEqual({
      sellToken: WETH.toLowerCase(),
      buyToken: DAI,
      orderKind: 'buy',
      amount: 1000n,
      gasPrice: 30_000_000_000n,
    });
    expect(parseSorBody({ ...base, amount: (2n ** 256n - 1n).toString() }).amount).toBe(2n ** 256n - 1n);
  });

  test.each([
    ['sellToken', { sellToken: undefined }, /sellToken: is required/],
    ['sellToken', { sellToken: '0x123' }, /sellToken: expected a 20-byte hex address/],
    ['buyToken', { buyToken: 'DAI' }, /buyToken: expected a 20-byte hex address/],
    ['buyToken', { buyToken: WETH.toLowerCase() }, /buyToken: must differ from sellToken/],
    ['orderKind', { orderKind: 'swap' }, /orderKind: expected 'sell'/],
    ['orderKind', { orderKind: undefined }, /orderKind: is required/],
    ['amount', { amount: '0' }, /amount: expected a positive integer/],
    ['amount', { amount: '-5' }, /amount: expected a positive integer/],
    ['amount', { amount: '1.5' }, /amount: expected a positive integer/],
    ['amount', { amount: '1e18' }, /amount: expected a positive integer/],
    ['amount', { amount: (2n ** 256n).toString() }, /amount: expected a positive integer .* got 1157/],
    ['amount', { amount: 1.5 }, /amount: .*lose precision/],
    ['amount', { amount: 1e21 }, /amount: .*send "1e\+21" as a string of digits/],
    ['amount', { amount: true }, /amount: expected a positive integer/],
    ['gasPrice', { gasPrice: '-1' }, /gasPrice: expected a non-negative integer/],
    ['gasPrice', { gasPrice: undefined }, /gasPrice: is required/],
  ])('%s: %j', (_field, patch, message) => {
    expect(errorOf(() => parseSorBody({ ...base, ...patch }))).toMatch(message);
  });

  test('a body that is not an object says what to send', () => {
    expect(errorOf(() => parseSorBody([1, 2]))).toMatch(/JSON object body/);
    expect(errorOf(() => parseSorBody('x'))).toMatch(/JSON object body/);
  });
});

describe('/order body', () => {
  const order = { ...base, sender: SENDER };

  test('a wallet address is accepted all lower case, all upper case or with a valid checksum', () => {
    for (const r of [
      '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
      '0x70997970C51812DC3A010C7D01B50E0D17DC79C8',
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    ]) {
      expect(parseOrderBody({ ...order, receiver: r }).receiver).toBe('0x70997970c51812dc3a010c7d01b50e0d17dc79c8');
    }
  });

  test('defaults: receiver = sender, slippage 0.01, no deadline', () => {
    expect(parseOrderBody(order)).toMatchObject({ receiver: SENDER, slippage: '0.01', deadline: undefined });
  });

  test('recipient is an alias of receiver; slippage is kept exact', () => {
    const r = '0x2222222222222222222222222222222222222222';
    expect(parseOrderBody({ ...order, recipient: r }).receiver).toBe(r);
    expect(parseOrderBody({ ...order, receiver: r, recipient: r }).receiver).toBe(r);
    expect(parseOrderBody({ ...order, slippagePercentage: 0.999999 }).slippage).toBe('0.999999');
    expect(parseOrderBody({ ...order, slippagePercentage: 1e-7 }).slippage).toBe('0.0000001');
    expect(parseOrderBody({ ...order, slippagePercentage: 0 }).slippage).toBe('0');
    expect(parseOrderBody({ ...order, slippagePercentage: '0.5' }).slippage).toBe('0.5');
    expect(parseOrderBody({ ...order, deadline: '1900000000' }).deadline).toBe(1_900_000_000);
  });

  test.each([
    ['sender', { sender: undefined }, /sender: is required/],
    ['sender', { sender: 'me' }, /sender: expected a 20-byte hex address/],
    ['receiver', { receiver: '0xzz' }, /receiver: expected a 20-byte hex address/],
    ['recipient', { recipient: 12 }, /recipient: expected a 20-byte hex address/],
    [
      'receiver',
      {
        receiver: '0x2222222222222222222222222222222222222222',
        recipient: '0x3333333333333333333333333333333333333333',
      },
      /receiver: differs from recipient/,
    ],
    [
      'slippagePercentage',
      { slippagePercentage: 1 },
      /slippagePercentage: expected a number from 0 \(inclusive\) to 1 \(exclusive\)/,
    ],
    ['slippagePercentage', { slippagePercentage: -0.01 }, /slippagePercentage: expected a number from 0/],
    ['slippagePercentage', { slippagePercentage: 'lots' }, /slippagePercentage: expected a number from 0/],
    ['deadline', { deadline: 'tomorrow' }, /deadline: expected a unix timestamp in seconds/],
    ['deadline', { deadline: 1.5 }, /deadline: expected a unix timestamp in seconds/],
    ['deadline', { deadline: 1_795_000_000_000 }, /deadline: .*looks like milliseconds.*Math\.floor\(ms \/ 1000\)/],
    // The cut-off is 1e11 seconds, in the year 5138: the message says so, not another year.
    ['deadline', { deadline: 100_000_000_000 }, /deadline: .*at or past 100000000000, the year 5138\)/],
    [
      'slippagePercentage',
      { slippagePercentage: Infinity },
      /slippagePercentage: expected a number from 0 .*, got Infinity/,
    ],
    [
      'receiver',
      { receiver: '0x0000000000000000000000000000000000000000' },
      /receiver: .* is the zero address, not a wallet: tokens sent there are lost/,
    ],
    [
      'recipient',
      { recipient: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' },
      /recipient: .* is the native-asset marker, not a wallet/,
    ],
    ['sender', { sender: '0x0000000000000000000000000000000000000000' }, /sender: .* is the zero address/],
    [
      'receiver',
      { receiver: '0x70997970c51812DC3A010C7d01b50e0d17dc79C8' },
      /receiver: .* is mixed case but not a valid EIP-55 checksum/,
    ],
  ])('%s: %j', (_field, patch, message) => {
    expect(errorOf(() => parseOrderBody({ ...order, ...patch }))).toMatch(message);
  });
});

describe('protocolVersion', () => {
  test('absent on /sor and /order: not set (V2 for /sor, the better of both for /order)', () => {
    expect(parseSorBody(base).protocolVersion).toBeUndefined();
    expect(parseOrderBody({ ...base, sender: SENDER }).protocolVersion).toBeUndefined();
  });

  test.each([2, 3, '2', '3'])('%p is taken as a number', (v) => {
    expect(parseSorBody({ ...base, protocolVersion: v }).protocolVersion).toBe(Number(v));
    expect(parseOrderBody({ ...base, sender: SENDER, protocolVersion: v }).protocolVersion).toBe(Number(v));
  });

  test.each([1, 4, '3.0', 'v3', null, true])('%p is refused naming the field and the values it takes', (v) => {
    const message = errorOf(() => parseSorBody({ ...base, protocolVersion: v }));
    expect(message).toMatch(/^protocolVersion: /);
    expect(message).toMatch(/2 \(Balancer V2\) or 3 \(Balancer V3\)/);
  });
});

describe('minLiquidity', () => {
  test('absent -> default; numbers accepted; anything else names the parameter', () => {
    expect(parseMinLiquidity(undefined, 100)).toBe(100);
    expect(parseMinLiquidity('0', 100)).toBe(0);
    expect(parseMinLiquidity('2500.5', 100)).toBe(2500.5);
    expect(errorOf(() => parseMinLiquidity('-1', 100))).toMatch(/minLiquidity: expected a non-negative number/);
    expect(errorOf(() => parseMinLiquidity(['1', '2'], 100))).toMatch(/minLiquidity/);
  });
});
