import { aprBreakdown, rateGrowthApr, swapFeeApr, tokenAprs } from '../../../src/domain/decoration/apr';
import { decorateChain } from '../../../src/domain/decoration/decorateChain';
import { dec } from '../../../src/domain/decoration/exact';
import { A, point, pool, token } from './poolBuilder';

const NOW = 1_700_000_000;
const DAY = 86_400;

describe('APR parts (basis points)', () => {
  it('swap fees: round(365 x 10000 x fees24h x (1 - protocol fee) / liquidity)', () => {
    // 365 x 10000 x 10 x 0.5 / 1,000,000 = 18.25 -> 18; without protocol fee 36.5 -> 37.
    expect(swapFeeApr(dec(10), dec(1_000_000), 0.5)).toBe(18);
    expect(swapFeeApr(dec(10), dec(1_000_000), 0)).toBe(37);
  });

  it('swap fees are 0 without liquidity (never Infinity or NaN)', () => {
    expect(swapFeeApr(dec(10), dec(0), 0.5)).toBe(0);
    expect(swapFeeApr(dec(10), undefined, 0.5)).toBe(0);
  });

  it('token yield: priceRate growth annualized from our own history (1 -> 1.001 in 7 days = 521.43 bps)', () => {
    const history = [
      point('p', NOW - 7 * DAY, '0', '0', { [A.WSTETH]: '1' }),
      point('p', NOW - 2 * DAY, '0', '0', { [A.WSTETH]: '1.0008' }),
    ];
    // 0.001 x 365 / 7 x 10000 = 521.428571...
    expect(rateGrowthApr(A.WSTETH, '1.001', history, NOW)).toBeCloseTo(521.428571, 5);
  });

  it('token yield is 0 with less than a day of history, or a falling rate', () => {
    expect(rateGrowthApr(A.WSTETH, '1.001', [point('p', NOW - 3_600, '0', '0', { [A.WSTETH]: '1' })], NOW)).toBe(0);
    expect(rateGrowthApr(A.WSTETH, '0.99', [point('p', NOW - 3 * DAY, '0', '0', { [A.WSTETH]: '1' })], NOW)).toBe(0);
  });

  it("token APRs weight each yield by the token's share of liquidity (521.43 bps on half the pool = 261)", () => {
    const t = tokenAprs(
      [
        { address: A.WSTETH, aprBps: 521.428571, value: dec(500) },
        { address: A.WETH, aprBps: 0, value: dec(500) },
      ],
      dec(1000),
    );
    expect(t).toEqual({ total: 261, breakdown: { [A.WSTETH]: 261 } });
  });

  it('staking and reward APRs are 0 without a gauge source; min and max add the parts', () => {
    const apr = aprBreakdown(18, { total: 261, breakdown: { [A.WSTETH]: 261 } });
    expect(apr).toEqual({
      swapFees: 18,
      tokenAprs: { total: 261, breakdown: { [A.WSTETH]: 261 } },
      stakingApr: { min: 0, max: 0 },
      rewardAprs: { total: 0, breakdown: {} },
      protocolApr: 0,
      min: 279,
      max: 279,
    });
  });
});

describe('decorating a chain', () => {
  const weighted = pool(
    '1',
    'Weighted',
    [token(A.WETH, '250', { weight: '0.5' }), token(A.USDC, '500000', { weight: '0.5' })],
    {
      totalSwapVolume: '3000000',
      totalSwapFee: '3000',
    },
  );
  // 24 h ago the pool had 1,000,000 volume and 1,000 fees: 2,000,000 volume and 2,000 fees since.
  const history = [point(weighted.id, NOW - DAY, '1000000', '1000')];
  const pricesUsd = new Map([
    [A.WETH, '2000'],
    [A.USDC, '1'],
  ]);

  it('fills every field; swap-fee APR from the 24 h fees and liquidity with the protocol fee (2000 fees on 1,000,000: 3650 bps)', () => {
    const d = decorateChain({ pools: [weighted], pricesUsd, history, nowSeconds: NOW, protocolSwapFee: 0.5 }).get(
      weighted.id,
    )!;
    // liquidity 250 x 2000 + 500000 = 1,000,000; 365 x 10000 x 2000 x 0.5 / 1e6 = 3650.
    expect(d).toMatchObject({
      totalLiquidity: '1000000',
      volumeSnapshot: '2000000',
      feesSnapshot: '2000',
      snapshotExtrapolated: false,
      maxApr: 3650,
      isNew: false,
    });
    expect(d.apr?.swapFees).toBe(3650);
  });

  it('charges no protocol fee in recovery mode (7300 bps)', () => {
    const recovering = { ...weighted, isInRecoveryMode: true };
    const d = decorateChain({ pools: [recovering], pricesUsd, history, nowSeconds: NOW, protocolSwapFee: 0.5 }).get(
      weighted.id,
    )!;
    expect(d.apr?.swapFees).toBe(7300);
  });

  it('marks pools created less than 7 days ago as new', () => {
    const fresh = { ...weighted, createTime: NOW - 6 * DAY };
    const old = { ...weighted, id: `${weighted.id.slice(0, -1)}2`, createTime: NOW - 8 * DAY };
    const out = decorateChain({ pools: [fresh, old], pricesUsd, history: [], nowSeconds: NOW, protocolSwapFee: 0.5 });
    expect(out.get(fresh.id)?.isNew).toBe(true);
    expect(out.get(old.id)?.isNew).toBe(false);
  });

  it("gives a nested BPT the sub-pool's swap-fee + token APR, weighted by its share", () => {
    // Sub-pool L: liquidity 1,000,000 (as above), swap-fee APR 3650 bps. Outer pool holds all of L's
    // 100 shares (1,000,000 USD) plus 1,000,000 USDC: L-BPT is half the pool -> 1825 bps.
    const outer = pool('9', 'Weighted', [
      token(weighted.address, '100', { weight: '0.5' }),
      token(A.USDC, '1000000', { weight: '0.5' }),
    ]);
    const out = decorateChain({ pools: [outer, weighted], pricesUsd, history, nowSeconds: NOW, protocolSwapFee: 0.5 });
    expect(out.get(outer.id)?.totalLiquidity).toBe('2000000');
    expect(out.get(outer.id)?.apr?.tokenAprs).toEqual({ total: 1825, breakdown: { [weighted.address]: 1825 } });
  });

  it('stores only finite numbers, even for empty pools and zero shares', () => {
    const empty = pool(
      '5',
      'Weighted',
      [token(A.WETH, '0', { weight: '0.5' }), token(A.USDC, '0', { weight: '0.5' })],
      { totalShares: '0' },
    );
    const holder = pool('6', 'Stable', [token(empty.address, '10'), token(A.DAI, '5')]);
    const out = decorateChain({
      pools: [empty, holder],
      pricesUsd,
      history: [],
      nowSeconds: NOW,
      protocolSwapFee: 0.5,
    });
    const json = JSON.stringify([...out.values()]);
    expect(json).not.toMatch(/NaN|Infinity|null/);
    expect(out.get(empty.id)?.apr?.max).toBe(0);
  });
});
