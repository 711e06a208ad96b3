import { buildV3Models } from '../../../../../src/domain/protocols/v3/engine/v3Models';
import { V3ModelCache } from '../../../../../src/domain/protocols/v3/engine/v3ModelCache';
import { syntheticV3Universe } from '../../../../bench/v3SyntheticUniverse';

/**
 * Models kept across universes: a pool whose math takes the time (ReClamm, QuantAMM, an LBP) keeps
 * its model while the stored object and the pricing timestamp are the same, and gets a new one at
 * another timestamp; any other pool keeps its model at any timestamp.
 */
test('time-dependent models are kept at the same timestamp only, the others at any', () => {
  const u = syntheticV3Universe();
  const pools = ['ReClamm', 'QuantAMMWeighted', 'LBP', 'Weighted', 'GyroE'].map((type) =>
    u.pools.find((p) => p.poolType === type)!,
  );
  const cache = new V3ModelCache();
  const build = (timestamp: bigint) =>
    buildV3Models({ pools, buffers: new Map(), timestamp, cache }).models.map((m) => m);
  const first = build(1_780_000_012n);
  expect(first).toHaveLength(5);
  const same = build(1_780_000_012n);
  const later = build(1_780_000_024n);
  for (let k = 0; k < 5; k++) expect(same[k]).toBe(first[k]);
  for (let k = 0; k < 3; k++) expect(later[k]).not.toBe(first[k]);
  for (let k = 3; k < 5; k++) expect(later[k]).toBe(first[k]);
});
