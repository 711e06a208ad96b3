/**
 * The Balancer V3 side of the devnet as plain data (amounts are human-unit decimal strings, as in
 * ../universe.ts): the Vault's settings, the ERC-4626 tokens behind the boosted pools and the pools.
 * The first weighted and stable pools hold tokens V2 pools hold too (WETH/USDC, USDC/USDT), so a
 * trade between them has a V2 and a V3 answer to choose from; the rest make most V3 token pairs
 * route, as on mainnet (`../routedPairs.ts` counts them).
 */

const DAY = 24 * 3600;

/**
 * The Vault's constructor settings as Balancer runs it: pause window 4 years and buffer period 180
 * days (the contract's maxima), minimum trade 1e6 and minimum wrap 1e3 units (the monorepo's
 * PRODUCTION_MIN_TRADE_AMOUNT / PRODUCTION_MIN_WRAP_AMOUNT).
 */
export const V3_VAULT_SETTINGS = {
  pauseWindowDuration: 4 * 365 * DAY,
  bufferPeriodDuration: 180 * DAY,
  minTradeAmount: 1_000_000n,
  minWrapAmount: 1_000n,
} as const;

/**
 * Global protocol fees, as Balancer governance set them for V3 (the protocol fee model of BIP-734):
 * 50% of swap fees and 10% of yield. Every pool the standard factories create takes them.
 */
export const V3_PROTOCOL_FEES = { swap: '0.5', yield: '0.1' } as const;

/** Pause window of the pool factories (pools can be paused for this long after the factory's deployment). */
export const V3_FACTORY_PAUSE_WINDOW = 4 * 365 * DAY;

/**
 * ERC-4626 vaults (DevERC4626) over dev tokens for the boosted pool, each with its rate provider.
 * The V3 admin deposits what the pool, its Vault buffer and the traders need at a share price of 1;
 * once the buffer is initialised the vault earns `yieldFraction` of its assets, so the rate the pool
 * reads is above 1 and the pool owes the protocol a yield fee.
 */
export interface V3WrappedTokenSpec {
  readonly symbol: string;
  readonly name: string;
  readonly asset: string;
  readonly yieldFraction: string;
  /** The Vault buffer's initial underlying and wrapped amounts. */
  readonly buffer: { readonly underlying: string; readonly wrapped: string };
}

export const V3_WRAPPED_TOKENS: readonly V3WrappedTokenSpec[] = [
  {
    symbol: 'waUSDC',
    name: 'Wrapped USDC yield vault for V3 (devnet)',
    asset: 'USDC',
    yieldFraction: '0.0421357913',
    buffer: { underlying: '100000', wrapped: '100000' },
  },
  {
    symbol: 'waUSDT',
    name: 'Wrapped USDT yield vault for V3 (devnet)',
    asset: 'USDT',
    yieldFraction: '0.0275318642',
    buffer: { underlying: '80000', wrapped: '120000' },
  },
  // Created after the LBP factories (devnetV3.ts), so no earlier address moved when they came.
  {
    symbol: 'waDAI',
    name: 'Wrapped DAI yield vault for V3 (devnet)',
    asset: 'DAI',
    yieldFraction: '0.0318274519',
    buffer: { underlying: '100000', wrapped: '100000' },
  },
  {
    symbol: 'waWETH',
    name: 'Wrapped WETH yield vault for V3 (devnet)',
    asset: 'WETH',
    yieldFraction: '0.0213795461',
    buffer: { underlying: '40', wrapped: '40' },
  },
];

/** How many of `V3_WRAPPED_TOKENS` the admin creates before the LBP factories (the rest after them). */
export const V3_WRAPPED_BEFORE_LBP_FACTORIES = 2;

export interface V3WeightedPoolSpec {
  readonly kind: 'weighted';
  readonly name: string;
  readonly symbol: string;
  readonly tokens: readonly { readonly symbol: string; readonly weight: string; readonly balance: string }[];
  readonly swapFee: string;
}

export interface V3StablePoolSpec {
  readonly kind: 'stable';
  readonly name: string;
  readonly symbol: string;
  /** A `V3_WRAPPED_TOKENS` token is registered WITH_RATE (its rate provider) and pays yield fees. */
  readonly tokens: readonly { readonly symbol: string; readonly balance: string }[];
  readonly amp: number;
  readonly swapFee: string;
}

export type V3PoolSpec = V3WeightedPoolSpec | V3StablePoolSpec;

/**
 * Weighted pools, then stable ones: each factory lists its pools in creation order, which is how a
 * running devnet reads back (read.ts). Beside the first of each, mainnet's shape: weighted pools
 * joining the V3 tokens to WETH and to each other, and a boosted pool on each stable pair, each
 * token over its buffer. The sales' tokens (LINK, BAL) stay in their sales alone, and WBTC in no V3
 * pool, as the end-to-end suite needs.
 */
