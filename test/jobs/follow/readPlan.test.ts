import type { BlockRef, ChainState, PoolChainState } from '../../../src/domain/chainState';
import type { StoredPool } from '../../../src/domain/pool';
import { MAX_LOG_SPAN } from '../../../src/jobs/follow/logRange';
import { inCatalogue, merged, needsFullRead, planBlockRead } from '../../../src/jobs/follow/readPlan';
import { nothingMoved } from '../../../src/sources/chainState/movedInBlocks';

/**
 * What a poll reads: every pool at the start, after a reorg or a long gap; at a new block only the
 * pools something named, each by as few calls as its type allows.
 */

const block = (number: number, hash = `0x${number}`, parentHash = `0x${number - 1}`): BlockRef => ({
  number,
  hash,
  parentHash,
  timestamp: number * 12,
});

const pool = (n: number): StoredPool => ({ id: `0xid${n}`, address: `0xaddr${n}` }) as unknown as StoredPool;

/** A held state; `reads` stands for what its pool type declares (`ChainReads`). */
const held = (p: StoredPool, reads: { swapsMoveBalancesOnly?: true; watches?: () => string[] } = {}): PoolChainState =>
  ({ poolId: p.id, own: { reads, state: {} } }) as unknown as PoolChainState;

describe('a full read', () => {
  const state: ChainState = { block: block(100), pools: new Map() };

  test('starts the follow', () => {
    expect(needsFullRead(undefined, block(101), undefined)).toBe(true);
  });

  test("follows a reorg: the node's block at the state's height has another hash, or none", () => {
    expect(needsFullRead(state, block(101), block(100, '0xother'))).toBe(true);
    expect(needsFullRead(state, block(101), null)).toBe(true);
  });

  test('is cheaper than the logs past MAX_LOG_SPAN blocks', () => {
    expect(needsFullRead(state, block(100 + MAX_LOG_SPAN), block(100))).toBe(false);
    expect(needsFullRead(state, block(101 + MAX_LOG_SPAN), block(100))).toBe(true);
  });

  test('is not needed for the next block on the same chain', () => {
    expect(needsFullRead(state, block(101), block(100))).toBe(false);
  });
});

describe('at a new block', () => {
  const [a, b, c, d] = [pool(1), pool(2), pool(3), pool(4)];
  const collector = '0xcollector';
  const states = new Map([
    [a.id, held(a, { swapsMoveBalancesOnly: true })],
    [b.id, held(b)],
    [c.id, held(c, { watches: () => [collector] })],
    [d.id, held(d, { swapsMoveBalancesOnly: true })],
  ]);
  const none = () => false;

  test('pools nothing named are not read', () => {
    expect(planBlockRead([a, b, c, d], states, nothingMoved(), none, 0).toRead).toEqual([]);
  });

  test('a pool only swaps named, whose type allows it, is read by its balances alone', () => {
    const moved = nothingMoved();
    moved.pools.set(a.id, 101).set(b.id, 101);
    moved.swapsOnly.add(a.id).add(b.id);
    const plan = planBlockRead([a, b, c, d], states, moved, none, 0);
    expect(plan.toRead).toEqual([a, b]);
    expect([...plan.swappedSince.keys()]).toEqual([a.id]);
  });

  test('a join, or an event of its own, reads the pool in full', () => {
    const moved = nothingMoved();
    moved.pools.set(a.id, 101).set(d.id, 101).set(d.address, -1);
    moved.swapsOnly.add(d.id);
    const plan = planBlockRead([a, b, c, d], states, moved, none, 0);
    expect(plan.toRead).toEqual([a, d]);
    expect(plan.swappedSince.size).toBe(0);
  });

  test('an event of a contract the pool watches reads the pool', () => {
    const moved = nothingMoved();
    moved.pools.set(collector, -1);
    expect(planBlockRead([a, b, c, d], states, moved, none, 0).toRead).toEqual([c]);
  });

  test('a pool the state lacks is read though nothing named it', () => {
    expect(planBlockRead([a, b, c, d], states, nothingMoved(), (p) => p === b, 0).toRead).toEqual([b]);
  });
});

test('a state keeps its map when nothing is to be dropped or laid over it', () => {
  const p = pool(1);
  const pools = new Map([[p.id, held(p)]]);
  expect(inCatalogue(pools, new Set([p.id]))).toBe(pools);
  expect(inCatalogue(pools, new Set()).size).toBe(0);
  expect(merged(pools, new Map())).toBe(pools);
  const fresh = held(p);
  expect(merged(pools, new Map([[p.id, fresh]])).get(p.id)).toBe(fresh);
});
