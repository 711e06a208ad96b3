import type { PoolChainState } from '../../src/domain/chainState';
import { ampAt, needsReread, stateAt } from '../../src/domain/chainTime';

/**
 * State that moves with time and no event, as a swap in a later block sees it: an amp ramp at the
 * swap's timestamp and a rate cache that has expired by then (the swap refreshes it from the
 * provider first).
 */

const TOKEN = '0x' + '11'.repeat(20);
const OTHER = '0x' + '22'.repeat(20);
const E18 = 10n ** 18n;

const cached: PoolChainState = {
  poolId: '0xpool',
  tokens: [],
  rates: new Map([
    [TOKEN, 1_010_000_000_000_000_000n],
    [OTHER, E18],
  ]),
  oldRates: new Map([[TOKEN, 1_000_000_000_000_000_000n]]),
  rateCaches: new Map([
    [
      TOKEN,
      {
        rate: 1_010_000_000_000_000_000n,
        oldRate: 1_000_000_000_000_000_000n,
        duration: 600n,
        expires: 1_000n,
        providerRate: 1_023_456_789_012_345_678n,
      },
    ],
  ]),
};

test('a ramp moves the amp as the contract does: linear in whole seconds, rounded down, then its end value', () => {
  const up = { startValue: 120_000n, endValue: 240_000n, startTime: 1_000n, endTime: 87_400n };
  expect(ampAt(up, 1_000n)).toBe(120_000n);
  // 120000 * 7 / 86400 = 9.72...: the contract's integer division gives 9.
  expect(ampAt(up, 1_007n)).toBe(120_009n);
  expect(ampAt(up, 87_399n)).toBe(239_998n);
  expect(ampAt(up, 87_400n)).toBe(240_000n);
  expect(ampAt(up, 99_999n)).toBe(240_000n);
  const down = { startValue: 240_000n, endValue: 120_000n, startTime: 1_000n, endTime: 87_400n };
  // 240000 - floor(120000 * 7 / 86400) = 240000 - 9.
  expect(ampAt(down, 1_007n)).toBe(239_991n);
});

test('a pool with a ramp quotes at the amp of the quote timestamp, keeping its precision', () => {
  const s: PoolChainState = {
    poolId: '0xpool',
    tokens: [],
    amp: { value: 120_000n, precision: 1_000n },
    ampRamp: { startValue: 120_000n, endValue: 240_000n, startTime: 0n, endTime: 86_400n },
  };
  expect(stateAt(s, 43_200).amp).toEqual({ value: 180_000n, precision: 1_000n });
  expect(needsReread(s, 43_200)).toBe(false);
});

test('a rate cache is used up to its expiry; a swap after it uses the provider rate, old rates unchanged', () => {
  expect(stateAt(cached, 1_000)).toBe(cached);
  const after = stateAt(cached, 1_001);
  expect(after.rates?.get(TOKEN)).toBe(1_023_456_789_012_345_678n);
  expect(after.rates?.get(OTHER)).toBe(E18);
  expect(after.oldRates?.get(TOKEN)).toBe(E18);
  // The raw cache stays, so evaluating again at another time starts from what was read.
  expect(stateAt(after, 999).rates?.get(TOKEN)).toBe(1_010_000_000_000_000_000n);
});

test('an expired cache whose provider answered is read again at each head; a fresh one or a ramp is not', () => {
  expect(needsReread(cached, 1_000)).toBe(false);
  expect(needsReread(cached, 1_001)).toBe(true);
  const noProvider: PoolChainState = {
    ...cached,
    rateCaches: new Map([[TOKEN, { rate: E18, oldRate: E18, duration: 600n, expires: 0n }]]),
  };
  expect(needsReread(noProvider, 5_000)).toBe(false);
  expect(stateAt(noProvider, 5_000).rates?.get(TOKEN)).toBe(E18);
  const linear: PoolChainState = { poolId: '0xlinear', tokens: [], targets: { lower: 0n, upper: E18 } };
  expect(needsReread(linear, 0)).toBe(true);
});