export const V3_POOLS: readonly V3PoolSpec[] = [
  {
    kind: 'weighted',
    name: 'V3 WETH-USDC 50/50',
    symbol: 'V3-50WETH-50USDC',
    swapFee: '0.0025',
    tokens: [
      { symbol: 'WETH', weight: '0.5', balance: '150' },
      { symbol: 'USDC', weight: '0.5', balance: '450000' },
    ],
  },
  {
    kind: 'weighted',
    name: 'V3 Boosted waWETH-waUSDC 50/50',
    symbol: 'V3-50waWETH-50waUSDC',
    swapFee: '0.003',
    tokens: [
      { symbol: 'waWETH', weight: '0.5', balance: '50' },
      { symbol: 'waUSDC', weight: '0.5', balance: '150000' },
    ],
  },
  {
    kind: 'weighted',
    name: 'V3 Boosted waWETH-waDAI 50/50',
    symbol: 'V3-50waWETH-50waDAI',
    swapFee: '0.003',
    tokens: [
      { symbol: 'waWETH', weight: '0.5', balance: '30' },
      { symbol: 'waDAI', weight: '0.5', balance: '90000' },
    ],
  },
  {
    kind: 'weighted',
    name: 'V3 USDT-WETH 50/50',
    symbol: 'V3-50USDT-50WETH',
    swapFee: '0.003',
    tokens: [
      { symbol: 'USDT', weight: '0.5', balance: '90000' },
      { symbol: 'WETH', weight: '0.5', balance: '30' },
    ],
  },
  {
    kind: 'weighted',
    name: 'V3 DAI-WETH 50/50',
    symbol: 'V3-50DAI-50WETH',
    swapFee: '0.003',
    tokens: [
      { symbol: 'DAI', weight: '0.5', balance: '120000' },
      { symbol: 'WETH', weight: '0.5', balance: '40' },
    ],
  },
  {
    kind: 'stable',
    name: 'V3 USDC-USDT stable',
    symbol: 'V3-USDC-USDT',
    swapFee: '0.0001',
    amp: 1000,
    tokens: [
      { symbol: 'USDC', balance: '300000' },
      { symbol: 'USDT', balance: '320000' },
    ],
  },
  {
    kind: 'stable',
    name: 'V3 Boosted waUSDC-waUSDT',
    symbol: 'V3-boosted-USD',
    swapFee: '0.0002',
    amp: 500,
    tokens: [
      { symbol: 'waUSDC', balance: '400000' },
      { symbol: 'waUSDT', balance: '380000' },
    ],
  },
  {
    kind: 'stable',
    name: 'V3 Boosted waUSDC-waDAI',
    symbol: 'V3-boosted-USDC-DAI',
    swapFee: '0.0002',
    amp: 500,
    tokens: [
      { symbol: 'waUSDC', balance: '250000' },
      { symbol: 'waDAI', balance: '240000' },
    ],
  },
  {
    kind: 'stable',
    name: 'V3 Boosted waUSDT-waDAI',
    symbol: 'V3-boosted-USDT-DAI',
    swapFee: '0.0002',
    amp: 500,
    tokens: [
      { symbol: 'waUSDT', balance: '200000' },
      { symbol: 'waDAI', balance: '210000' },
    ],
  },
];

/** Wrapped V3 tokens each funded trader receives (their dev tokens come from ../universe.ts TRADER_FUNDS). */
export const V3_TRADER_FUNDS: Readonly<Record<string, string>> = {
  waUSDC: '50000',
  waUSDT: '50000',
  waDAI: '50000',
  waWETH: '20',
};

/**
 * The devnet's V3 token sales (`@balancer-labs/v3-pool-weighted` lbp/), created by the LBP
 * factories and seeded by their owner (the V3 admin) through the Router, the factories' trusted
 * router, before their start. The sale opens `startsIn` seconds after the deployment's head (the
 * deployment then moves the chain's clock to it, a jump of at most that) and lasts `duration`, so
 * it is open while tests and demos run; the weighted sale's weights move every second in between.
 */
export interface V3LbpSpecCommon {
  readonly name: string;
  readonly symbol: string;
  readonly projectToken: { readonly symbol: string; readonly balance: string };
  readonly reserveToken: { readonly symbol: string; readonly balance: string };
  readonly swapFee: string;
  readonly startsIn: number;
  readonly duration: number;
}

export interface V3LbpSpec extends V3LbpSpecCommon {
  readonly kind: 'lbp';
  /** Project token weights (the reserve's are their complements). */
  readonly projectStartWeight: string;
  readonly projectEndWeight: string;
  /** Whether buyers may sell the project token back into the sale. */
  readonly blockProjectTokenSwapsIn: boolean;
}

export interface V3FixedPriceLbpSpec extends V3LbpSpecCommon {
  readonly kind: 'fixedPriceLbp';
  /** Reserve tokens per project token; the fixed-price sale never buys the project token back. */
  readonly projectTokenRate: string;
}

export const V3_LBPS: readonly (V3LbpSpec | V3FixedPriceLbpSpec)[] = [
  {
    kind: 'lbp',
    name: 'V3 LINK sale',
    symbol: 'V3-LBP-LINK-USDC',
    projectToken: { symbol: 'LINK', balance: '100000' },
    reserveToken: { symbol: 'USDC', balance: '200000' },
    projectStartWeight: '0.9',
    projectEndWeight: '0.3',
    blockProjectTokenSwapsIn: false,
    swapFee: '0.01',
    startsIn: 30,
    duration: 30 * DAY,
  },
  {
    kind: 'fixedPriceLbp',
    name: 'V3 BAL fixed-price sale',
    symbol: 'V3-FLBP-BAL-DAI',
    projectToken: { symbol: 'BAL', balance: '50000' },
    reserveToken: { symbol: 'DAI', balance: '0' },
    projectTokenRate: '4.5',
    swapFee: '0.01',
    startsIn: 30,
    duration: 30 * DAY,
  },
];
