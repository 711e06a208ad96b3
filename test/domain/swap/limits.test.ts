import { justBelow, largestValid } from '../../../src/domain/swap/limits';
import { seededRandom } from '../../helpers/seededRandom';

/**
 * `largestValid` finds where a pool stops taking an amount, to 2^-32 of it, with or without an
 * estimate; a good estimate costs a handful of asks instead of a search.
 */

const within = (found: bigint, bound: bigint): boolean => found <= bound && bound - found <= (bound >> 32n) + 1n;

function randomBig(random: () => number, maxBits: number): bigint {
  const bits = 1 + Math.floor(random() * maxBits);
  let x = 0n;
  for (let k = 0; k < bits; k += 30) x = (x << 30n) | BigInt(Math.floor(random() * 2 ** 30));
  return (x % (1n << BigInt(bits))) + 1n;
}

describe('largestValid', () => {
  test('finds the bound to 2^-32 from any estimate, or none, and never returns a refused amount', () => {
    const random = seededRandom(20261203);
    for (let run = 0; run < 3_000; run++) {
      const bound = randomBig(random, 200);
      const candidate = bound + randomBig(random, 220);
      const estimates: (bigint | undefined)[] = [
        undefined,
        bound,
        bound + 1n,
        justBelow(bound),
        bound - 1n,
        bound * 2n,
        bound / 3n,
        candidate + 5n,
        0n,
        randomBig(random, 220),
      ];
      for (const estimate of estimates) {
        let asks = 0;
        const found = largestValid(
          candidate,
          (a) => {
            asks++;
            return a <= bound;
          },
          () => estimate,
        );
        if (!within(found, bound)) throw new Error(`bound ${bound}, estimate ${estimate}: found ${found}`);
        // An estimate at the bound, below the candidate's near miss, ends the search in 4 asks.
        if ((estimate === bound || estimate === bound + 1n) && estimate < justBelow(candidate))
          expect(asks).toBeLessThanOrEqual(4);
      }
    }
  });

  test('a candidate the pool takes is the answer, and a pool that takes nothing gives 0', () => {
    expect(largestValid(1_000n, (a) => a <= 5_000n)).toBe(1_000n);
    expect(
      largestValid(
        1_000n,
        () => false,
        () => 10n,
      ),
    ).toBe(0n);
    expect(largestValid(0n, () => true)).toBe(0n);
  });

  test('without an estimate, a bound far below the candidate costs a search, with a good one a few asks', () => {
    const bound = 123_456_789_012_345_678n;
    const count = (estimate?: bigint): number => {
      let asks = 0;
      largestValid(
        2n ** 128n,
        (a) => {
          asks++;
          return a <= bound;
        },
        estimate === undefined ? undefined : () => estimate,
      );
      return asks;
    };
    expect(count()).toBeGreaterThan(40);
    expect(count(bound)).toBeLessThanOrEqual(4);
  });
});
