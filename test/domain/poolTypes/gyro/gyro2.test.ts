import { bnum } from '@balancer-labs/sor';
import { modelOfType } from '../../../helpers/typeModel';
import { type Gyro2Model } from '../../../../src/domain/poolTypes/gyro/gyro2Model';
import { Revert, UnsupportedPoolError } from '../../../../src/domain/swap/poolModel';
import { compareGyro, disagreements, gyroSpec, sorGyroPool, type GyroTestPool } from './gyroReference';
import { human } from '../../../helpers/snapshotSpecs';

/**
 * Gyroscope 2-CLPs against the reference SOR's own Gyro2 classes (v1 and, with token rates, v2)
 * over every pair, both kinds and amounts from a billionth of the pool's limit to the limit, and
 * the rules a user notices. There are no Gyro pools in the mainnet snapshot, so the pools are
 * synthetic with parameters from the SOR's test data and Gyroscope's deployment configs.
 */

const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const WBTC = '0x2260fac5e5542a773aa44fbcb7dedea85b5a8f1f';
const SDAI = '0x83f20f44975d03b1b09e64809b757c47f942beea';

/** The SOR's gyro2TestPool: DAI/USDC, price range [0.999, 1.001]. */
const DAI_USDC: GyroTestPool = {
  poolType: 'Gyro2',
  version: 1,
  swapFee: '0.009',
  tokens: [
    { address: DAI, balance: '1232', decimals: 18 },
    { address: USDC, balance: '1000', decimals: 6 },
  ],
  params: { sqrtAlpha: '0.9994998749', sqrtBeta: '1.000499875' },
};
/** The SOR's gyro2V2TestPool: the same with a rate of 1.5 on DAI. */
const DAI_USDC_V2: GyroTestPool = {
  ...DAI_USDC,
  version: 2,
  tokens: [{ ...DAI_USDC.tokens[0]!, rate: '1.5' }, DAI_USDC.tokens[1]!],
};
/** Gyroscope's 2clp-wbtc-weth config: WETH priced in WBTC within [0.05, 0.09], 0.25% fee. */
const WETH_WBTC: GyroTestPool = {
  poolType: 'Gyro2',
  version: 1,
  swapFee: '0.0025',
  tokens: [
    { address: WETH, balance: '143.37', decimals: 18 },
    { address: WBTC, balance: '4.2', decimals: 8 },
  ],
  params: { sqrtAlpha: '0.223606797749978969', sqrtBeta: '0.3' },
};
/** A v2 pool with a yield-bearing token (rate 1.0437) and a 6-decimal stable. */
const USDC_SDAI_V2: GyroTestPool = {
  poolType: 'Gyro2',
  version: 2,
  swapFee: '0.0001',
  tokens: [
    { address: USDC, balance: '251234.5678', decimals: 6 },
    { address: SDAI, balance: '198765.432198765432198765', decimals: 18, rate: '1.043725903797792' },
  ],
  params: { sqrtAlpha: '0.99899949949937412', sqrtBeta: '1.000749719176442' },
};

const FRACTIONS = [
  1e-9, 1e-7, 1e-5, 1e-4, 1e-3, 0.01, 0.03, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.97, 0.99, 0.999, 0.999999,
];

const model = (pool: GyroTestPool) => modelOfType(gyroSpec(pool), { timestamp: 0 }) as Gyro2Model;
const E18 = 10n ** 18n;

