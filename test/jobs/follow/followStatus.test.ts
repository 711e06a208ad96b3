import { chainById } from '../../../src/config/chains';
import { isStale, lagReason, newFollowStatus, staleReason } from '../../../src/jobs/follow/followStatus';

/** When `/order` refuses the served state and `/readyz` degrades: the status policy of a followed chain. */

const MAINNET = chainById(1)!;
const LIMITS = { maxBlocks: 5, maxSeconds: 60 };
const status = (now = 0) => newFollowStatus(MAINNET, now, { transport: 'batch', transportReason: null });
const at = (number: number) => ({ number, hash: `0x${number}`, parentHash: `0x${number - 1}`, timestamp: number });

test('nothing is stale or behind before a state is served: the pools are the subgraph’s', () => {
  const s = status();
  s.failures = 100;
  expect(isStale(s, 10_000_000, 60_000)).toBe(false);
  expect(lagReason(s, 1_000, 10_000_000, LIMITS)).toBeNull();
});

test('a node that failed every read for longer than the bound makes the state stale', () => {
  const s = status();
  s.stateBlock = at(100);
  s.headMovedAt = 50_000;
  s.lastSuccessAt = 40_000;
  s.failures = 3;
  s.lastError = 'connection refused';
  expect(staleReason(s, 100_000, 60_000)).toBeNull();
  expect(staleReason(s, 100_001, 60_000)).toBe('has failed every read for 60 s (last error: connection refused)');
});

test('on a chain with a block timer, a head that stops moving is stale too', () => {
  const s = status();
  s.stateBlock = at(100);
  s.head = at(100);
  s.lastSuccessAt = 100_000;
  expect(staleReason(s, 60_000, 60_000)).toBeNull();
  expect(staleReason(s, 60_001, 60_000)).toBe('has reported block 100 as its head for 60 s');
  const onDemand = newFollowStatus({ ...MAINNET, blockSeconds: undefined }, 0, {
    transport: 'batch',
    transportReason: null,
  });
  onDemand.stateBlock = at(100);
  expect(staleReason(onDemand, 1_000_000, 60_000)).toBeNull();
});

test('a state too many blocks behind the newest head known is refused', () => {
  const s = status();
  s.stateBlock = at(100);
  s.head = at(103);
  expect(lagReason(s, null, 0, LIMITS)).toBeNull();
  expect(lagReason(s, 106, 0, LIMITS)).toMatch(/^reports block 106 as its head, 6 blocks past the served state/);
});

test('a newer block known for longer than the bound is refused, however few blocks behind', () => {
  const s = status();
  s.stateBlock = at(100);
  s.head = at(101);
  s.behindSince = 1_000;
  expect(lagReason(s, null, 61_000, LIMITS)).toBeNull();
  expect(lagReason(s, null, 61_001, LIMITS)).toMatch(/^has had blocks past the served state for 60 s/);
});
