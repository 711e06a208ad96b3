import { normalizePool } from '../../src/domain/normalizePool';
import { carryDecoration, type StoredPool } from '../../src/domain/pool';
import { callsFor } from '../../src/sources/chainState/chainStateReader';
import { syntheticPools } from '../fakes/syntheticPools';

const VAULT = '0xba12222222228d8ba445958a75a0704d566bf2c8';

function stored(raw: unknown): StoredPool {
  const n = normalizePool(raw);
  if (!n.ok) throw new Error('synthetic pool did not normalize');
  return carryDecoration(n.pool, undefined);
}

describe('the reads planned for a pool', () => {
  it('follow a change of the pool’s shape under the same id (the plan is reused only for the same shape)', () => {
    const weighted = stored(syntheticPools(1)[0]);
    const calls = callsFor(VAULT, [weighted]);
    // The same pool as the read model hands it over after a block: a new object, same shape.
    expect(callsFor(VAULT, [{ ...weighted, swapFee: '0.5' }])).toBe(calls);
    // The catalogue now says it has an amp (a stable pool under that id): one more getter.
    const withAmp = { ...weighted, amp: '100' } as StoredPool;
    expect(callsFor(VAULT, [withAmp])).toBe(calls + 1);
    // Without weights: one getter less than the weighted pool.
    const unweighted = { ...weighted, tokens: weighted.tokens.map((t) => ({ ...t, weight: null })) };
    expect(callsFor(VAULT, [unweighted])).toBe(calls - 1);
  });
});
