import type { Address } from '../../../src/domain/address';
import { decorateChain } from '../../../src/domain/decoration/decorateChain';
import { dependencyOrder } from '../../../src/domain/decoration/dependencyOrder';
import { dec, Exact } from '../../../src/domain/decoration/exact';
import { poolLiquidity } from '../../../src/domain/decoration/liquidity';
import { A, pool, token } from './poolBuilder';

const prices =
  (p: Record<string, string>) =>
  (address: string): Exact | undefined =>
    p[address] !== undefined ? dec(p[address]!) : undefined;
const NOW = 1_700_000_000;

function liquidityOf(pools: ReturnType<typeof pool>[], pricesUsd: Record<string, string>) {
  const out = decorateChain({
    pools,
    pricesUsd: new Map(Object.entries(pricesUsd)),
    history: [],
    nowSeconds: NOW,
    protocolSwapFee: 0.5,
  });
  return (id: string) => out.get(id)?.totalLiquidity;
}

describe('pool liquidity rules', () => {
  it('sums balance x price when every price is known (10 WETH @ 2000 + 20000 USDC @ 1 = 40000)', () => {
    const p = pool('1', 'Weighted', [
      token(A.WETH, '10', { weight: '0.5' }),
      token(A.USDC, '20000', { weight: '0.5' }),
    ]);
    const r = poolLiquidity(p, prices({ [A.WETH]: '2000', [A.USDC]: '1' }));
    expect(r?.rule).toBe('complete');
    expect(r?.total.toFixed()).toBe('40000');
  });

  it("leaves out the pool's own BPT even when it has a market price (100 DAI + 50 USDC = 150)", () => {
    const own = '0x00000000000000000000000000000000000000bb' as Address;
    const p = pool('2', 'ComposableStable', [token(own, '1000000000'), token(A.DAI, '100'), token(A.USDC, '50')], {
      address: own,
    });
    const r = poolLiquidity(p, prices({ [own]: '1', [A.DAI]: '1', [A.USDC]: '1' }));
    expect(r?.total.toFixed()).toBe('150');
  });

  it('extrapolates a weighted pool by weight (80/20 BAL/WETH, only 5 WETH @ 2000 priced: 10000 / 0.2 = 50000)', () => {
    const p = pool('3', 'Weighted', [token(A.BAL, '1000', { weight: '0.8' }), token(A.WETH, '5', { weight: '0.2' })]);
    const r = poolLiquidity(p, prices({ [A.WETH]: '2000' }));
    expect(r?.rule).toBe('weighted');
    expect(r?.total.toFixed()).toBe('50000');
  });

  it('prices a missing stable token at the mean of the known ones (100 DAI @ 1 + 200 USDC @ 1.02 + 300 USDT @ 1.01 = 607)', () => {
    const p = pool('4', 'Stable', [token(A.DAI, '100'), token(A.USDC, '200'), token(A.USDT, '300')]);
    const r = poolLiquidity(p, prices({ [A.DAI]: '1', [A.USDC]: '1.02' }));
    expect(r?.rule).toBe('stable');
    expect(r?.total.toFixed()).toBe('607');
  });

  it('scales the stable mean by priceRate (10 WETH @ 2000 + 5 wstETH at rate 1.1: 5 x 2000 x 1.1 = 11000, total 31000)', () => {
    const p = pool('5', 'MetaStable', [token(A.WSTETH, '5', { priceRate: '1.1' }), token(A.WETH, '10')]);
    const r = poolLiquidity(p, prices({ [A.WETH]: '2000' }));
    expect(r?.total.toFixed()).toBe('31000');
  });

  it('sums what is known for other pool types (Element: 250 USDC @ 1, principal token unpriced)', () => {
    const p = pool('6', 'Element', [token(A.USDC, '250'), token(A.DAI, '400')]);
    const r = poolLiquidity(p, prices({ [A.USDC]: '1' }));
    expect(r?.rule).toBe('partial');
    expect(r?.total.toFixed()).toBe('250');
  });

  it('keeps the previous liquidity when no token has a price, and has none when there never was one', () => {
    const kept = pool('7', 'Weighted', [token(A.BAL, '1', { weight: '0.5' }), token(A.DAI, '1', { weight: '0.5' })], {
      totalLiquidity: '123.45',
    });
    const never = pool('8', 'Weighted', [token(A.BAL, '1', { weight: '0.5' }), token(A.DAI, '1', { weight: '0.5' })]);
    const liq = liquidityOf([kept, never], {});
    expect(liq(kept.id)).toBe('123.45');
    expect(liq(never.id)).toBeUndefined();
  });
});

describe('nested BPTs', () => {
  // Linear pool L: 1000 DAI @ 1 + 500 aDAI (rate 1.05, unpriced -> 1 x 1.05) = 1525, 1500 shares.
  const linear = pool('a1', 'AaveLinear', [token(A.DAI, '1000'), token(A.ADAI, '500', { priceRate: '1.05' })], {
    totalShares: '1500',
  });
  // Boosted pool B holds 750 L-BPT (half of L: 762.5) + 100 USDC @ 1 = 862.5.
  const boostedAddress = '0x00000000000000000000000000000000000000b0' as Address;
  const boosted = pool(
    'b1',
    'StablePhantom',
    [token(boostedAddress, '5000'), token(linear.address, '750'), token(A.USDC, '100')],
    { address: boostedAddress },
  );

  it('prices a BPT at its pool liquidity / totalShares, whatever the input order', () => {
    const liq = liquidityOf([boosted, linear], { [A.DAI]: '1', [A.USDC]: '1' });
    expect(liq(linear.id)).toBe('1525');
    expect(liq(boosted.id)).toBe('862.5');
  });

  it('orders a pool after the pools whose BPT it holds', () => {
    expect(dependencyOrder([boosted, linear]).map((p) => p.id)).toEqual([linear.id, boosted.id]);
  });

  it('cuts a cycle and prices the back edge from the previous liquidity', () => {
    // A holds 10 B-BPT + 100 USDC (100 shares, previously 200); B holds 10 A-BPT + 50 DAI (50 shares).
    const aAddr = '0x00000000000000000000000000000000000000aa' as Address;
    const bAddr = '0x00000000000000000000000000000000000000ab' as Address;
    const a = pool('c1', 'Weighted', [token(bAddr, '10'), token(A.USDC, '100')], {
      address: aAddr,
      totalShares: '100',
      totalLiquidity: '200',
    });
    const b = pool('c2', 'Weighted', [token(aAddr, '10'), token(A.DAI, '50')], { address: bAddr, totalShares: '50' });
    const liq = liquidityOf([a, b], { [A.USDC]: '1', [A.DAI]: '1' });
    // B first (A is on the stack): 10 x (200 / 100) + 50 = 70; then A: 10 x (70 / 50) + 100 = 114.
    expect(liq(b.id)).toBe('70');
    expect(liq(a.id)).toBe('114');
  });
});
