import { type Gyro3Model } from '../../../../src/domain/poolTypes/gyro/gyro3Model';
import { modelOfType } from '../../../helpers/typeModel';
import { Revert, UnsupportedPoolError } from '../../../../src/domain/swap/poolModel';
import { compareGyro, disagreements, gyroSpec, sorGyroPool, type GyroTestPool } from './gyroReference';

/**
 * Gyroscope 3-CLPs against the reference SOR's Gyro3 class over every ordered pair, both kinds,
 * amounts up to the pool's limit, and the rules a user notices. Synthetic pools with parameters
 * from the SOR's test data and Gyroscope's 3-CLP deployment configs.
 */

const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
const BUSD = '0x9c9e5fd8bbc25984b178fdce6117defa39d2db39';

/** The SOR's gyro3TestPool. */
const SOR_POOL: GyroTestPool = {
  poolType: 'Gyro3',
  version: 1,
  swapFee: '0.003',
  tokens: [
    { address: DAI, balance: '82934', decimals: 18 },
    { address: USDC, balance: '81485', decimals: 6 },
    { address: USDT, balance: '83119', decimals: 18 },
  ],
  params: { root3Alpha: '0.995647752' },
};
/** Gyroscope's 3clp-busd-usdt-usdc config (root3Alpha 0.9995, 0.03%), lopsided balances, Polygon decimals. */
const BUSD_USDC_USDT: GyroTestPool = {
  poolType: 'Gyro3',
  version: 1,
  swapFee: '0.0003',
  tokens: [
    { address: BUSD, balance: '1234567.891234567891234567', decimals: 18 },
    { address: USDC, balance: '980000.123456', decimals: 6 },
    { address: USDT, balance: '1500000.5', decimals: 6 },
  ],
  params: { root3Alpha: '0.9995' },
};
/** Balances of 3e10 tokens: the invariant (~6e13) takes the contract's large-number Newton steps. */
const HUGE: GyroTestPool = {
  poolType: 'Gyro3',
  version: 1,
  swapFee: '0.0003',
  tokens: [
    { address: BUSD, balance: '30000000000', decimals: 18 },
    { address: DAI, balance: '29000000000.5', decimals: 18 },
    { address: USDT, balance: '31000000000', decimals: 18 },
  ],
  params: { root3Alpha: '0.9995' },
};

const FRACTIONS = [1e-9, 1e-7, 1e-5, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 0.999, 0.999999];
const model = (pool: GyroTestPool) => modelOfType(gyroSpec(pool), { timestamp: 0 }) as Gyro3Model;
const E18 = 10n ** 18n;

describe('Gyro3 against the reference SOR', () => {
  test.each([
    ['SOR test pool', SOR_POOL],
    ['BUSD/USDC/USDT', BUSD_USDC_USDT],
    ['3e10-token balances', HUGE],
  ])('%s: every ordered pair, both kinds, up to the limit, within the documented rounding', (_name, pool) => {
    const cases = compareGyro(model(pool), sorGyroPool(pool), pool.swapFee, FRACTIONS);
    expect(cases.length).toBeGreaterThan(140);
    expect(disagreements(cases)).toEqual([]);
  });
});

