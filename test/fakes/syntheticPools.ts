import type { Address } from '../../src/domain/address';
import { createHash } from 'node:crypto';
import { unitsToDecimal } from '../../src/domain/decimal';

/**
 * Deterministic synthetic pools in the subgraph's shape, for tests and benchmarks that need more
 * pools than the real snapshot holds. Same arguments, same pools: every value is derived from a
 * SHA-256 of (seed, index, field), never from Math.random. Two in three pools are Weighted (2-4
 * tokens, weights summing to 1), one in three Stable (amp 200); tokens come from a fixed universe
 * with symbols, names and 6 or 18 decimals. Ids are valid Balancer pool ids: the pool address
 * (20 bytes), the specialization (2 bytes) and a nonce (10 bytes).
 */
export interface SyntheticPoolsOptions {
  /** Changes every derived value (default 'synthetic'). */
  readonly seed?: string;
  /** Size of the token universe pools draw from (default 64). */
  readonly tokenCount?: number;
}

export interface SyntheticToken {
  readonly address: Address;
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
}

export interface SyntheticPool {
  readonly id: string;
  readonly address: Address;
  readonly poolType: 'Weighted' | 'Stable';
  readonly poolTypeVersion: number;
  readonly factory: string;
  readonly owner: string;
  readonly symbol: string;
  readonly name: string;
  readonly swapFee: string;
  readonly swapEnabled: boolean;
  readonly isPaused: boolean;
  readonly isInRecoveryMode: boolean;
  readonly amp: string | null;
  readonly totalShares: string;
  readonly totalWeight: string;
  readonly totalSwapVolume: string;
  readonly totalSwapFee: string;
  readonly totalLiquidity: string;
  readonly createTime: number;
  readonly swapsCount: string;
  readonly holdersCount: string;
  readonly tokensList: string[];
  readonly tokens: {
    readonly id: string;
    readonly address: string;
    readonly symbol: string;
    readonly name: string;
    readonly decimals: number;
    readonly balance: string;
    readonly weight: string | null;
    readonly priceRate: string;
  }[];
}

function hex(seed: string, ...parts: (string | number)[]): string {
  return createHash('sha256')
    .update([seed, ...parts].join(':'))
    .digest('hex');
}

/** A non-negative integer below `bound` derived from the inputs. */
function pick(bound: number, seed: string, ...parts: (string | number)[]): number {
  return Number(BigInt(`0x${hex(seed, ...parts).slice(0, 12)}`) % BigInt(bound));
}

export function syntheticTokens(options: SyntheticPoolsOptions = {}): SyntheticToken[] {
  const seed = options.seed ?? 'synthetic';
  const count = options.tokenCount ?? 64;
  return Array.from({ length: count }, (_, i) => ({
    address: `0x${hex(seed, 'token', i).slice(0, 40)}` as Address,
    symbol: `TK${String(i).padStart(3, '0')}`,
    name: `Synthetic Token ${i}`,
    decimals: i % 4 === 3 ? 6 : 18,
  }));
}

const WEIGHTS: Record<number, string[]> = {
  2: ['0.5', '0.5'],
  3: ['0.4', '0.3', '0.3'],
  4: ['0.25', '0.25', '0.25', '0.25'],
};

export function syntheticPools(count: number, options: SyntheticPoolsOptions = {}): SyntheticPool[] {
  const seed = options.seed ?? 'synthetic';
  const universe = syntheticTokens(options);
  const pools: SyntheticPool[] = [];
  for (let i = 0; i < count; i++) {
    const stable = i % 3 === 2;
    const size = stable ? 2 + pick(2, seed, i, 'size') : 2 + pick(3, seed, i, 'size');
    const chosen = new Map<string, SyntheticToken>();
    for (let k = 0; chosen.size < size; k++) {
      const t = universe[pick(universe.length, seed, i, 'token', k)]!;
      chosen.set(t.address, t);
    }
    // The Vault keeps a pool's tokens sorted by address.
    const tokens = [...chosen.values()].sort((a, b) => (a.address < b.address ? -1 : 1));
    const address = `0x${hex(seed, 'pool', i).slice(0, 40)}` as Address;
    const specialization = stable ? '0000' : size === 2 ? '0002' : '0001';
    const id = `${address}${specialization}${i.toString(16).padStart(20, '0')}`;
    const weights = WEIGHTS[size]!;
    pools.push({
      id,
      address,
      poolType: stable ? 'Stable' : 'Weighted',
      poolTypeVersion: stable ? 2 : 4,
      factory: `0x${hex(seed, 'factory', stable ? 'stable' : 'weighted').slice(0, 40)}`,
      owner: '0x0000000000000000000000000000000000000000',
      symbol: `SP${i}`,
      name: `Synthetic ${stable ? 'Stable' : 'Weighted'} Pool ${i}`,
      swapFee: ['0.0001', '0.0005', '0.003', '0.01'][pick(4, seed, i, 'fee')]!,
      swapEnabled: true,
      isPaused: false,
      isInRecoveryMode: false,
      amp: stable ? '200' : null,
      totalShares: unitsToDecimal(BigInt(1 + pick(1_000_000_000, seed, i, 'shares')) * 10n ** 15n, 18),
      totalWeight: stable ? '0' : '1',
      totalSwapVolume: unitsToDecimal(BigInt(pick(1_000_000_000, seed, i, 'volume')), 2),
      totalSwapFee: unitsToDecimal(BigInt(pick(10_000_000, seed, i, 'fees')), 2),
      totalLiquidity: unitsToDecimal(BigInt(pick(100_000_000, seed, i, 'liquidity')), 2),
      createTime: 1_650_000_000 + i * 60,
      swapsCount: String(pick(100_000, seed, i, 'swaps')),
      holdersCount: String(1 + pick(1_000, seed, i, 'holders')),
      tokensList: tokens.map((t) => t.address),
      tokens: tokens.map((t, k) => ({
        id: `${id}-${t.address}`,
        address: t.address,
        symbol: t.symbol,
        name: t.name,
        decimals: t.decimals,
        balance: unitsToDecimal(
          BigInt(1 + pick(1_000_000_000_000, seed, i, 'balance', k)) * 10n ** BigInt(t.decimals - 3),
          t.decimals,
        ),
        weight: stable ? null : weights[k]!,
        priceRate: '1',
      })),
    });
  }
  return pools;
}
