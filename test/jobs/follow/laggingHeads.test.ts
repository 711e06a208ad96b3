import { laggingHead } from '../../../src/jobs/follow/laggingHeads';

/**
 * A load-balanced node's backends disagree about the head: the served block never goes back
 * unless the chain did.
 */
const at = (number: number, hash = `0x${number}`) => ({ number, hash, parentHash: `0x${number - 1}`, timestamp: 0 });
const STALE_MS = 60_000;

test('a head below the state whose chain still holds the state’s block is ignored', () => {
  expect(laggingHead(at(98), at(100), at(100), undefined, 0, STALE_MS)).toEqual({
    ignore: true,
    missingSince: undefined,
  });
});

test('a head at or past the state, or a reorg, is followed', () => {
  expect(laggingHead(at(101), at(100), at(100), undefined, 0, STALE_MS).ignore).toBe(false);
  expect(laggingHead(at(100), at(100), at(100), undefined, 0, STALE_MS).ignore).toBe(false);
  expect(laggingHead(at(98), at(100), at(100, '0xother'), undefined, 0, STALE_MS).ignore).toBe(false);
});

test('a node that lacks the state’s block is ignored up to the stale bound, then followed', () => {
  const first = laggingHead(at(99), at(100), null, undefined, 1_000, STALE_MS);
  expect(first).toEqual({ ignore: true, missingSince: 1_000 });
  expect(laggingHead(at(99), at(100), null, first.missingSince, 61_000, STALE_MS)).toEqual(first);
  expect(laggingHead(at(99), at(100), null, first.missingSince, 61_001, STALE_MS)).toEqual({
    ignore: false,
    missingSince: undefined,
  });
  // Once the node has the block again, the count starts afresh.
  expect(laggingHead(at(101), at(100), at(100), first.missingSince, 2_000, STALE_MS).missingSince).toBeUndefined();
});
