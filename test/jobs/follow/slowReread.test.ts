import { BUFFER_READ_CALLS, SlowReread, tokensInTurn } from '../../../src/jobs/follow/slowReread';

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
