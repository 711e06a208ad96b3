/**
 * The fixed mix of quote requests on the mainnet snapshot (block 14717479) that the routing
 * benchmark times and the routing tests check against the SOR driven directly.
 */

export const TOKENS = {
  WETH: { address: '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2', decimals: 18 },
  USDC: { address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48', decimals: 6 },
  DAI: { address: '0x6b175474e89094c44da98b954eedeac495271d0f', decimals: 18 },
  USDT: { address: '0xdac17f958d2ee523a2206206994597c13d831ec7', decimals: 6 },
  BAL: { address: '0xba100000625a3754423978a60c9317c58a424e3d', decimals: 18 },
  WBTC: { address: '0x2260fac5e5542a773aa44fbcfedf7c193bc2c599', decimals: 8 },
  /** Rocket Pool ETH: in the snapshot's rETH/WETH MetaStable pool 0x1e19cf2d...0112. */
  rETH: { address: '0xae78736cd615f374d3085123a210448e74fc6393', decimals: 18 },
  AAVE: { address: '0x7fc66500c84a76ad7e9c93437bfc5ac33e2ddae9', decimals: 18 },
} as const;

export type TokenName = keyof typeof TOKENS;

export interface QuoteCase {
  readonly name: string;
  readonly sellToken: string;
  readonly buyToken: string;
  readonly orderKind: 'sell' | 'buy';
  /** Smallest units of the sell token (sell) or the buy token (buy). */
  readonly amount: string;
  readonly gasPrice: string;
}

const GWEI = 10n ** 9n;

/** [sell, buy, whole units of the amount token]. */
const PAIRS: readonly (readonly [TokenName, TokenName, number])[] = [
  ['WETH', 'USDC', 10],
  ['USDC', 'WETH', 10_000],
  ['WETH', 'DAI', 1],
  ['DAI', 'WETH', 1_000],
  ['USDC', 'DAI', 10_000],
  ['DAI', 'USDT', 100],
  ['USDT', 'USDC', 1_000],
  ['BAL', 'WETH', 1_000],
  ['WETH', 'BAL', 10],
  ['WBTC', 'WETH', 1],
  ['WETH', 'WBTC', 100],
  ['rETH', 'WETH', 10],
  ['WETH', 'rETH', 100],
  ['AAVE', 'WETH', 100],
  ['WETH', 'AAVE', 1],
  ['BAL', 'USDC', 100],
  ['WBTC', 'USDC', 1],
  ['DAI', 'BAL', 10_000],
  ['AAVE', 'BAL', 10],
  ['USDC', 'WBTC', 1_000],
  ['USDT', 'WETH', 10_000],
  ['BAL', 'DAI', 1],
];

function units(token: TokenName, whole: number): string {
  return (BigInt(whole) * 10n ** BigInt(TOKENS[token].decimals)).toString();
}

/** 44 requests: every pair sold and bought, gas price 0 and 30 gwei alternating. */
export const QUOTE_CASES: readonly QuoteCase[] = PAIRS.flatMap(([sell, buy, whole], i) => {
  const gas = (k: number) => ((i + k) % 2 === 0 ? '0' : (30n * GWEI).toString());
  return [
    {
      name: `sell ${whole} ${sell} for ${buy}`,
      sellToken: TOKENS[sell].address,
      buyToken: TOKENS[buy].address,
      orderKind: 'sell' as const,
      amount: units(sell, whole),
      gasPrice: gas(0),
    },
    {
      name: `buy ${whole} ${buy} with ${sell}`,
      sellToken: TOKENS[sell].address,
      buyToken: TOKENS[buy].address,
      orderKind: 'buy' as const,
      amount: units(buy, whole),
      gasPrice: gas(1),
    },
  ];
});

/**
 * Token prices in ETH fed to the price table for gas-cost tests and the benchmark (inputs, in the
 * range of May 2022; only their order of magnitude matters for gas costs).
 */
export const PRICES_IN_ETH: Readonly<Record<TokenName, string>> = {
  WETH: '1',
  USDC: '0.00034',
  DAI: '0.00034',
  USDT: '0.00034',
  BAL: '0.0034',
  WBTC: '13.5',
  rETH: '1.02',
  AAVE: '0.045',
};
