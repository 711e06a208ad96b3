import { decorateChain } from '../../../src/domain/decoration/decorateChain';
import { GaugeData, gaugeAprs, GaugePrices, PoolGauge } from '../../../src/domain/decoration/gaugeApr';
import type { AprBreakdown } from '../../../src/domain/pool';
import { A, pool, token } from './poolBuilder';

const NOW = 1_700_000_000;
const E18 = 10n ** 18n;
const LINK = '0x00000000000000000000000000000000000000e9';

/**
 * Hand-computed vectors. A year is 31,536,000 s. 0.01 BAL/s is 315,360 BAL a year, 1,576,800 USD
 * at 5 USD. Working supply 39,999.6 BPT: one more unboosted BPT counts 0.4, its share of the BAL is
 * 0.4 / 40,000 = 1e-5. Staked supply 99,999 BPT: one more BPT holds 1 / 100,000 = 1e-5 of rewards.
 */
const prices: GaugePrices = {
  bptUsd: 100,
  balUsd: 5,
  tokenUsd: (t) => ({ [LINK]: 15, [A.USDC]: 1 })[t],
};

function gauge(extra: Partial<PoolGauge> = {}): PoolGauge {
  return {
    address: '0x00000000000000000000000000000000000000a9',
    isKilled: false,
    bal: { perSecond: E18 / 100n, boosted: true, periodFinish: null },
    totalSupply: 99_999n * E18,
    workingSupply: (399_996n * E18) / 10n,
    rewards: [],
    ...extra,
  };
}

describe('staking APR from BAL emissions', () => {
  it('mainnet gauge: min = yearly BAL x price x 0.4 / (working supply + 0.4) / BPT price, max = 2.5 x min', () => {
    // 1,576,800 x 1e-5 / 100 = 0.15768 -> 1576.8 bps -> 1577; x 2.5 = 0.3942 -> 3942.
    expect(gaugeAprs(gauge(), prices, NOW).stakingApr).toEqual({ min: 1577, max: 3942 });
  });

  it('child gauge streaming bridged BAL as a reward: split by balance, no boost (min = max)', () => {
    const g = gauge({ bal: { perSecond: E18 / 100n, boosted: false, periodFinish: NOW + 3_600 } });
    // 1,576,800 x 1 / (99,999 + 1) / 100 = 0.15768 -> 1577.
    expect(gaugeAprs(g, prices, NOW).stakingApr).toEqual({ min: 1577, max: 1577 });
  });

  it('a BAL stream whose period has ended, a killed gauge, or an unknown BAL price pay no staking APR', () => {
    expect(
      gaugeAprs(gauge({ bal: { perSecond: E18 / 100n, boosted: false, periodFinish: NOW } }), prices, NOW).stakingApr,
    ).toEqual({ min: 0, max: 0 });
    expect(gaugeAprs(gauge({ isKilled: true }), prices, NOW).stakingApr).toEqual({ min: 0, max: 0 });
    expect(gaugeAprs(gauge(), { ...prices, balUsd: undefined }, NOW).stakingApr).toEqual({ min: 0, max: 0 });
  });

  it('a gauge nobody stakes in: the first unboosted BPT would get all of it (finite, not Infinity)', () => {
    // 1,576,800 x 0.4 / 0.4 / 100 = 15,768 -> 157,680,000 bps.
    expect(gaugeAprs(gauge({ workingSupply: 0n, totalSupply: 0n }), prices, NOW).stakingApr).toEqual({
      min: 157_680_000,
      max: 394_200_000,
    });
  });

  it('without a BPT price every part is 0', () => {
    expect(
      gaugeAprs(
        gauge({ rewards: [{ token: LINK, decimals: 18, perSecond: E18 / 1000n, periodFinish: NOW + 1 }] }),
        { ...prices, bptUsd: undefined },
        NOW,
      ),
    ).toEqual({
      stakingApr: { min: 0, max: 0 },
      rewardAprs: { total: 0, breakdown: {} },
    });
  });
});

describe('reward APRs', () => {
  it('each active reward: yearly amount x price / (staked supply + 1) / BPT price, per token and in total', () => {
    const g = gauge({
      rewards: [
        // 0.001 LINK/s: 31,536 LINK x 15 = 473,040 USD; x 1e-5 / 100 = 0.0473040 -> 473.04 -> 473.
        { token: LINK, decimals: 18, perSecond: E18 / 1000n, periodFinish: NOW + 86_400 },
        // 0.001 USDC/s (6 decimals): 31,536 USD; x 1e-5 / 100 = 0.0031536 -> 31.536 -> 32.
        { token: A.USDC, decimals: 6, perSecond: 1000n, periodFinish: NOW + 86_400 },
      ],
    });
    expect(gaugeAprs(g, prices, NOW).rewardAprs).toEqual({ total: 505, breakdown: { [LINK]: 473, [A.USDC]: 32 } });
  });

  it('finished periods and tokens without a price are left out; a killed gauge still streams its rewards', () => {
    const g = gauge({
      isKilled: true,
      rewards: [
        { token: LINK, decimals: 18, perSecond: E18 / 1000n, periodFinish: NOW + 1 },
        { token: A.USDC, decimals: 6, perSecond: 1000n, periodFinish: NOW - 1 },
        { token: A.DAI, decimals: 18, perSecond: E18, periodFinish: NOW + 1 },
      ],
    });
    expect(gaugeAprs(g, prices, NOW).rewardAprs).toEqual({ total: 473, breakdown: { [LINK]: 473 } });
  });
});

