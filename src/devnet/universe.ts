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
  /**
   * A token may be another devnet pool's BPT, named by that pool's symbol: the pool is then its
   * rate provider (a boosted pool over linear pools, like mainnet's bb-a-USD).
   */
  readonly tokens: readonly { readonly symbol: string; readonly balance: string }[];
  readonly amp: number;
  readonly swapFee: string;
}

/** A plain stable pool of the 2022 factory (Stable v2): no BPT among its tokens, no rates. */
export interface PlainStablePoolSpec {
  readonly kind: 'stable';
  readonly name: string;
  readonly symbol: string;
  readonly tokens: readonly { readonly symbol: string; readonly balance: string }[];
  readonly amp: number;
  readonly swapFee: string;
}

/**
 * An ERC4626 linear pool (2023 factory, v3) between a token and its ERC-4626 vault's shares.
 * Linear pools have no initial join: the deployer swaps `mainBalance` and `wrappedBalance` in for
 * BPT. Targets are in main token units (fees apply while the main balance is outside them).
 */
export interface LinearPoolSpec {
  readonly kind: 'linear';
  readonly name: string;
  readonly symbol: string;
  readonly main: string;
  /** Symbol of a WRAPPED_TOKENS entry whose asset is `main`. */
  readonly wrapped: string;
  readonly mainBalance: string;
  readonly wrappedBalance: string;
  readonly lowerTarget: string;
  readonly upperTarget: string;
  readonly swapFee: string;
}

export type DevnetPoolSpec = WeightedPoolSpec | StablePoolSpec | PlainStablePoolSpec | LinearPoolSpec;

/** A liquidity bootstrapping pool (the no-protocol-fee factory), swaps enabled from the start. */
export interface LbpSpec {
  readonly name: string;
  readonly symbol: string;
  readonly tokens: readonly { readonly symbol: string; readonly weight: string; readonly balance: string }[];
  readonly swapFee: string;
}

/**
 * An ERC-4626 vault over a dev token (DevERC4626). The deployer deposits what the linear pool and
 * the traders need, at a share price of 1; once the linear pool over it is seeded, the vault earns
 * `yieldFraction` of its assets (minted straight to it), so the wrapped token's rate and the linear
 * pool's BPT rate are above 1, as on a real boosted pool.
 */
export interface WrappedTokenSpec {
  readonly symbol: string;
  readonly name: string;
  readonly asset: string;
  readonly yieldFraction: string;
  /** USD price served by the local price endpoint (the asset's price times the rate, roughly). */
  readonly priceUsd: string;
}

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

export const WRAPPED_TOKENS: readonly WrappedTokenSpec[] = [
  {
    symbol: 'wUSDC',
    name: 'Wrapped USDC yield vault (devnet)',
    asset: 'USDC',
    yieldFraction: '0.0731234567',
    priceUsd: '1.0731',
  },
];

/**
 * Lido on the devnet (DevStETH, DevWstETH): the Lido admin stakes `seedEth`, then reports
 * `pooledEtherAfterRebase` so one share (one wstETH) is worth more than one stETH, an odd ratio
 * that makes every wrap and unwrap round. Each trader stakes `traderEth`. The deployer receives
 * the wstETH the pools below are seeded with.
 */
export const STETH_SYMBOL = 'stETH';
export const WSTETH_SYMBOL = 'wstETH';
export const LIDO = {
  seedEth: '1000',
  pooledEtherAfterRebase: '1153.765432109876543211',
  traderEth: '100',
  stEthPriceUsd: ETH_PRICE_USD,
  wstEthPriceUsd: '3461.3',
} as const;

/**
 * Fourteen pools. LINK only meets the rest of the universe through WETH and BAL through WETH or
 * DAI, so LINK -> DAI, BAL -> USDC or BAL -> WBTC need two hops and LINK -> USDT three; WETH/USDC
 * exists twice so routes can split; BAL/DAI is a first-generation (v1) weighted pool. The last
 * three are a Stable v2 pool, an ERC4626 linear pool (USDC and its yield vault wUSDC) and a
 * boosted composable stable pool holding that linear pool's BPT, so routes go
 * USDC -> bb-USDC -> bb-USD and a pool's own BPT is bought and sold like a token. The last is
 * wstETH/WETH, what stETH orders route through (the relayer wraps or unwraps stETH).
 */