describe('Gyro3 rules', () => {
  test('swaps past the price range or the reserves revert; the limits do not', () => {
    for (const pool of [SOR_POOL, BUSD_USDC_USDT, HUGE]) {
      const m = model(pool);
      const s = m.initialState();
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          if (i === j) continue;
          const maxIn = m.maxAmount(s, 'givenIn', i, j);
          const maxOut = m.maxAmount(s, 'givenOut', i, j);
          expect(() => m.swap(s, 'givenIn', i, j, maxIn)).not.toThrow();
          expect(() => m.swap(s, 'givenOut', i, j, maxOut)).not.toThrow();
          expect(() => m.swap(s, 'givenIn', i, j, maxIn + (maxIn >> 30n) + 1n)).toThrow(Revert);
          expect(() => m.swap(s, 'givenIn', i, j, maxIn * 2n)).toThrow(/GYR#357/);
          expect(maxOut).toBe(s.balances[j]);
          expect(() => m.swap(s, 'givenOut', i, j, maxOut + 1n)).toThrow(Revert);
        }
      }
    }
  });

  test('a token can be drained, and its price stays within [alpha, 1/alpha] against the others', () => {
    const m = model(HUGE);
    const alpha = 0.9995 ** 3;
    const s = m.initialState();
    const before = m.spotPrice(s, 0, 1);
    const out = m.maxAmount(s, 'givenOut', 0, 1);
    m.apply(s, 0, 1, m.swap(s, 'givenOut', 0, 1, out), out);
    expect(s.balances[1]).toBe(0n);
    // Token 1 is gone: one more unit of it costs more than before, but at most 1/alpha of token 0
    // (fee aside), and token 0 is now worth at least alpha of token 2.
    const after = m.spotPrice(s, 0, 1) * (1 - 0.0003);
    expect(after).toBeGreaterThan(before * (1 - 0.0003));
    expect(after).toBeLessThanOrEqual(1 / alpha + 1e-12);
    for (const [i, j] of [
      [0, 2],
      [2, 0],
    ] as const) {
      const price = m.spotPrice(s, i, j) * (1 - 0.0003);
      expect(price).toBeGreaterThanOrEqual(alpha - 1e-12);
      expect(price).toBeLessThanOrEqual(1 / alpha + 1e-12);
    }
  });

  test('the spot price is what a tiny swap pays, the third balance included', () => {
    for (const pool of [SOR_POOL, BUSD_USDC_USDT]) {
      const m = model(pool);
      const s = m.initialState();
      for (const [i, j] of [
        [0, 1],
        [1, 2],
        [2, 0],
      ] as const) {
        const out = m.maxAmount(s, 'givenOut', i, j) / 100_000n;
        const paid = m.swap(s, 'givenOut', i, j, out);
        const perUnit = Number(paid) / 10 ** m.decimals[i]! / (Number(out) / 10 ** m.decimals[j]!);
        expect(Math.abs(m.spotPrice(s, i, j) / perUnit - 1)).toBeLessThan(2e-5 + 1.5 / Number(paid));
      }
    }
    // More of the third token deepens the curve for the other two.
    const rich = model({
      ...SOR_POOL,
      tokens: [SOR_POOL.tokens[0]!, SOR_POOL.tokens[1]!, { ...SOR_POOL.tokens[2]!, balance: '800000' }],
    });
    const base = model(SOR_POOL);
    const amount = 20_000n * E18;
    expect(rich.swap(rich.initialState(), 'givenIn', 0, 1, amount)).toBeGreaterThan(
      base.swap(base.initialState(), 'givenIn', 0, 1, amount),
    );
  });

  test('quotes follow applied swaps whichever token is third', () => {
    const m = model(BUSD_USDC_USDT);
    const s = m.initialState();
    const q = (st: ReturnType<Gyro3Model['initialState']>) => [
      m.swap(st, 'givenIn', 0, 1, 1000n * E18),
      m.swap(st, 'givenIn', 0, 2, 1000n * E18),
      m.swap(st, 'givenOut', 2, 1, 10n ** 9n),
    ];
    const before = q(s);
    const out = m.swap(s, 'givenIn', 1, 2, 50_000n * 10n ** 6n);
    m.apply(s, 1, 2, 50_000n * 10n ** 6n, out);
    const moved = q(s);
    const fresh = m.initialState();
    fresh.balances.splice(0, 3, ...s.balances);
    expect(moved).toEqual(q(fresh));
    expect(moved).not.toEqual(before);
  });

  test('a paused pool, and pools the engine does not carry', () => {
    const paused = model({ ...SOR_POOL, swapEnabled: false });
    expect(paused.canSwap(0, 1)).toBe(false);
    expect(paused.maxAmount(paused.initialState(), 'givenOut', 0, 1)).toBe(0n);
    expect(() => paused.swap(paused.initialState(), 'givenIn', 0, 1, E18)).toThrow(Revert);
    expect(() => model({ ...SOR_POOL, version: 2 })).toThrow(UnsupportedPoolError);
    expect(() => model({ ...SOR_POOL, params: {} })).toThrow(/root3Alpha/);
    // The factory's bounds: alpha between 0.004 and 0.9999.
    expect(() => model({ ...SOR_POOL, params: { root3Alpha: '0.99999' } })).toThrow(UnsupportedPoolError);
    expect(() => model({ ...SOR_POOL, tokens: SOR_POOL.tokens.slice(0, 2) })).toThrow(UnsupportedPoolError);
  });
});
