import { decimalToUnits } from '../../src/domain/decimal';
import { normalizePool } from '../../src/domain/normalizePool';
import type { OnchainPool } from '../../src/devnet/indexer/onchainPools';
import { toSubgraphPool } from '../../src/devnet/indexer/subgraphPools';
import { DAI, E18, prices, USDC, weighted } from './onchainFixture';

describe('toSubgraphPool', () => {
  test('balances are exact human-unit decimals that convert back to the raw Vault balances', () => {
    const shaped = toSubgraphPool(weighted, prices) as {
      tokens: { balance: string; decimals: number; weight: string }[];
      totalShares: string;
    };
    expect(shaped.tokens.map((t) => t.balance)).toEqual(['1234567.890123', '123.45678901']);
    expect(shaped.tokens.map((t) => decimalToUnits(t.balance, t.decimals))).toEqual(
      weighted.tokens.map((t) => t.balance),
    );
    expect(shaped.tokens.map((t) => t.weight)).toEqual(['0.2', '0.8']);
    expect(shaped.totalShares).toBe('123.456789012345678901');
  });

  test('liquidity, volume and fees are priced with the given USD prices', () => {
    const shaped = toSubgraphPool(weighted, prices);
    // 1234567.890123 USDC + 123.45678901 WBTC x 60000
    expect(shaped.totalLiquidity).toBe('8641975.230723');
    // 1500 USDC in, then 0.01 WBTC (600 USD) in; fee 0.3 %
    expect(shaped.totalSwapVolume).toBe('2100');
    expect(shaped.totalSwapFee).toBe('6.3');
    expect(shaped.swapsCount).toBe('2');
  });

  test('a composable stable pool reports amp without precision and leaves its BPT out of liquidity', () => {
    const bpt = `0x${'cd'.repeat(20)}`;
    const stable: OnchainPool = {
      ...weighted,
      kind: 'composableStable',
      version: 3,
      address: bpt,
      amp: { value: 200_000n, precision: 1000n },
      swaps: [],
      tokens: [
        { address: USDC, symbol: 'USDC', name: 'USD Coin', decimals: 6, balance: 5_000_000n, weight: null, rate: E18 },
        { address: bpt, symbol: 'BPT', name: 'BPT', decimals: 18, balance: 2n ** 111n, weight: null, rate: E18 },
        {
          address: DAI,
          symbol: 'DAI',
          name: 'Dai',
          decimals: 18,
          balance: 7n * E18,
          weight: null,
          rate: 1_050_000_000_000_000_000n,
        },
      ],
    };
    const shaped = toSubgraphPool(stable, prices) as Record<string, unknown> & { tokens: { priceRate: string }[] };
    expect(shaped).toMatchObject({
      poolType: 'ComposableStable',
      poolTypeVersion: 3,
      amp: '200',
      totalLiquidity: '12',
      totalWeight: '0',
    });
    expect(shaped.tokens.map((t) => t.priceRate)).toEqual(['1', '1', '1.05']);
  });

  test("what it serves passes the pool-update job's validation unchanged", () => {
    const result = normalizePool(toSubgraphPool(weighted, prices));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.pool.tokens.map((t) => t.balance)).toEqual(['1234567.890123', '123.45678901']);
  });
});

describe('pool types beyond weighted', () => {
  const bpt = `0x${'1b'.repeat(20)}`;
  const wrapped = `0x${'3c'.repeat(20)}`;
  const linear: OnchainPool = {
    ...weighted,
    kind: 'linear',
    version: 3,
    address: bpt,
    amp: null,
    swaps: [],
    totalShares: 900_000n * E18,
    linear: { mainIndex: 1, wrappedIndex: 2, lowerTarget: 200_000n * E18, upperTarget: 1_000_000n * E18 },
    tokens: [
      {
        address: bpt,
        symbol: 'bb-USDC',
        name: 'Linear USDC',
        decimals: 18,
        balance: 2n ** 112n - 900_000n * E18,
        weight: null,
        rate: E18,
      },
      {
        address: USDC,
        symbol: 'USDC',
        name: 'USD Coin',
        decimals: 6,
        balance: 500_000_000_000n,
        weight: null,
        rate: E18,
      },
      {
        address: wrapped,
        symbol: 'wUSDC',
        name: 'Wrapped USDC',
        decimals: 6,
        balance: 400_000_000_000n,
        weight: null,
        rate: 1_073_123_456_699_908_595n,
      },
    ],
  };

  test('a linear pool is ERC4626Linear with its indexes, targets, wrapped rate and virtual supply', () => {
    const shaped = toSubgraphPool(linear, prices) as Record<string, unknown> & { tokens: { priceRate: string }[] };
    expect(shaped).toMatchObject({
      poolType: 'ERC4626Linear',
      poolTypeVersion: 3,
      mainIndex: 1,
      wrappedIndex: 2,
      lowerTarget: '200000',
      upperTarget: '1000000',
      totalShares: '900000',
      amp: null,
    });
    expect(shaped.tokens.map((t) => t.priceRate)).toEqual(['1', '1', '1.073123456699908595']);
  });

  test('a boosted pool names the rate provider of the BPT it holds; a plain stable pool is Stable', () => {
    const boosted: OnchainPool = {
      ...linear,
      kind: 'composableStable',
      address: `0x${'2d'.repeat(20)}`,
      linear: null,
      amp: { value: 1_500_000n, precision: 1000n },
      rateProviders: [{ token: bpt, provider: bpt }],
    };
    const shaped = toSubgraphPool(boosted, prices) as Record<string, unknown>;
    expect(shaped).toMatchObject({
      poolType: 'ComposableStable',
      amp: '1500',
      mainIndex: null,
      lowerTarget: null,
      priceRateProviders: [{ address: bpt, token: { address: bpt } }],
    });
    expect(
      toSubgraphPool({ ...weighted, kind: 'stable', version: 2, amp: { value: 120_000n, precision: 1000n } }, prices),
    ).toMatchObject({ poolType: 'Stable', poolTypeVersion: 2, amp: '120' });
  });

  test("what it serves for a linear pool passes the pool-update job's validation with every linear field", () => {
    const result = normalizePool(toSubgraphPool(linear, prices));
    expect(result.ok).toBe(true);
    if (result.ok)
      expect(result.pool).toMatchObject({
        poolType: 'ERC4626Linear',
        mainIndex: 1,
        wrappedIndex: 2,
        lowerTarget: '200000',
        upperTarget: '1000000',
        totalShares: '900000',
      });
  });
});