describe('gauge APRs in a decorated chain', () => {
  // 500 WETH at 2,000 + 1,000,000 USDC = 2,000,000 USD over 20,000 shares: 100 USD per BPT.
  const base = pool(
    '1',
    'Weighted',
    [token(A.WETH, '500', { weight: '0.5' }), token(A.USDC, '1000000', { weight: '0.5' })],
    { totalShares: '20000' },
  );
  const other = pool(
    '2',
    'Weighted',
    [token(A.WETH, '5', { weight: '0.5' }), token(A.USDC, '10000', { weight: '0.5' })],
    { totalShares: '200' },
  );
  const pricesUsd = new Map([
    [A.WETH, '2000'],
    [A.USDC, '1'],
    [A.BAL, '5'],
    [LINK, '15'],
  ]);
  const lastApr = (p: typeof base, staking: AprBreakdown['stakingApr'], rewards: AprBreakdown['rewardAprs']) => ({
    ...p,
    apr: {
      swapFees: 0,
      tokenAprs: { total: 0, breakdown: {} },
      stakingApr: staking,
      rewardAprs: rewards,
      protocolApr: 0,
      min: 0,
      max: 0,
    },
  });
  const withGauge = gauge({
    rewards: [{ token: LINK, decimals: 18, perSecond: E18 / 1000n, periodFinish: NOW + 86_400 }],
  });
  const run = (pools: (typeof base)[], gauges: GaugeData | undefined) =>
    decorateChain({ pools, pricesUsd, history: [], nowSeconds: NOW, protocolSwapFee: 0.5, gauges });

  it('the BPT price is liquidity per share; apr.min and apr.max add staking min/max and the rewards', () => {
    const out = run([base, other], {
      status: 'fresh',
      bal: A.BAL,
      byPool: new Map([[base.id, withGauge]]),
      unread: new Set(),
    });
    expect(out.get(base.id)!.apr).toMatchObject({
      stakingApr: { min: 1577, max: 3942 },
      rewardAprs: { total: 473 },
      min: 1577 + 473,
      max: 3942 + 473,
    });
    expect(out.get(base.id)!.maxApr).toBe(3942 + 473);
    expect(out.get(other.id)!.apr).toMatchObject({
      stakingApr: { min: 0, max: 0 },
      rewardAprs: { total: 0, breakdown: {} },
    });
  });

  it("stale gauge data keeps every pool's last staking and reward APRs (never zeros over good data)", () => {
    const pools = [lastApr(base, { min: 10, max: 25 }, { total: 7, breakdown: { [LINK]: 7 } }), other];
    const out = run(pools, { status: 'stale' });
    expect(out.get(base.id)!.apr).toMatchObject({
      stakingApr: { min: 10, max: 25 },
      rewardAprs: { total: 7, breakdown: { [LINK]: 7 } },
      min: 17,
      max: 32,
    });
    expect(out.get(other.id)!.apr).toMatchObject({ stakingApr: { min: 0, max: 0 } });
  });

  it('a pool whose gauge could not be read keeps its last figures while the others are fresh', () => {
    const pools = [
      lastApr(base, { min: 10, max: 25 }, { total: 7, breakdown: { [LINK]: 7 } }),
      lastApr(other, { min: 3, max: 8 }, { total: 0, breakdown: {} }),
    ];
    const out = run(pools, { status: 'fresh', bal: A.BAL, byPool: new Map(), unread: new Set([base.id]) });
    expect(out.get(base.id)!.apr).toMatchObject({ stakingApr: { min: 10, max: 25 }, rewardAprs: { total: 7 } });
    // Fresh data without a gauge for the pool: it no longer earns from one.
    expect(out.get(other.id)!.apr).toMatchObject({ stakingApr: { min: 0, max: 0 } });
  });

  it('without a gauge source the parts are 0', () => {
    const out = run([lastApr(base, { min: 10, max: 25 }, { total: 7, breakdown: {} })], undefined);
    expect(out.get(base.id)!.apr).toMatchObject({
      stakingApr: { min: 0, max: 0 },
      rewardAprs: { total: 0, breakdown: {} },
    });
  });
});
