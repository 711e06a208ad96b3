import type { PoolChainState } from '../../src/domain/chainState';
import { movesWithTime, needsReread, stateAt } from '../../src/domain/chainTime';
import { ownStateOf } from '../../src/domain/poolTypes/chainReads';
import {
  COMPOSABLE_STABLE_CHAIN,
  type ComposableStableChainState,
} from '../../src/domain/poolTypes/composableStable/composableStableReads';
import { LINEAR_CHAIN } from '../../src/domain/poolTypes/linear/linearReads';
import { ampAt } from '../../src/domain/poolTypes/stable/stableAmp';
import { LBP_CHAIN, type WeightedChainState } from '../../src/domain/poolTypes/weighted/weightedReads';
import { storedEndWeight, storedStartWeight, weightsAt } from '../../src/domain/poolTypes/weighted/weightUpdate';

/**
 * State that moves with time and no event, as a swap in a later block sees it: an amp ramp at the
 * swap's timestamp, a rate cache that has expired by then (the swap refreshes it from the
 * provider first) and a liquidity bootstrapping pool's weights during a gradual update.
 */

const TOKEN = '0x' + '11'.repeat(20);
const OTHER = '0x' + '22'.repeat(20);
const E18 = 10n ** 18n;

const composable = (poolId: string, state: ComposableStableChainState): PoolChainState => ({
  poolId,
  tokens: [],
  own: { reads: COMPOSABLE_STABLE_CHAIN, state },
});
const composableOf = (s: PoolChainState) => ownStateOf(COMPOSABLE_STABLE_CHAIN, s.own)!;
const lbp = (state: WeightedChainState): PoolChainState => ({
  poolId: '0xlbp',
  tokens: [],
  own: { reads: LBP_CHAIN, state },
});
const weightsOf = (s: PoolChainState) => ownStateOf(LBP_CHAIN, s.own)!.weights;

const cached: PoolChainState = composable('0xpool', {
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
});

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
  const s = composable('0xpool', {
    amp: { value: 120_000n, precision: 1_000n },
    ampRamp: { startValue: 120_000n, endValue: 240_000n, startTime: 0n, endTime: 86_400n },
  });
  expect(composableOf(stateAt(s, 43_200)).amp).toEqual({ value: 180_000n, precision: 1_000n });
  expect(needsReread(s, 43_200)).toBe(false);
});

test('a rate cache is used up to its expiry; a swap after it uses the provider rate, old rates unchanged', () => {
  expect(stateAt(cached, 1_000)).toBe(cached);
  const after = stateAt(cached, 1_001);
  expect(composableOf(after).rates?.get(TOKEN)).toBe(1_023_456_789_012_345_678n);
  expect(composableOf(after).rates?.get(OTHER)).toBe(E18);
  expect(composableOf(after).oldRates?.get(TOKEN)).toBe(E18);
  // The raw cache stays, so evaluating again at another time starts from what was read.
  expect(composableOf(stateAt(after, 999)).rates?.get(TOKEN)).toBe(1_010_000_000_000_000_000n);
});

test('an expired cache whose provider answered is read again at each head; a fresh one or a ramp is not', () => {
  expect(needsReread(cached, 1_000)).toBe(false);
  expect(needsReread(cached, 1_001)).toBe(true);
  const noProvider = composable('0xpool', {
    ...composableOf(cached),
    rateCaches: new Map([[TOKEN, { rate: E18, oldRate: E18, duration: 600n, expires: 0n }]]),
  });
  expect(needsReread(noProvider, 5_000)).toBe(false);
  expect(composableOf(stateAt(noProvider, 5_000)).rates?.get(TOKEN)).toBe(E18);
  const linear: PoolChainState = {
    poolId: '0xlinear',
    tokens: [],
    own: { reads: LINEAR_CHAIN, state: { targets: { lower: 0n, upper: E18 } } },
  };
  expect(needsReread(linear, 0)).toBe(true);
});

// A 90/10 -> 40/60 update over three days from t = 1000, as LiquidityBootstrappingPool stores it.
const DAYS_3 = 259_200n;
const lbpUpdate = {
  startTime: 1_000n,
  endTime: 1_000n + DAYS_3,
  startWeights: [storedStartWeight(9n * 10n ** 17n), storedStartWeight(E18 / 10n)],
  endWeights: [storedEndWeight(4n * 10n ** 17n), storedEndWeight(6n * 10n ** 17n)],
};

test('weights are kept as the pool stores them: start weights in 31 bits, end weights in 16, rounded up', () => {
  // compress31(0.9) = ceil(0.9 * (2^31 - 1)) = 1932735283; uncompressed: ceil(1932735283e18 / (2^31 - 1)).
  expect(lbpUpdate.startWeights).toEqual([900_000_000_325_962_902n, 100_000_000_139_698_387n]);
  // 0.4 * 65535 and 0.6 * 65535 are whole: the 16-bit end weights are exact.
  expect(lbpUpdate.endWeights).toEqual([4n * 10n ** 17n, 6n * 10n ** 17n]);
  // A weight that is not a whole number of 16-bit steps comes back rounded up: ceil(19661 * 1e18 / 65535), 19661 = ceil(0.3 * 65535).
  expect(storedEndWeight(3n * 10n ** 17n)).toBe(300_007_629_510_948_349n);
});

test('weights move as the contract computes them: progress rounded down, then each weight by progress times distance, rounded down', () => {
  // Before and at the start: the start weights (their sum is above 1e18, as on chain).
  expect(weightsAt(lbpUpdate, 999n)).toEqual(lbpUpdate.startWeights);
  expect(weightsAt(lbpUpdate, 1_000n)).toEqual(lbpUpdate.startWeights);
  // One second in: progress = floor(1e18 / 259200) = 3858024691358;
  // 0.9... - floor(3858024691358 * (900000000325962902 - 4e17) / 1e18) and likewise upwards.
  expect(weightsAt(lbpUpdate, 1_001n)).toEqual([899_998_071_313_615_966n, 100_001_929_152_043_527n]);
  // Half way: progress is exactly 0.5.
  expect(weightsAt(lbpUpdate, 1_000n + DAYS_3 / 2n)).toEqual([650_000_000_162_981_451n, 350_000_000_069_849_193n]);
  expect(weightsAt(lbpUpdate, 1_000n + DAYS_3 - 1n)).toEqual([400_001_929_012_346_938n, 599_998_070_987_654_859n]);
  // At the end and after: the end weights.
  expect(weightsAt(lbpUpdate, 1_000n + DAYS_3)).toEqual(lbpUpdate.endWeights);
  expect(weightsAt(lbpUpdate, 10n ** 10n)).toEqual(lbpUpdate.endWeights);
  // A zero-length update is done at once.
  expect(weightsAt({ ...lbpUpdate, endTime: lbpUpdate.startTime }, 1_000n)).toEqual(lbpUpdate.endWeights);
});

test('an LBP during a weight update quotes at the weights of the quote timestamp and is not read again for it', () => {
  const s = lbp({ weights: weightsAt(lbpUpdate, 1_000n), weightUpdate: lbpUpdate, swapEnabled: true });
  expect(stateAt(s, 1_000)).toBe(s);
  expect(weightsOf(stateAt(s, 1_001))).toEqual([899_998_071_313_615_966n, 100_001_929_152_043_527n]);
  expect(movesWithTime(s)).toBe(true);
  expect(needsReread(s, 1_001)).toBe(false);
  const done = lbp({ weights: lbpUpdate.endWeights });
  expect(movesWithTime(done)).toBe(false);
  expect(stateAt(done, 99_999_999)).toBe(done);
});
