import type { Address } from '../../src/domain/address';
import type { StoredPool } from '../../src/domain/pool';
import type { ChainState } from '../../src/domain/chainState';
import type { StoredBuffer } from '../../src/domain/protocols/v3/stored/storedV3';
import {
  STATA_USDC,
  STATA_USDT,
  USDC as SEPOLIA_USDC,
  DAI as SEPOLIA_DAI,
  USDT as SEPOLIA_USDT,
} from '../helpers/v3Universe';
import { v3StoredBuffers, v3StoredPools } from '../helpers/v3StoredUniverse';
import { storedPool } from '../helpers/poolFixtures';
import { loadV3Vector } from '../helpers/v3Vectors';
import { unitsToDecimal } from '../../src/domain/decimal';
import { TOKENS, type QuoteCase } from './quoteCases';

/**
 * The V3 half of the quotes benchmark: the test V3 universe (`helpers/v3StoredUniverse.ts`, the
 * real Sepolia vectors' Weighted USDC/DAI and Stable stataUSDC/stataUSDT pools and the two
 * static aTokens' buffers) and the mainnet Gyro E-CLP vector's WETH pool, laid over mainnet as the
 * follower lays registered pools; the Sepolia USDC, DAI and USDT renamed to mainnet's so the same
 * pairs also route in the V2 snapshot and `/order` without protocolVersion weighs both Vaults.
 */

const RENAMED: ReadonlyMap<string, string> = new Map([
  [SEPOLIA_USDC, TOKENS.USDC.address],
  [SEPOLIA_DAI, TOKENS.DAI.address],
  [SEPOLIA_USDT, TOKENS.USDT.address],
]);
const renamed = (t: string): string => RENAMED.get(t.toLowerCase()) ?? t.toLowerCase();

function v3BenchPools(): StoredPool[] {
  return v3StoredPools().map((p) => ({
    ...p,
    tokens: p.tokens.map((t) => ({ ...t, address: renamed(t.address) as Address })),
  }));
}

const eclpVector = loadV3Vector('1-23511249-GyroECLP-Barter.json');
const ECLP_OTHER = eclpVector.pool.tokens[1]!.toLowerCase();

/** The E-CLP vector's pool as stored (both tokens 18 decimals at rate 1: raw balances are live). */
function eclpStoredPool(): StoredPool {
  const p = eclpVector.pool;
  const live = p.bigs('balancesLiveScaled18');
  const params18 = ['alpha', 'beta', 'c', 's', 'lambda'] as const;
  const derived38 = ['tauAlphaX', 'tauAlphaY', 'tauBetaX', 'tauBetaY', 'u', 'v', 'w', 'z', 'dSq'] as const;
  const gyro: Record<string, string> = {};
  for (const name of params18)
    gyro[name] = unitsToDecimal(p.big(`params${name[0]!.toUpperCase()}${name.slice(1)}`), 18);
  for (const name of derived38) gyro[name] = unitsToDecimal(p.big(name), 38);
  return storedPool({
    id: p.poolAddress.toLowerCase(),
    address: p.poolAddress.toLowerCase() as Address,
    poolType: 'GyroE',
    protocolVersion: 3,
    swapFee: unitsToDecimal(p.big('swapFee'), 18),
    totalShares: unitsToDecimal(p.big('totalSupply'), 18),
    tokens: p.tokens.map((address, i) => ({
      address: address.toLowerCase() as Address,
      symbol: null,
      name: null,
      decimals: 18,
      balance: unitsToDecimal(live[i]!, 18),
      weight: null,
      priceRate: '1',
    })),
    gyro,
    v3: {
      aggregateSwapFee: unitsToDecimal(p.big('aggregateSwapFee'), 18),
      aggregateYieldFee: '0',
      paysYieldFees: [false, false],
      lastLiveBalances: null,
      supportsUnbalancedLiquidity: true,
      hook: null,
    },
  });
}

function v3BenchBuffers(): Map<string, StoredBuffer> {
  return new Map(
    [...v3StoredBuffers()].map(([wrapped, b]) => [wrapped, { ...b, underlyingToken: renamed(b.underlyingToken) }]),
  );
}

/** The chain state the quote server lays over mainnet: the V3 pools as registered, the buffers. */
export function v3BenchChainState(): ChainState {
  const pools = [...v3BenchPools(), eclpStoredPool()];
  return {
    block: {
      number: 7_439_300,
      hash: `0x${'ab'.repeat(32)}`,
      parentHash: `0x${'aa'.repeat(32)}`,
      timestamp: 1_740_000_000,
    },
    pools: new Map(),
    registered: new Map(pools.map((p) => [p.id, p])),
    buffers: v3BenchBuffers(),
  };
}

const V3_TOKENS = {
  USDC: TOKENS.USDC,
  DAI: TOKENS.DAI,
  USDT: TOKENS.USDT,
  stataUSDC: { address: STATA_USDC, decimals: 6 },
  stataUSDT: { address: STATA_USDT, decimals: 6 },
  WETH: TOKENS.WETH,
  eclpOther: { address: ECLP_OTHER, decimals: 18 },
} as const;
type V3TokenName = keyof typeof V3_TOKENS;

/**
 * [sell, buy, whole units]: one Weighted step, Stable between the wrapped tokens, boosted paths of
 * three steps (buffer, Stable, buffer) and four (Weighted, buffer, Stable, buffer), a buffer then
 * Stable, the E-CLP. Amounts small beside the Sepolia pools (a few thousand dollars deep).
 */
const V3_PAIRS: readonly (readonly [V3TokenName, V3TokenName, number])[] = [
  ['USDC', 'DAI', 100],
  ['DAI', 'USDC', 100],
  ['USDC', 'USDT', 100],
  ['USDT', 'USDC', 100],
  ['DAI', 'USDT', 100],
  ['USDT', 'DAI', 100],
  ['stataUSDC', 'stataUSDT', 100],
  ['USDC', 'stataUSDT', 100],
  ['eclpOther', 'WETH', 1],
];

const GWEI = 10n ** 9n;

/** 18 requests: every V3 pair sold and bought, gas price 0 and 30 gwei alternating. */
export const V3_QUOTE_CASES: readonly QuoteCase[] = V3_PAIRS.flatMap(([sell, buy, whole], i) => {
  const gas = (k: number) => ((i + k) % 2 === 0 ? '0' : (30n * GWEI).toString());
  const units = (t: V3TokenName) => (BigInt(whole) * 10n ** BigInt(V3_TOKENS[t].decimals)).toString();
  return [
    {
      name: `V3 sell ${whole} ${sell} for ${buy}`,
      sellToken: V3_TOKENS[sell].address,
      buyToken: V3_TOKENS[buy].address,
      orderKind: 'sell' as const,
      amount: units(sell),
      gasPrice: gas(0),
    },
    {
      name: `V3 buy ${whole} ${buy} with ${sell}`,
      sellToken: V3_TOKENS[sell].address,
      buyToken: V3_TOKENS[buy].address,
      orderKind: 'buy' as const,
      amount: units(buy),
      gasPrice: gas(1),
    },
  ];
});

const MAINNET = new Set<string>([TOKENS.USDC.address, TOKENS.DAI.address, TOKENS.USDT.address]);

/** The cases both Vaults route (mainnet tokens on both sides): where `/order` weighs V2 against V3. */
export const V3_SHARED_CASES: readonly QuoteCase[] = V3_QUOTE_CASES.filter(
  (c) => MAINNET.has(c.sellToken) && MAINNET.has(c.buyToken),
);