describe('Gyro2 against the reference SOR', () => {
  test.each([
    ['DAI/USDC v1', DAI_USDC],
    ['DAI/USDC v2 (rate 1.5)', DAI_USDC_V2],
    ['WETH/WBTC v1', WETH_WBTC],
    ['USDC/sDAI v2 (rate 1.0437)', USDC_SDAI_V2],
  ])('%s: every pair, both kinds, up to the limit, within the documented rounding', (_name, pool) => {
    const cases = compareGyro(model(pool), sorGyroPool(pool), pool.swapFee, FRACTIONS);
    expect(cases.length).toBeGreaterThan(60);
    expect(disagreements(cases)).toEqual([]);
  });

  test("the v2 pool reproduces the SOR's published figures (13.5 USDC in, 45.568 DAI out)", () => {
    const m = model(DAI_USDC_V2);
    const s = m.initialState();
    const out = m.swap(s, 'givenIn', 1, 0, 13_500_000n);
    // The SOR's 8.921618001976369271 DAI, up to one raw USDC unit of fee rounding (~0.66e12 wei).
    const published = 8_921_618_001_976_369_271n;
    expect(out > published ? out - published : published - out).toBeLessThan(10n ** 12n);
    const paid = m.swap(s, 'givenOut', 1, 0, 45_568n * 10n ** 15n);
    // The SOR's 68.953845491508993928, rounded up to USDC's 6 decimals as the pool does.
    expect(paid).toBe(68_953_846n);
  });

  test('where the SOR differs the contract is the truth: the fee rounds up on raw units', () => {
    const m = model(DAI_USDC);
    const sor = sorGyroPool(DAI_USDC);
    const s = m.initialState();
    // 1 raw unit of USDC: the pool's fee is mulUp(1, 0.009) = the whole unit, so it pays nothing;
    // the SOR takes 0.9% of 1e-6 USDC at 18 decimals and promises about 0.99e-6 DAI.
    expect(m.swap(s, 'givenIn', 1, 0, 1n)).toBe(0n);
    const promised = sor._exactTokenInForTokenOut(sor.parsePoolPairData(USDC, DAI), bnum('0.000001'));
    expect(promised.toNumber()).toBeGreaterThan(9e-7);
    // Buying 1 DAI: the pool rounds the USDC amount up to whole units, then divides the fee in up.
    const paid = m.swap(s, 'givenOut', 1, 0, E18);
    const estimate = sor._tokenInForExactTokenOut(sor.parsePoolPairData(USDC, DAI), bnum('1'));
    expect(Number(paid) / 1e6).toBeGreaterThanOrEqual(estimate.toNumber());
    expect(Number(paid) / 1e6 - estimate.toNumber()).toBeLessThan(2.1e-6);
    // At the pool's own limit for DAI in, the contract pays out USDC up to the whole balance; the
    // SOR, rounding the fee down, leaves a few more wei of DAI in and its arithmetic reverts (0).
    const limit = m.maxAmount(s, 'givenIn', 0, 1);
    expect(m.swap(s, 'givenIn', 0, 1, limit)).toBeGreaterThan((s.balances[1]! * 999n) / 1000n);
    expect(sor._exactTokenInForTokenOut(sor.parsePoolPairData(DAI, USDC), bnum(human(limit, 18))).toNumber()).toBe(0);
  });
});