export const DEV_POOLS: readonly DevnetPoolSpec[] = [
  {
    kind: 'weighted',
    name: 'WETH-USDC 50/50',
    symbol: 'B-50WETH-50USDC',
    swapFee: '0.003',
    tokens: [
      { symbol: 'WETH', weight: '0.5', balance: '200' },
      { symbol: 'USDC', weight: '0.5', balance: '600000' },
    ],
  },
  {
    kind: 'weighted',
    name: 'WETH-USDC 80/20',
    symbol: 'B-80WETH-20USDC',
    swapFee: '0.0005',
    tokens: [
      { symbol: 'WETH', weight: '0.8', balance: '80' },
      { symbol: 'USDC', weight: '0.2', balance: '60000' },
    ],
  },
  {
    kind: 'weighted',
    name: 'WBTC-WETH 50/50',
    symbol: 'B-50WBTC-50WETH',
    swapFee: '0.003',
    tokens: [
      { symbol: 'WBTC', weight: '0.5', balance: '10' },
      { symbol: 'WETH', weight: '0.5', balance: '200' },
    ],
  },
  {
    kind: 'weighted',
    name: 'BAL-WETH 80/20',
    symbol: 'B-80BAL-20WETH',
    swapFee: '0.01',
    tokens: [
      { symbol: 'BAL', weight: '0.8', balance: '480000' },
      { symbol: 'WETH', weight: '0.2', balance: '200' },
    ],
  },
  {
    kind: 'weighted',
    name: 'LINK-WETH 80/20',
    symbol: 'B-80LINK-20WETH',
    swapFee: '0.005',
    tokens: [
      { symbol: 'LINK', weight: '0.8', balance: '80000' },
      { symbol: 'WETH', weight: '0.2', balance: '100' },
    ],
  },
  {
    kind: 'weighted',
    name: 'DAI-WETH 50/50',
    symbol: 'B-50DAI-50WETH',
    swapFee: '0.003',
    tokens: [
      { symbol: 'DAI', weight: '0.5', balance: '300000' },
      { symbol: 'WETH', weight: '0.5', balance: '100' },
    ],
  },
  {
    kind: 'weighted',
    name: 'WBTC-USDT 50/50',
    symbol: 'B-50WBTC-50USDT',
    swapFee: '0.005',
    tokens: [
      { symbol: 'WBTC', weight: '0.5', balance: '5' },
      { symbol: 'USDT', weight: '0.5', balance: '300000' },
    ],
  },
  {
    kind: 'composableStable',
    name: 'DAI-USDC-USDT stable',
    symbol: 'B-stable-USD',
    swapFee: '0.0004',
    amp: 200,
    tokens: [
      { symbol: 'DAI', balance: '1000000' },
      { symbol: 'USDC', balance: '1000000' },
      { symbol: 'USDT', balance: '1000000' },
    ],
  },
  {
    kind: 'weighted',
    name: 'WBTC-DAI 50/50',
    symbol: 'B-50WBTC-50DAI',
    swapFee: '0.004',
    tokens: [
      { symbol: 'WBTC', weight: '0.5', balance: '2' },
      { symbol: 'DAI', weight: '0.5', balance: '120000' },
    ],
  },
  {
    kind: 'weighted',
    name: 'BAL-DAI 60/40 (v1)',
    symbol: 'B-60BAL-40DAI',
    swapFee: '0.0025',
    factoryVersion: 1,
    tokens: [
      { symbol: 'BAL', weight: '0.6', balance: '120000' },
      { symbol: 'DAI', weight: '0.4', balance: '400000' },
    ],
  },
  {
    kind: 'stable',
    name: 'USDC-USDT stable (v2)',
    symbol: 'B-USDC-USDT-stable',
    swapFee: '0.0002',
    amp: 120,
    tokens: [
      { symbol: 'USDC', balance: '400000' },
      { symbol: 'USDT', balance: '350000' },
    ],
  },
  {
    kind: 'linear',
    name: 'Linear USDC (ERC4626)',
    symbol: 'bb-USDC',
    main: 'USDC',
    wrapped: 'wUSDC',
    swapFee: '0.0001',
    mainBalance: '500000',
    wrappedBalance: '400000',
    lowerTarget: '200000',
    upperTarget: '1000000',
  },
  {
    kind: 'composableStable',
    name: 'Boosted USD (bb-USDC, DAI, USDT)',
    symbol: 'bb-USD',
    swapFee: '0.0001',
    amp: 1500,
    tokens: [
      { symbol: 'bb-USDC', balance: '600000' },
      { symbol: 'DAI', balance: '650000' },
      { symbol: 'USDT', balance: '550000' },
    ],
  },
  {
    kind: 'weighted',
    name: 'wstETH-WETH 50/50',
    symbol: 'B-50wstETH-50WETH',
    swapFee: '0.0004',
    tokens: [
      { symbol: 'wstETH', weight: '0.5', balance: '150' },
      { symbol: 'WETH', weight: '0.5', balance: '173' },
    ],
  },
];

