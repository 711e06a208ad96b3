/**
 * The local devnet's pool universe as plain data: which tokens exist, what they are worth, and
 * which pools hold them. Deployment (deploy.ts) turns it into contracts; the price endpoint serves
 * the prices; the end-to-end suite picks its orders from it. Amounts are human-unit decimal strings.
 */

export interface DevTokenSpec {
  readonly symbol: string;
  readonly name: string;
  readonly decimals: number;
  /** Fixed USD price served by the local CoinGecko-shaped endpoint. */
  readonly priceUsd: string;
}

export interface WeightedPoolSpec {
  readonly kind: 'weighted';
  readonly name: string;
  readonly symbol: string;
  /** Token symbol -> normalized weight (decimal, sums to 1) and initial balance. */
  readonly tokens: readonly { readonly symbol: string; readonly weight: string; readonly balance: string }[];
  /** Swap fee as a fraction, e.g. "0.003". */
  readonly swapFee: string;
  /** 1 = the 2021 factory; default the 2022 (v2) factory. */
  readonly factoryVersion?: 1 | 2;
}

export interface StablePoolSpec {
  readonly kind: 'composableStable';
  readonly name: string;
  readonly symbol: string;
  readonly tokens: readonly { readonly symbol: string; readonly balance: string }[];
  readonly amp: number;
  readonly swapFee: string;
}

export type PoolSpec = WeightedPoolSpec | StablePoolSpec;

/** The wrapped native token is deployed as WETH9, not as a DevToken; its price is the ETH price. */
export const WETH_SYMBOL = 'WETH';
export const ETH_PRICE_USD = '3000';

export const DEV_TOKENS: readonly DevTokenSpec[] = [
  { symbol: 'USDC', name: 'USD Coin (devnet)', decimals: 6, priceUsd: '1' },
  { symbol: 'USDT', name: 'Tether USD (devnet)', decimals: 6, priceUsd: '1' },
  { symbol: 'DAI', name: 'Dai Stablecoin (devnet)', decimals: 18, priceUsd: '1' },
  { symbol: 'WBTC', name: 'Wrapped BTC (devnet)', decimals: 8, priceUsd: '60000' },
  { symbol: 'BAL', name: 'Balancer (devnet)', decimals: 18, priceUsd: '5' },
  { symbol: 'LINK', name: 'ChainLink Token (devnet)', decimals: 18, priceUsd: '15' },
];

/**
 * Ten pools. LINK only meets the rest of the universe through WETH and BAL through WETH or DAI,
 * so LINK -> DAI, BAL -> USDC or BAL -> WBTC need two hops; WETH/USDC exists twice so routes can
 * split; BAL/DAI is a first-generation (v1) weighted pool.
 */
export const DEV_POOLS: readonly PoolSpec[] = [
  {
    kind: 'weighted', name: 'WETH-USDC 50/50', symbol: 'B-50WETH-50USDC', swapFee: '0.003',
    tokens: [{ symbol: 'WETH', weight: '0.5', balance: '200' }, { symbol: 'USDC', weight: '0.5', balance: '600000' }],
  },
  {
    kind: 'weighted', name: 'WETH-USDC 80/20', symbol: 'B-80WETH-20USDC', swapFee: '0.0005',
    tokens: [{ symbol: 'WETH', weight: '0.8', balance: '80' }, { symbol: 'USDC', weight: '0.2', balance: '60000' }],
  },
  {
    kind: 'weighted', name: 'WBTC-WETH 50/50', symbol: 'B-50WBTC-50WETH', swapFee: '0.003',
    tokens: [{ symbol: 'WBTC', weight: '0.5', balance: '10' }, { symbol: 'WETH', weight: '0.5', balance: '200' }],
  },
  {
    kind: 'weighted', name: 'BAL-WETH 80/20', symbol: 'B-80BAL-20WETH', swapFee: '0.01',
    tokens: [{ symbol: 'BAL', weight: '0.8', balance: '480000' }, { symbol: 'WETH', weight: '0.2', balance: '200' }],
  },
  {
    kind: 'weighted', name: 'LINK-WETH 80/20', symbol: 'B-80LINK-20WETH', swapFee: '0.005',
    tokens: [{ symbol: 'LINK', weight: '0.8', balance: '80000' }, { symbol: 'WETH', weight: '0.2', balance: '100' }],
  },
  {
    kind: 'weighted', name: 'DAI-WETH 50/50', symbol: 'B-50DAI-50WETH', swapFee: '0.003',
    tokens: [{ symbol: 'DAI', weight: '0.5', balance: '300000' }, { symbol: 'WETH', weight: '0.5', balance: '100' }],
  },
  {
    kind: 'weighted', name: 'WBTC-USDT 50/50', symbol: 'B-50WBTC-50USDT', swapFee: '0.005',
    tokens: [{ symbol: 'WBTC', weight: '0.5', balance: '5' }, { symbol: 'USDT', weight: '0.5', balance: '300000' }],
  },
  {
    kind: 'composableStable', name: 'DAI-USDC-USDT stable', symbol: 'B-stable-USD', swapFee: '0.0004', amp: 200,
    tokens: [{ symbol: 'DAI', balance: '1000000' }, { symbol: 'USDC', balance: '1000000' }, { symbol: 'USDT', balance: '1000000' }],
  },
  {
    kind: 'weighted', name: 'WBTC-DAI 50/50', symbol: 'B-50WBTC-50DAI', swapFee: '0.004',
    tokens: [{ symbol: 'WBTC', weight: '0.5', balance: '2' }, { symbol: 'DAI', weight: '0.5', balance: '120000' }],
  },
  {
    kind: 'weighted', name: 'BAL-DAI 60/40 (v1)', symbol: 'B-60BAL-40DAI', swapFee: '0.0025', factoryVersion: 1,
    tokens: [{ symbol: 'BAL', weight: '0.6', balance: '120000' }, { symbol: 'DAI', weight: '0.4', balance: '400000' }],
  },
];

/** What each funded trader account holds after deployment (besides the node's ETH). */
export const TRADER_FUNDS: Readonly<Record<string, string>> = {
  WETH: '100', USDC: '1000000', USDT: '1000000', DAI: '1000000', WBTC: '100', BAL: '1000000', LINK: '100000',
};

export function allSymbols(): string[] {
  return [WETH_SYMBOL, ...DEV_TOKENS.map((t) => t.symbol)];
}
