import type { OnchainPool } from '../../src/devnet/indexer/onchainPools';

/** A weighted pool as the on-chain reader returns it (raw units), for the indexer's pure tests. */
export const USDC = '0x00000000000000000000000000000000000000c6';
export const WBTC = '0x0000000000000000000000000000000000000b08';
export const DAI = '0x0000000000000000000000000000000000000d18';
export const E18 = 10n ** 18n;

export const weighted: OnchainPool = {
  id: `0x${'ab'.repeat(20)}000200000000000000000000`,
  address: `0x${'ab'.repeat(20)}`,
  kind: 'weighted',
  version: 2,
  factory: `0x${'fa'.repeat(20)}`,
  owner: `0x${'0e'.repeat(20)}`,
  name: 'USDC-WBTC 20/80',
  symbol: 'B-20USDC-80WBTC',
  swapFee: 3n * 10n ** 15n,
  paused: false,
  swapEnabled: true,
  recoveryMode: false,
  amp: null,
  totalShares: 123456789012345678901n,
  createTime: 1_700_000_000,
  linear: null,
  rateProviders: [],
  tokens: [
    {
      address: USDC,
      symbol: 'USDC',
      name: 'USD Coin',
      decimals: 6,
      balance: 1_234_567_890_123n,
      weight: 2n * 10n ** 17n,
      rate: E18,
    },
    {
      address: WBTC,
      symbol: 'WBTC',
      name: 'Wrapped BTC',
      decimals: 8,
      balance: 12_345_678_901n,
      weight: 8n * 10n ** 17n,
      rate: E18,
    },
  ],
  swaps: [
    { tokenIn: USDC, tokenOut: WBTC, amountIn: 1_500_000_000n, amountOut: 2_400_000n },
    { tokenIn: WBTC, tokenOut: USDC, amountIn: 1_000_000n, amountOut: 600_000_000n },
  ],
};

export const prices = new Map([
  [USDC, '1'],
  [WBTC, '60000'],
  [DAI, '1'],
]);