/** What each funded trader account holds after deployment (besides the node's ETH and the stETH of `LIDO.traderEth`). */
export const TRADER_FUNDS: Readonly<Record<string, string>> = {
  WETH: '100',
  USDC: '1000000',
  USDT: '1000000',
  DAI: '1000000',
  WBTC: '100',
  BAL: '1000000',
  LINK: '100000',
  // Vault shares and BPT come from the deployer's own (deposited, seeded) holdings.
  wUSDC: '100000',
  'bb-USDC': '20000',
  'bb-USD': '20000',
  'B-stable-USD': '20000',
};

export function allSymbols(): string[] {
  return [WETH_SYMBOL, ...DEV_TOKENS.map((t) => t.symbol), ...WRAPPED_TOKENS.map((t) => t.symbol)];
}

/**
 * Tokens on sale, each living only in its liquidity bootstrapping pool, deployed after everything
 * else by their own account (accounts.ts `LBP_ADMIN_INDEX`), so no address above moves. A route
 * may take an LBP only as its first or last hop, so SALEA -> SALEB must go through both:
 * SALEA -> LBP -> WETH -> WETH/USDC pool -> USDC -> LBP -> SALEB.
 */
export const SALE_TOKENS: readonly DevTokenSpec[] = [
  { symbol: 'SALEA', name: 'Sale token A (devnet)', decimals: 18, priceUsd: '0.4' },
  { symbol: 'SALEB', name: 'Sale token B (devnet)', decimals: 6, priceUsd: '0.2' },
];

export const LBP_POOLS: readonly LbpSpec[] = [
  {
    name: 'SALEA-WETH LBP 90/10',
    symbol: 'LBP-SALEA',
    swapFee: '0.01',
    tokens: [
      { symbol: 'SALEA', weight: '0.9', balance: '2000000' },
      { symbol: 'WETH', weight: '0.1', balance: '30' },
    ],
  },
  {
    name: 'SALEB-USDC LBP 80/20',
    symbol: 'LBP-SALEB',
    swapFee: '0.005',
    tokens: [
      { symbol: 'SALEB', weight: '0.8', balance: '1000000' },
      { symbol: 'USDC', weight: '0.2', balance: '50000' },
    ],
  },
];

/**
 * The LBP `npm run demo` sets moving (demo.ts, lbpWeightUpdate.ts): its weights go from the
 * deployed 90/10 to these end weights over `seconds`, every second, as a sale does. The deployment
 * itself leaves every LBP still, so orders quoted from the indexed (not followed) pools stay exact.
 */
export const DEMO_LBP_WEIGHT_UPDATE = {
  pool: 'SALEA-WETH LBP 90/10',
  endWeights: { SALEA: '0.4', WETH: '0.6' } as Readonly<Record<string, string>>,
  seconds: 3 * 86_400,
} as const;

/** Sale tokens each funded trader holds. */
export const SALE_TRADER_FUNDS: Readonly<Record<string, string>> = { SALEA: '200000', SALEB: '100000' };
