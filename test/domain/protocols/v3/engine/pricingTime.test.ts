import type { StoredPool } from '../../../../../src/domain/pool';
import { poolTypeDef } from '../../../../../src/domain/poolTypes/registry';
import { v3PoolOf, v3PricingTime } from '../../../../../src/domain/poolTypes/v3PoolOf';
import { v3HookOf } from '../../../../../src/domain/protocols/v3/stored/v3HookOf';
import { v3PoolStateOf } from '../../../../../src/domain/protocols/v3/stored/v3PoolState';
import { vaultSwap } from '../../../../../src/domain/protocols/v3/vault/swap';
import type { V3Pool } from '../../../../../src/domain/protocols/v3/vault/v3Pool';
import { isRevert } from '../../../../../src/domain/swap/math/revert';
import { syntheticV3Universe, UNIVERSE_TIMESTAMP } from '../../../../bench/v3SyntheticUniverse';

/**
 * A time-dependent V3 type's pricing time (`V3TypeMath.pricingTime`) is where the service builds
 * its math for a block, so that a model outlives the blocks in which nothing moves with time. It
 * must price that block's swaps exactly as the pool's own math at the block's timestamp: here
 * every ReClamm (v1 and v2, in and out of range), QuantAMM and LBP pool of the synthetic universe,
 * at block times from the next one to a month on and around an LBP's sale, both ways, exact in and
 * exact out, from small to large amounts (and the same refusals).
 */

const NOW = BigInt(UNIVERSE_TIMESTAMP + 12);
const u = syntheticV3Universe();
const timed = u.pools.filter((p) => poolTypeDef(p.poolType, 3)?.timeDependent === true);

/** The pool as its type's math runs it at exactly `timestamp` (`v3PoolOf` without the pricing time). */
function poolAt(pool: StoredPool, timestamp: bigint): V3Pool {
  const typeMath = poolTypeDef(pool.poolType, 3)!.v3!;
  const state = v3PoolStateOf(pool)!;
  const math = typeMath.math(pool, state, timestamp);
  const stored = typeMath.ownHook?.(pool) === true ? null : (pool.v3?.hook ?? null);
  const hook =
    stored !== null && typeMath.selfHook !== undefined && stored.address === pool.address.toLowerCase()
      ? typeMath.selfHook(pool, state, timestamp)
      : v3HookOf(stored, math, typeMath.weights?.(pool, timestamp) ?? []);
  return hook === undefined ? { state, math } : { state, math, hook };
}

function outcome(pool: V3Pool, i: number, j: number, kind: 'exactIn' | 'exactOut', amount: bigint): string {
  try {
    const tokens = pool.state.tokens;
    return vaultSwap(pool, {
      kind,
      tokenIn: tokens[i]!,
      tokenOut: tokens[j]!,
      amountGivenRaw: amount,
    }).amountCalculatedRaw.toString();
  } catch (e) {
    if (isRevert(e)) return `revert ${(e as Error).name}`;
    throw e;
  }
}

function blockTimes(pool: StoredPool): bigint[] {
  const times = [NOW, NOW + 12n, NOW + 3600n, NOW + 30n * 86_400n];
  const sale = pool.v3?.typeParams;
  if (sale?.['startTime'] !== undefined) {
    const [start, end] = [BigInt(sale['startTime']), BigInt(sale['endTime']!)];
    times.push(start - 10n, start - 1n, start, end, end + 1n, end + 3600n);
  }
  if (pool.lastInterpolationTimePossible !== undefined) {
    const stop = BigInt(pool.lastInterpolationTimePossible);
    times.push(stop - 1n, stop, stop + 1n, stop + 600n);
  }
  return times.filter((t) => t > 0n);
}

test('the pricing time prices every swap of the block as the pool at the block time does', () => {
  let resting = 0;
  let cases = 0;
  for (const pool of timed) {
    for (const t of blockTimes(pool)) {
      const at = v3PricingTime(pool, t);
      expect(at).toBeDefined();
      if (at !== t) resting++;
      const exact = poolAt(pool, t);
      const built = v3PoolOf(pool, t)!;
      const raw = exact.state.balancesRaw!;
      for (let i = 0; i < raw.length; i++)
        for (let j = 0; j < raw.length; j++) {
          if (i === j) continue;
          for (const share of [1_000_000n, 1_000n, 20n, 3n]) {
            for (const [kind, of] of [
              ['exactIn', i],
              ['exactOut', j],
            ] as const) {
              const amount = raw[of]! / share;
              if (amount === 0n) continue;
              cases++;
              expect({ pool: pool.id, t, i, j, kind, amount, got: outcome(built, i, j, kind, amount) }).toEqual({
                pool: pool.id,
                t,
                i,
                j,
                kind,
                amount,
                got: outcome(exact, i, j, kind, amount),
              });
            }
          }
        }
    }
  }
  // Not vacuous: some pools rest (their pricing time is not the block's), many move.
  expect(resting).toBeGreaterThan(50);
  expect(cases).toBeGreaterThan(5_000);
});

test('a ReClamm pool at rest prices at its last update; one out of range or in a price ratio update, at the block', () => {
  const reClamms = timed.filter((p) => p.poolType === 'ReClamm');
  const resting = reClamms.filter((p) => v3PricingTime(p, NOW + 12n) === BigInt(p.lastTimestamp!));
  const moving = reClamms.filter((p) => v3PricingTime(p, NOW + 12n) === NOW + 12n);
  expect(resting.length).toBeGreaterThan(0);
  expect(moving.length).toBeGreaterThan(0);
  expect(resting.length + moving.length).toBe(reClamms.length);
});
