import Big from 'big.js';
import type { ElementSpec } from '../../../../src/domain/poolTypes/element/elementParams';
import { createElementModel, type ElementModel } from '../../../../src/domain/poolTypes/element/elementModel';
import { Revert, UnsupportedPoolError, type SwapKind } from '../../../../src/domain/swap/poolModel';

/**
 * Element pool rules a user notices, on a small pool: the price moves with time to maturity, the
 * fee is a share of the implied yield, amounts in any token decimals price alike, reverts where the
 * pool reverts, and limits that never revert. Values at t = 1/2 (a square-root curve) are checked
 * against the closed form computed with big.js, independent of the model's fixed-point pow.
 */
const PT = '0x00000000000000000000000000000000000000a1';
const BASE = '0x00000000000000000000000000000000000000b2';
const EXPIRY = 1_700_000_000;
const UNIT = 10_000_000;

function spec(
  over: { decimals?: number; fee?: string; bond?: string; base?: string; supply?: string } = {},
): ElementSpec {
  const decimals = over.decimals ?? 18;
  return {
    id: `0x${'ee'.repeat(20)}000200000000000000000001`,
    address: `0x${'ee'.repeat(20)}`,
    poolType: 'Element',
    swapFee: over.fee ?? '0.1',
    totalShares: over.supply ?? '1000',
    tokens: [
      { address: PT, balance: over.bond ?? '800', decimals },
      { address: BASE, balance: over.base ?? '1000', decimals },
    ],
    expiryTime: EXPIRY,
    unitSeconds: UNIT,
    principalToken: PT,
    baseToken: BASE,
  };
}

const at = (fractionLeft: number, over: Parameters<typeof spec>[0] = {}) =>
  createElementModel(spec(over), { timestamp: EXPIRY - Math.round(fractionLeft * UNIT) }) as ElementModel;
const [BOND, UND] = [0, 1];
const E18 = 10n ** 18n;

describe('element pool swaps', () => {
  test('at half the unit to maturity the price follows the square-root curve and its yield fee', () => {
    Big.DP = 40;
    const m = at(0.5);
    const out = m.swap(m.initialState(), 'givenIn', BOND, UND, 100n * E18);
    // x^(1/2) + y^(1/2) = k with the bond reserve counting the LP supply: 800 + 1000.
    const x = new Big(1800);
    const y = new Big(1000);
    const k = x.sqrt().plus(y.sqrt());
    const raw = y.minus(k.minus(x.plus(100).sqrt()).pow(2));
    // Selling bonds: the implied yield is in - out, of which the pool keeps 10%.
    const expected = raw.minus(new Big(100).minus(raw).times('0.1'));
    expect(Math.abs(Number(out) / 1e18 / expected.toNumber() - 1)).toBeLessThan(1e-12);
  });

  test('bonds fetch more base as maturity nears, and par after it', () => {
    const sell = (left: number) => {
      const m = at(left);
      return m.swap(m.initialState(), 'givenIn', BOND, UND, 10n * E18);
    };
    const far = sell(0.9);
    const mid = sell(0.5);
    const near = sell(0.05);
    expect(far < mid && mid < near && near < 10n * E18).toBe(true);
    // After expiry the curve is constant-sum: one base per bond, no yield and so no fee (the pool's
    // pow rounding may miss par by a few wei, or revert on a yield a few wei below zero).
    const m = at(-0.01);
    try {
      const after = m.swap(m.initialState(), 'givenIn', BOND, UND, 10n * E18);
      expect(after - 10n * E18 < 1000n && 10n * E18 - after < 1000n).toBe(true);
    } catch (e) {
      expect(e).toBeInstanceOf(Revert);
    }
  });

  test('a 6-decimal pool prices like its 18-decimal twin, truncated to 6 decimals', () => {
    const wide = at(0.3);
    const narrow = at(0.3, { decimals: 6 });
    for (const [i, j] of [
      [BOND, UND],
      [UND, BOND],
    ] as const) {
      for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
        const a18 = wide.swap(wide.initialState(), kind, i, j, 5n * E18);
        const a6 = narrow.swap(narrow.initialState(), kind, i, j, 5_000_000n);
        // The pool truncates its 18-decimal answer to the token's decimals, amount in included.
        expect(a6).toBe(a18 / 10n ** 12n);
      }
    }
  });

  test('buying bonds above par, paying out more than the pool holds, or a pool too far from maturity revert', () => {
    const m = at(0.3);
    const s = m.initialState();
    expect(() => m.swap(s, 'givenOut', BOND, UND, 1001n * E18)).toThrow(Revert);
    // With 3000 base against 800 + 1000 (LP supply) bond the bond costs more than one base: every
    // trade has a negative implied yield, and the pool underflows.
    const abovePar = at(0.3, { base: '3000' });
    for (const [i, j] of [
      [BOND, UND],
      [UND, BOND],
    ] as const) {
      expect(() => abovePar.swap(abovePar.initialState(), 'givenIn', i, j, E18)).toThrow(Revert);
    }
    expect(() => m.swap(s, 'givenIn', BOND, BOND, 1n)).toThrow(Revert);
    expect(() => at(1.2)).toThrow(UnsupportedPoolError);
    expect(() => createElementModel({ ...spec(), principalToken: null }, { timestamp: EXPIRY })).toThrow(
      UnsupportedPoolError,
    );
  });

  test('maxAmount never reverts, and a little more than the largest bond purchase does', () => {
    for (const left of [0.9, 0.5, 0.05]) {
      for (const over of [{}, { decimals: 6 }, { base: '10', bond: '5000' }]) {
        const m = at(left, over);
        const s = m.initialState();
        for (const [i, j] of [
          [BOND, UND],
          [UND, BOND],
        ] as const) {
          for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
            const max = m.maxAmount(s, kind, i, j);
            expect(max > 0n).toBe(true);
            expect(() => m.swap(s, kind, i, j, max)).not.toThrow();
            if (kind === 'givenOut') expect(() => m.swap(s, kind, i, j, max + max / 100n + 1n)).toThrow(Revert);
          }
        }
      }
    }
  });

  test('spot price matches a small given-in swap, fee included', () => {
    // (Given out, the pool adds the fee to the amount in instead of taking it off the amount out,
    // which prices the margin a little differently; the spot price is the given-in one, as the SOR's.)
    for (const left of [0.9, 0.3]) {
      const m = at(left);
      const s = m.initialState();
      for (const [i, j] of [
        [BOND, UND],
        [UND, BOND],
      ] as const) {
        const amountIn = 10n ** 12n;
        const amountOut = m.swap(s, 'givenIn', i, j, amountIn);
        expect(Math.abs(m.spotPrice(s, i, j) / (Number(amountIn) / Number(amountOut)) - 1)).toBeLessThan(1e-5);
      }
    }
  });
});
