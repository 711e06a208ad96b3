import { decimalToUnits } from '../../src/domain/decimal';
import { normalizePool } from '../../src/domain/normalizePool';
import type { OnchainPool } from '../../src/devnet/indexer/onchainPools';
import { toSubgraphPool } from '../../src/devnet/indexer/subgraphPools';
import { DAI, E18, prices, USDC, weighted } from './onchainFixture';

describe('toSubgraphPool', () => {
  test('balances are exact human-unit decimals that convert back to the raw Vault balances', () => {
    const shaped = toSubgraphPool(weighted, prices) as { tokens: { balance: string; decimals: number; weight: string }[]; totalShares: string };
    expect(shaped.tokens.map((t) => t.balance)).toEqual(['1234567.890123', '123.45678901']);
    expect(shaped.tokens.map((t) => decimalToUnits(t.balance, t.decimals))).toEqual(weighted.tokens.map((t) => t.balance));
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
      ...weighted, kind: 'composableStable', version: 3, address: bpt, amp: { value: 200_000n, precision: 1000n }, swaps: [],
      tokens: [
        { address: USDC, symbol: 'USDC', name: 'USD Coin', decimals: 6, balance: 5_000_000n, weight: null, rate: E18 },
        { address: bpt, symbol: 'BPT', name: 'BPT', decimals: 18, balance: 2n ** 111n, weight: null, rate: E18 },
        { address: DAI, symbol: 'DAI', name: 'Dai', decimals: 18, balance: 7n * E18, weight: null, rate: 1_050_000_000_000_000_000n },
      ],
    };
    const shaped = toSubgraphPool(stable, prices) as Record<string, unknown> & { tokens: { priceRate: string }[] };
    expect(shaped).toMatchObject({ poolType: 'ComposableStable', poolTypeVersion: 3, amp: '200', totalLiquidity: '12', totalWeight: '0' });
    expect(shaped.tokens.map((t) => t.priceRate)).toEqual(['1', '1', '1.05']);
  });

  test('what it serves passes the pool-update job\'s validation unchanged', () => {
    const result = normalizePool(toSubgraphPool(weighted, prices));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.pool.tokens.map((t) => t.balance)).toEqual(['1234567.890123', '123.45678901']);
  });
});
