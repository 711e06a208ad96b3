import { normalizePool } from '../../../src/domain/normalizePool';
import { carryDecoration, type StoredPool } from '../../../src/domain/pool';
import { callsFor } from '../../../src/sources/chainState/chainStateReader';
import { syntheticPools } from '../../fakes/syntheticPools';

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
    // The catalogue now says it is a stable pool under that id: its type's reads, not the cached ones.
    const asStable = { ...weighted, poolType: 'Stable', poolTypeVersion: 2, amp: '100' } as StoredPool;
    const freshStable = { ...asStable, id: `${weighted.id.slice(0, -4)}beef` };
    expect(callsFor(VAULT, [asStable])).toBe(callsFor(VAULT, [freshStable]));
    expect(callsFor(VAULT, [asStable])).not.toBe(calls);
  });

  it('read a pool of a type the service does not carry with the Vault reads alone (Vault balances, fee, pause, recovery, supply)', () => {
    const weighted = stored(syntheticPools(1)[0]);
    expect(callsFor(VAULT, [{ ...weighted, poolType: 'SomethingNew' }])).toBe(5);
  });
});
