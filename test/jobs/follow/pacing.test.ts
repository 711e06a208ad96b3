import { nextDelay, NO_BLOCK_WANTED, wantedAfter, type PaceInput } from '../../../src/jobs/follow/pacing';

/** When the follower polls next: what an operator sees as RPC load and as the served state's lag. */
const at = (over: Partial<PaceInput> = {}): PaceInput => ({
  failures: 0,
  nudged: false,
  heads: 'polling',
  intervalMs: 1_000,
  wanted: NO_BLOCK_WANTED,
  stateBlock: 100,
  now: 0,
  ...over,
});

test('a healthy follower polls at the interval', () => {
  expect(nextDelay(at())).toBe(1_000);
});

test('failures back off, doubling up to 30 s', () => {
  expect([1, 2, 3, 4, 5, 20].map((failures) => nextDelay(at({ failures })))).toEqual([
    2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
  ]);
});

test('a nudge reads again at once, unless the node is failing', () => {
  expect(nextDelay(at({ nudged: true }))).toBe(0);
  expect(nextDelay(at({ nudged: true, failures: 1 }))).toBe(2_000);
});

test('a wanted block the state lacks is asked for every 100 ms until its time runs out', () => {
  const wanted = { block: 101, until: 5_000 };
  expect(nextDelay(at({ wanted }))).toBe(100);
  expect(nextDelay(at({ wanted, now: 5_000 }))).toBe(1_000);
  expect(nextDelay(at({ wanted, stateBlock: 101 }))).toBe(1_000);
  // An interval below the catch-up pace keeps the interval.
  expect(nextDelay(at({ wanted, intervalMs: 50 }))).toBe(50);
});

test('with a live subscription the timer polls ten times less often, at most every 30 s', () => {
  expect(nextDelay(at({ heads: 'subscription' }))).toBe(10_000);
  expect(nextDelay(at({ heads: 'subscription', intervalMs: 5_000 }))).toBe(30_000);
  expect(nextDelay(at({ heads: 'subscription', intervalMs: 60_000 }))).toBe(60_000);
});

test('a newer wanted block replaces the last; the same one extends its time; an older one changes nothing', () => {
  const first = wantedAfter(NO_BLOCK_WANTED, 10, 0, 5_000);
  expect(first).toEqual({ block: 10, until: 5_000 });
  expect(wantedAfter(first, 11, 1_000, 5_000)).toEqual({ block: 11, until: 6_000 });
  expect(wantedAfter(first, 10, 2_000, 5_000)).toEqual({ block: 10, until: 7_000 });
  expect(wantedAfter(first, 10, 1_000, 1_000)).toEqual({ block: 10, until: 5_000 });
  expect(wantedAfter(first, 9, 1_000, 5_000)).toBe(first);
  // Once its time ran out, any block is wanted afresh.
  expect(wantedAfter(first, 9, 6_000, 5_000)).toEqual({ block: 9, until: 11_000 });
});
