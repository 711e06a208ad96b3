import type { FakeBuffer, FakeV3Pool } from '../fakes/v3VaultFake';

/**
 * Two V3 pools as the catalogue lists them and as a fake V3 Vault holds them (a weighted DAI/USDC
 * pool, a stable waUSDC/USDT pool with a rate provider and a hook), and the Vault's waUSDC buffer:
 * the followed V3 state the head follower's tests start from.
 */
export const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
export const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
export const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
export const WAUSDC = `0x${'5a'.repeat(20)}`;
export const PROVIDER = `0x${'77'.repeat(20)}`;
export const ZERO = `0x${'0'.repeat(40)}`;
export const W = `0x${'e1'.repeat(20)}`;
export const S = `0x${'e2'.repeat(20)}`;
export const E18 = 10n ** 18n;

export function catalogueWeighted() {
  return {
    protocolVersion: 3,
    id: W,
    address: W,
    poolType: 'Weighted',
    poolTypeVersion: 1,
    factory: `0x${'fa'.repeat(20)}`,
    swapFee: '0.003',
    totalShares: '100',
    tokens: [
      { address: DAI, index: 0, symbol: 'DAI', decimals: 18, balance: '90', priceRate: '1', paysYieldFees: false },
      { address: USDC, index: 1, symbol: 'USDC', decimals: 6, balance: '91', priceRate: '1', paysYieldFees: false },
    ],
    weights: ['0.5', '0.5'],
  };
}

export function catalogueStable() {
  return {
    protocolVersion: 3,
    id: S,
    address: S,
    poolType: 'Stable',
    poolTypeVersion: 1,
    factory: `0x${'fb'.repeat(20)}`,
    swapFee: '0.0001',
    totalShares: '2000',
    // Token order is the Vault's, whatever order the subgraph lists them in.
    tokens: [
      { address: USDT, index: 1, symbol: 'USDT', decimals: 6, balance: '1000', paysYieldFees: false },
      {
        address: WAUSDC,
        index: 0,
        symbol: 'waUSDC',
        decimals: 6,
        balance: '900',
        priceRate: '1.1',
        paysYieldFees: true,
      },
    ],
    rateProviders: [{ address: PROVIDER, token: { address: WAUSDC } }],
    amp: '500',
  };
}

export const weighted = (): FakeV3Pool => ({
  address: W,
  tokens: [DAI, USDC],
  decimals: [18, 6],
  balancesRaw: [100n * E18, 101_000_000n],
  lastLiveBalances: [100n * E18, 101n * E18],
  rates: [E18, E18],
  rateProviders: [ZERO, ZERO],
  paysYieldFees: [false, false],
  staticSwapFee: 3n * 10n ** 15n,
  aggregateSwapFee: 5n * 10n ** 17n,
  aggregateYieldFee: 0n,
  paused: false,
  recovery: false,
  totalSupply: 201n * E18,
  weights: [5n * 10n ** 17n, 5n * 10n ** 17n],
});

export const stable = (): FakeV3Pool => ({
  address: S,
  tokens: [WAUSDC, USDT],
  decimals: [6, 6],
  balancesRaw: [950_000_000n, 1_020_000_000n],
  lastLiveBalances: [1_040_000_000_000_000_000_000n, 1_020n * E18],
  rates: [1_100_000_000_000_000_000n, E18],
  rateProviders: [PROVIDER, ZERO],
  paysYieldFees: [true, false],
  staticSwapFee: 10n ** 14n,
  aggregateSwapFee: 5n * 10n ** 17n,
  aggregateYieldFee: 10n ** 17n,
  paused: false,
  recovery: false,
  totalSupply: 2_000n * E18,
  hook: `0x${'4b'.repeat(20)}`,
  amp: 500_000n,
});

export const buffer = (): FakeBuffer => ({
  token: {
    address: WAUSDC,
    asset: USDC,
    decimals: 6,
    assetDecimals: 6,
    totalAssets: 1_100_000_000_000n,
    totalSupply: 1_000_000_000_000n,
    openZeppelin: true,
    vaultShares: 5_000_000_000n,
  },
  underlyingBalance: 2_000_000_000n,
  wrappedBalance: 1_500_000_000n,
});
