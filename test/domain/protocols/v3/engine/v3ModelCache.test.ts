import type { StoredPool } from '../../../../../src/domain/pool';
import { v3PricingTime } from '../../../../../src/domain/poolTypes/v3PoolOf';
import { buildV3Models, prepareV3Models } from '../../../../../src/domain/protocols/v3/engine/v3Models';
import { V3ModelCache } from '../../../../../src/domain/protocols/v3/engine/v3ModelCache';
import type { PoolModel } from '../../../../../src/domain/swap/poolModel';
import { syntheticV3Universe, traded, UNIVERSE_TIMESTAMP } from '../../../../bench/v3SyntheticUniverse';

/**
 * Models kept across universes: a pool whose math takes the time (ReClamm, QuantAMM, an LBP) keeps
 * its model while the stored object and its pricing time are the same (the time its type builds
 * the math at: a ReClamm pool at rest prices at its last update, QuantAMM weights stop at their
 * last interpolation time, an LBP outside its sale prices alike), and gets a new one when that
 * time moves; any other pool keeps its model at any timestamp.
 */

const NOW = BigInt(UNIVERSE_TIMESTAMP + 12);
const u = syntheticV3Universe();
const moves = (p: StoredPool, t: bigint) => v3PricingTime(p, t) === t;
const build = (cache: V3ModelCache, pools: readonly StoredPool[], timestamp: bigint) =>
  buildV3Models({ pools, buffers: new Map(), timestamp, cache }).models;

test('a pool whose price moves with time gets a new model at each block time; the others keep theirs', () => {
  const reClamms = u.pools.filter((p) => p.poolType === 'ReClamm');
  const pools = [
    reClamms.find((p) => moves(p, NOW + 12n))!,
    u.pools.find((p) => p.poolType === 'QuantAMMWeighted')!,
    u.pools.find((p) => p.poolType === 'LBP')!,
    reClamms.find((p) => !moves(p, NOW + 12n))!,
    u.pools.find((p) => p.poolType === 'Weighted')!,
    u.pools.find((p) => p.poolType === 'GyroE')!,
    u.pools.find((p) => p.poolType === 'Stable')!,
  ];
  const cache = new V3ModelCache();
  const first = build(cache, pools, NOW);
  expect(first).toHaveLength(pools.length);
  const same = build(cache, pools, NOW);
  const later = build(cache, pools, NOW + 12n);
  for (let k = 0; k < pools.length; k++) expect(same[k]).toBe(first[k]);
  // The moving ReClamm pool, the QuantAMM weights and the LBP's sale: priced again.
  for (let k = 0; k < 3; k++) expect(later[k]).not.toBe(first[k]);
  // A ReClamm pool at rest (in range, no price ratio update), and the types that never move.
  for (let k = 3; k < pools.length; k++) expect(later[k]).toBe(first[k]);
});

test('past the last interpolation time, or outside an LBP sale, a model holds from block to block', () => {
  const quant = u.pools.find((p) => p.poolType === 'QuantAMMWeighted')!;
  const lbp = u.pools.find((p) => p.poolType === 'LBP')!;
  const stopped = BigInt(quant.lastInterpolationTimePossible!);
  const saleEnd = BigInt(lbp.v3!.typeParams!['endTime']!);
  const saleStart = BigInt(lbp.v3!.typeParams!['startTime']!);
  const cache = new V3ModelCache();
  const [quantAt, lbpAfter] = [build(cache, [quant], stopped + 5n)[0], build(cache, [lbp], saleEnd + 5n)[0]];
  expect(build(cache, [quant], stopped + 60n)[0]).toBe(quantAt);
  expect(build(cache, [lbp], saleEnd + 3600n)[0]).toBe(lbpAfter);
  // Before the sale, one model; in it, one per second.
  const before = build(cache, [lbp], saleStart - 100n)[0];
  expect(build(cache, [lbp], saleStart - 1n)[0]).toBe(before);
  expect(build(cache, [lbp], saleStart)[0]).not.toBe(before);
  expect(build(cache, [lbp], saleStart + 1n)[0]).not.toBe(build(cache, [lbp], saleStart)[0]);
});

test("the next block's models built ahead are the ones its universe uses: a block then builds only what it changed", () => {
  const cache = new V3ModelCache();
  build(cache, u.pools, NOW);
  const timed = u.pools.filter((p) => ['ReClamm', 'QuantAMMWeighted', 'LBP'].includes(p.poolType));
  const ahead = new Map<string, PoolModel>();
  // In slices: told it has done enough at once, each call builds one pool's model and says where to go on from.
  let from = 0;
  let slices = 0;
  for (; from < u.pools.length; slices++) {
    from = prepareV3Models(
      { pools: u.pools, buffers: new Map(), timestamp: NOW + 12n, cache, from },
      (m) => ahead.set(m.id, m),
      () => true,
    );
  }
  // A pool at rest keeps its model: only the others are built ahead.
  const moving = timed.filter((p) => moves(p, NOW + 12n));
  expect(ahead.size).toBe(moving.length);
  expect(slices).toBe(moving.length);
  expect(moving.length).toBeGreaterThan(0);
  expect(moving.length).toBeLessThan(timed.length);

  // The next block trades one weighted pool; every other stored object is the same.
  const k = u.pools.findIndex((p) => p.poolType === 'Weighted');
  const next = [...u.pools];
  next[k] = traded(u.pools[k]!, 0.5);
  const before = new Map(build(cache, u.pools, NOW).map((m) => [m.id, m]));
  const models = build(cache, next, NOW + 12n);
  for (const m of models) {
    if (m.id === next[k]!.id) expect(m).not.toBe(before.get(m.id));
    else expect(m).toBe(ahead.get(m.id) ?? before.get(m.id));
  }
});
