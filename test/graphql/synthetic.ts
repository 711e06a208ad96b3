import { MAINNET } from '../helpers/snapshot';

const TOKENS = Object.values(MAINNET);
const TYPES = ['Weighted', 'Weighted', 'Weighted', 'Stable', 'MetaStable', 'LiquidityBootstrapping', 'AaveLinear'];

function hex(n: number, bytes: number): string {
  return n.toString(16).padStart(bytes * 2, '0');
}

/**
 * `n` subgraph-shaped pools with deterministic, varied values (types, fees, shares, liquidity,
 * 2-4 tokens from the well-known mainnet set), for tests that must not depend on ../shared and
 * for the 10,000-pool benchmark.
 */
export function syntheticPools(n: number): Record<string, unknown>[] {
  const pools: Record<string, unknown>[] = [];
  for (let k = 0; k < n; k++) {
    const address = `0x${hex(0xabc000 + k, 20)}`;
    const tokenCount = 2 + (k % 3);
    const tokens = Array.from({ length: tokenCount }, (_, j) => ({
      address: TOKENS[(k + j * 3) % TOKENS.length] as string,
      balance: `${(k * 7919 + j * 104729) % 1000003}.${(k * 31 + j) % 1000}`,
      decimals: 18,
      weight: (1 / tokenCount).toFixed(4),
      priceRate: '1',
    }));
    pools.push({
      id: `${address}0002${hex(k, 10)}`,
      address,
      poolType: TYPES[k % TYPES.length],
      swapFee: ['0.003', '0.001', '0.0025', '0.01', '0.0004'][k % 5],
      totalShares: `${(k * 104723) % 9999991}.${k % 97}`,
      totalLiquidity: `${(k * 15485863) % 100000007}.${k % 13}`,
      totalWeight: '1',
      swapEnabled: k % 11 !== 0,
      tokens,
      tokensList: tokens.map((t) => t.address),
    });
  }
  return pools;
}
