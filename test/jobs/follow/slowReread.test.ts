import type { StoredPool } from '../../../src/domain/pool';
import {
  BUFFER_READ_CALLS,
  nextRecheck,
  RecheckBudget,
  SlowReread,
  tokensInTurn,
} from '../../../src/jobs/follow/slowReread';

/** The tokens found without a buffer are asked again in turn, within the re-read's calls. */

test('tokens come in sorted turn after the cursor, wrapping round', () => {
  const tokens = new Set(['0xc', '0xa', '0xb']);
  expect(tokensInTurn(tokens, '', 2)).toEqual(['0xa', '0xb']);
  expect(tokensInTurn(tokens, '0xb', 2)).toEqual(['0xc', '0xa']);
  expect(tokensInTurn(tokens, '0xc', 5)).toEqual(['0xa', '0xb', '0xc']);
  expect(tokensInTurn(tokens, '', 0)).toEqual([]);
});

test("each token costs a buffer's read of the calls accrued, and the next block goes on from there", () => {
  const reread = new SlowReread(BUFFER_READ_CALLS, 0);
  const tokens = new Set(['0xa', '0xb', '0xc']);
  expect(reread.tokens(tokens, 2_000)).toEqual(['0xa', '0xb']);
  expect(reread.tokens(tokens, 2_500)).toEqual([]);
  expect(reread.tokens(tokens, 3_000)).toEqual(['0xc']);
  expect(reread.tokens(tokens, 4_000)).toEqual(['0xa']);
});

test('a pool turn moves on only once its block was read', () => {
  const pools = ['0x1', '0x2', '0x3'].map((id) => ({ id }) as never);
  const reread = new SlowReread(1, 0);
  const first = reread.pools(pools, new Set(), () => 1, 1_000);
  expect(first.pools.map((p: { id: string }) => p.id)).toEqual(['0x1']);
  // The step failed: the same pool comes again.
  expect(reread.pools(pools, new Set(), () => 1, 2_000).pools.map((p: { id: string }) => p.id)).toEqual(['0x1']);
  reread.pools(pools, new Set(), () => 1, 3_000).passed();
  expect(reread.pools(pools, new Set(), () => 1, 4_000).pools.map((p: { id: string }) => p.id)).toEqual(['0x2']);
});

// The slow re-read as the follower drives it: each new block asks the budget what has accrued,
// re-reads that many calls' worth of pools in turn, and spends their calls.
const POOLS = Array.from({ length: 50 }, (_, k) => ({ id: `0x${String(k).padStart(64, '0')}` }) as StoredPool);
const CALLS = 8;

function follow(perSecond: number, blockMs: number, blocks: number, start = 0) {
  const budget = new RecheckBudget(perSecond, start);
  let cursor = '';
  let calls = 0;
  const read: string[] = [];
  const perBlock: number[] = [];
  for (let b = 1; b <= blocks; b++) {
    const r = nextRecheck(
      POOLS,
      cursor,
      budget.available(start + b * blockMs),
      () => false,
      () => CALLS,
    );
    cursor = r.cursor;
    const spent = r.pools.length * CALLS;
    budget.spend(spent);
    calls += spent;
    perBlock.push(spent);
    read.push(...r.pools.map((p) => p.id));
  }
  return { calls, read, perBlock, budget, cursor };
}

test('the re-read spends its calls a second whatever the block time: a 250 ms chain pays what a 12 s chain pays', () => {
  // An hour at 2 calls a second: 7,200 calls, give or take the one pool a block may overspend.
  const fast = follow(2, 250, 4 * 3600);
  const slow = follow(2, 12_000, 300);
  for (const { calls } of [fast, slow]) {
    expect(calls).toBeGreaterThanOrEqual(7200 - CALLS);
    expect(calls).toBeLessThanOrEqual(7200 + CALLS);
  }
  // The fast chain reads a pool now and then, the slow one three at each block.
  expect(fast.perBlock.filter((n) => n > 0).length).toBeLessThan(fast.perBlock.length / 10);
  expect(new Set(slow.perBlock.slice(1))).toEqual(new Set([24]));
});

test('pools are re-read in turn, wrapping round, each as often as the others', () => {
  const { read } = follow(2, 1000, 2000);
  const counts = new Map<string, number>();
  for (const id of read) counts.set(id, (counts.get(id) ?? 0) + 1);
  expect(counts.size).toBe(POOLS.length);
  const n = [...counts.values()];
  expect(Math.max(...n) - Math.min(...n)).toBeLessThanOrEqual(1);
  // In id order from the cursor on.
  expect(read.slice(0, POOLS.length)).toEqual(POOLS.map((p) => p.id));
});

test('a chain that stalled for an hour costs at most a minute of calls at its next block', () => {
  const budget = new RecheckBudget(2, 0);
  const calls = budget.available(3600_000);
  expect(calls).toBe(120);
  const r = nextRecheck(
    POOLS,
    '',
    calls,
    () => false,
    () => CALLS,
  );
  expect(r.pools.length).toBe(15);
});

test('a rate below one call a minute still reaches a pool with more calls, and pays it back before the next', () => {
  const { perBlock } = follow(0.01, 1000, 2000);
  const reads = perBlock.flatMap((n, k) => (n > 0 ? [k] : []));
  // One call accrues in 100 s; the 8-call pool is then read and paid back over the next 800 s
  // (a second more where the accrued fractions fall short of a whole call).
  expect(reads[0]).toBe(99);
  expect(reads[1]! - reads[0]!).toBeGreaterThanOrEqual(800);
  expect(reads[1]! - reads[0]!).toBeLessThanOrEqual(801);
});

test('0 turns the re-read off', () => {
  expect(follow(0, 250, 1000).calls).toBe(0);
});
