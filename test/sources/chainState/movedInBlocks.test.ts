import { addMoved, nothingMoved, type MovedInBlocks } from '../../../src/sources/chainState/movedInBlocks';

/**
 * Ranges a refused `eth_getLogs` was halved into are added up: a pool stays "swapped only" (read
 * by its balances alone) only when no half named it otherwise.
 */
const P = `0x${'a1'.repeat(32)}`;
const Q = `0x${'b2'.repeat(32)}`;
const R = `0x${'c3'.repeat(32)}`;

function range(named: Record<string, number>, swapsOnly: string[]): MovedInBlocks {
  return { ...nothingMoved(), pools: new Map(Object.entries(named)), swapsOnly: new Set(swapsOnly) };
}

test('a pool swapped in one half and joined in the other is read whole; swapped in both or one half only, by its balances', () => {
  const low = range({ [P]: 10, [Q]: 11, [R]: 12 }, [P, Q, R]);
  const high = range({ [P]: 20, [Q]: 21 }, [Q]);
  const sum = addMoved(low, high);
  expect([...sum.swapsOnly].sort()).toEqual([Q, R].sort());
  expect(sum.pools.get(P)).toBe(20);
});

test('a join in the first half is not forgotten when the second half only swaps', () => {
  const sum = addMoved(range({ [P]: 10 }, []), range({ [P]: 20 }, [P]));
  expect(sum.swapsOnly.size).toBe(0);
});