describe('Gyro2 rules', () => {
  test('swaps past the price range or the reserves revert; the limits do not', () => {
    for (const pool of [DAI_USDC, WETH_WBTC, USDC_SDAI_V2]) {
      const m = model(pool);
      const s = m.initialState();
      for (const [i, j] of [
        [0, 1],
        [1, 0],
      ] as const) {
        const maxIn = m.maxAmount(s, 'givenIn', i, j);
        const maxOut = m.maxAmount(s, 'givenOut', i, j);
        expect(maxIn).toBeGreaterThan(0n);
        expect(() => m.swap(s, 'givenIn', i, j, maxIn)).not.toThrow();
        expect(() => m.swap(s, 'givenOut', i, j, maxOut)).not.toThrow();
        // Within 2^-30 of the true limit: a little more is refused.
        expect(() => m.swap(s, 'givenIn', i, j, maxIn + (maxIn >> 30n) + 1n)).toThrow(Revert);
        expect(() => m.swap(s, 'givenIn', i, j, maxIn * 2n)).toThrow(/GYR#357/);
        expect(maxOut).toBe(s.balances[j]);
        expect(() => m.swap(s, 'givenOut', i, j, s.balances[j]! + 1n)).toThrow(Revert);
      }
    }
  });

  test('selling token 0 up to the limit leaves its price at the lower bound alpha, buying it at beta', () => {
    const m = model(WETH_WBTC);
    const fee = 0.0025;
    // Spot price of WETH in WBTC, fee-free: WBTC paid per WETH received times (1 - fee).
    const price = (s: ReturnType<Gyro2Model['initialState']>) => m.spotPrice(s, 1, 0) * (1 - fee);
    const start = m.initialState();
    expect(price(start)).toBeGreaterThan(0.05);
    expect(price(start)).toBeLessThan(0.09);
    const sold = m.initialState();
    const amountIn = m.maxAmount(sold, 'givenIn', 0, 1);
    m.apply(sold, 0, 1, amountIn, m.swap(sold, 'givenIn', 0, 1, amountIn));
    expect(Math.abs(price(sold) / 0.05 - 1)).toBeLessThan(1e-6);
    const bought = m.initialState();
    const amountOut = m.maxAmount(bought, 'givenOut', 1, 0);
    m.apply(bought, 1, 0, m.swap(bought, 'givenOut', 1, 0, amountOut), amountOut);
    expect(Math.abs(price(bought) / 0.09 - 1)).toBeLessThan(1e-6);
  });

  test('the spot price is what a tiny swap pays, fees and rates included', () => {
    for (const pool of [DAI_USDC, DAI_USDC_V2, WETH_WBTC, USDC_SDAI_V2]) {
      const m = model(pool);
      const s = m.initialState();
      for (const [i, j] of [
        [0, 1],
        [1, 0],
      ] as const) {
        const out = m.maxAmount(s, 'givenOut', i, j) / 100_000n;
        const paid = m.swap(s, 'givenOut', i, j, out);
        const perUnit = Number(paid) / 10 ** m.decimals[i]! / (Number(out) / 10 ** m.decimals[j]!);
        // The swap's own price impact, plus the amount in rounded up to whole raw units.
        expect(Math.abs(m.spotPrice(s, i, j) / perUnit - 1)).toBeLessThan(2e-5 + 1.5 / Number(paid));
      }
    }
  });

  test('a v2 rate scales the token; a v1 pool ignores the stored rate', () => {
    const plain: GyroTestPool = {
      ...WETH_WBTC,
      swapFee: '0',
      tokens: [
        { address: WETH, balance: '200', decimals: 18 },
        { address: DAI, balance: '9', decimals: 18 },
      ],
    };
    const rated: GyroTestPool = {
      ...plain,
      version: 2,
      tokens: [{ ...plain.tokens[0]!, balance: '100', rate: '2' }, plain.tokens[1]!],
    };
    const a = model(plain);
    const b = model(rated);
    // 100 tokens at rate 2 are the pool's 200: every swap of x of them is a swap of 2x there.
    for (const x of [1n, 10n ** 15n, 3n * E18, 40n * E18]) {
      expect(b.swap(b.initialState(), 'givenIn', 0, 1, x)).toBe(a.swap(a.initialState(), 'givenIn', 0, 1, 2n * x));
    }
    const v1WithRate = model({ ...plain, tokens: [{ ...plain.tokens[0]!, rate: '2' }, plain.tokens[1]!] });
    expect(v1WithRate.swap(v1WithRate.initialState(), 'givenIn', 0, 1, E18)).toBe(
      a.swap(a.initialState(), 'givenIn', 0, 1, E18),
    );
  });

  test('a swap applied moves the balances and the next quote prices from them', () => {
    const m = model(DAI_USDC);
    const s = m.initialState();
    const first = m.swap(s, 'givenIn', 0, 1, 100n * E18);
    m.apply(s, 0, 1, 100n * E18, first);
    expect(s.balances).toEqual([1332n * E18, 1000n * 10n ** 6n - first]);
    const fresh = model({
      ...DAI_USDC,
      tokens: [
        { ...DAI_USDC.tokens[0]!, balance: '1332' },
        { ...DAI_USDC.tokens[1]!, balance: (Number(1000n * 10n ** 6n - first) / 1e6).toFixed(6) },
      ],
    });
    expect(m.swap(s, 'givenIn', 0, 1, 100n * E18)).toBe(fresh.swap(fresh.initialState(), 'givenIn', 0, 1, 100n * E18));
    expect(m.swap(s, 'givenIn', 0, 1, 100n * E18)).toBeLessThan(first);
  });

  test('zero amounts, a paused pool, and pools the engine does not carry', () => {
    const m = model(DAI_USDC);
    expect(m.swap(m.initialState(), 'givenIn', 0, 1, 0n)).toBe(0n);
    expect(() => m.swap(m.initialState(), 'givenIn', 0, 0, E18)).toThrow(Revert);
    const paused = model({ ...DAI_USDC, swapEnabled: false });
    expect(paused.canSwap(0, 1)).toBe(false);
    expect(paused.maxAmount(paused.initialState(), 'givenIn', 0, 1)).toBe(0n);
    expect(() => paused.swap(paused.initialState(), 'givenIn', 0, 1, E18)).toThrow(Revert);
    expect(() => model({ ...DAI_USDC, version: 3 })).toThrow(UnsupportedPoolError);
    expect(() => model({ ...DAI_USDC, params: { sqrtAlpha: '0.9994998749' } })).toThrow(/sqrtBeta/);
    expect(() => model({ ...DAI_USDC, params: { sqrtAlpha: '1.1', sqrtBeta: '1.000499875' } })).toThrow(
      UnsupportedPoolError,
    );
  });
});
