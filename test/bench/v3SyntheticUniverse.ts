import type { Address } from '../../src/domain/address';
import type { ChainState } from '../../src/domain/chainState';
import { unitsToDecimal } from '../../src/domain/decimal';
import type { StoredPool } from '../../src/domain/pool';
import type { StoredBuffer, StoredV3VaultState, StoredV3Hook } from '../../src/domain/protocols/v3/stored/storedV3';
import { seededRandom } from '../e2e/helpers/randomOrders';
import { storedPool } from '../helpers/poolFixtures';
import { MAINNET } from '../helpers/snapshot';
import { loadV3Vector, type V3VectorPool } from '../helpers/v3Vectors';

/**
 * A mainnet-sized V3 universe for `v3Universe.bench.ts`: every pool is one of the real vectors'
 * states (the shared data's V3 vectors, `V3_VECTORS_DIR` in test/helpers/v3Vectors.ts, read at run
 * time), its balances scaled to a random depth and its tokens relabelled, every routed type
 * (Weighted, Stable, StableSurge, Gyro E-CLP, Gyro 2-CLP, ReClamm, QuantAMM, LBP), and ERC-4626
 * buffers over hub and other tokens at the real buffer vectors' rates, so boosted paths of three
 * steps (buffer, pool, buffer) and four (a pool beyond) exist. Hub tokens are mainnet's (WETH,
 * USDC, USDT, DAI, WBTC, wstETH), so the V2 snapshot laid beside it routes the same pairs. Times
 * (ReClamm's, QuantAMM's, an LBP's window) are moved by the distance from the vector's timestamp to
 * the universe's, so each pool prices at the universe's quote time as its vector did at its own.
 * Seeded: the same universe every run.
 */

const E18 = 10n ** 18n;

export interface SyntheticToken {
  readonly address: string;
  readonly decimals: number;
}

export interface SyntheticUniverse {
  readonly state: ChainState;
  readonly pools: readonly StoredPool[];
  readonly buffers: ReadonlyMap<string, StoredBuffer>;
  readonly tokens: readonly SyntheticToken[];
  /** Pool count per type name (StableSurge counted apart from Stable). */
  readonly types: Readonly<Record<string, number>>;
}

/** Block time of the universe's state; quotes price at the next block's (12 s later on mainnet). */
export const UNIVERSE_TIMESTAMP = 1_780_000_000;
const QUOTE_TIME = BigInt(UNIVERSE_TIMESTAMP + 12);

const VAULT_STATE: StoredV3VaultState = {
  aggregateSwapFee: '0',
  aggregateYieldFee: '0',
  paysYieldFees: [],
  lastLiveBalances: null,
  supportsUnbalancedLiquidity: true,
  hook: null,
};

interface Own {
  readonly fields?: Partial<StoredPool>;
  readonly hook?: StoredV3Hook;
  readonly typeParams?: Record<string, string>;
}

/** One vector's pool, ready to be copied at another depth over other tokens. */
interface Template {
  readonly name: string;
  readonly poolType: string;
  readonly version: number;
  readonly swapFee: bigint;
  readonly aggregateSwapFee: bigint;
  /** Live balances (scaled 18, rates applied) and rates per token. */
  readonly live: readonly bigint[];
  readonly rates: readonly bigint[];
  readonly weights?: readonly bigint[];
  readonly decimals: readonly number[];
  /** The type's own stored fields at depth `num / den` of the vector's, for the pool at `address` over `tokens`. */
  readonly own: (num: bigint, den: bigint, address: string, tokens: readonly string[]) => Own;
  readonly unbalanced?: boolean;
}

function decimalsOf(p: V3VectorPool): number[] {
  return p.bigs('scalingFactors').map((f) => 18 - (f.toString().length - 1));
}

function base(p: V3VectorPool, name: string, poolType: string, version = 1): Omit<Template, 'own'> {
  return {
    name,
    poolType,
    version,
    swapFee: p.big('swapFee'),
    aggregateSwapFee: p.has('aggregateSwapFee') ? p.big('aggregateSwapFee') : 0n,
    live: p.bigs('balancesLiveScaled18'),
    rates: p.bigs('tokenRates'),
    ...(p.has('weights') ? { weights: p.bigs('weights') } : {}),
    decimals: decimalsOf(p),
  };
}

const moved = (p: V3VectorPool, field: string): bigint =>
  p.big(field) + (QUOTE_TIME - (p.has('currentTimestamp') ? p.big('currentTimestamp') : QUOTE_TIME));

function templates(): Record<string, Template[]> {
  const weighted = loadV3Vector('11155111-7439300-Weighted-USDC-DAI.json').pool;
  const stable = loadV3Vector('11155111-7439300-Stable-stataUSDC-stataUSDT.json').pool;
  const surge = loadV3Vector('1-22247251-StableSurgeHook.json');
  const quant = loadV3Vector('1-22524240-QuantAMM.json').pool;
  const lbp = loadV3Vector('11155111-8085514-LBP-BAL-DAI.json').pool;
  const eclps = ['11155111-7748718-GyroECLP.json', '1-23511249-GyroECLP-Barter.json'].map((f) => loadV3Vector(f).pool);
  const reClamms = [
    ['8453-31094200-ReClamm-WETH-USDC-In-Range.json', 1],
    ['8453-31094381-ReClamm-WETH-USDC-Out-Of-Range.json', 1],
    ['8453-32632378-ReClamm-V2.json', 2],
    ['8453-32641745-ReClamm-V2-Out-Of-Range.json', 2],
  ] as const;
  const surgeHook = surge.pool.hook!;
  const flag = (name: string) => surgeHook.flags[name] === true;
  const stableSurgeHook: StoredV3Hook = {
    address: surgeHook.address.toLowerCase(),
    kind: 'stableSurge',
    flags: {
      enableHookAdjustedAmounts: surgeHook.enableHookAdjustedAmounts,
      shouldCallComputeDynamicSwapFee: flag('shouldCallComputeDynamicSwapFee'),
      shouldCallBeforeSwap: flag('shouldCallBeforeSwap'),
      shouldCallAfterSwap: flag('shouldCallAfterSwap'),
      shouldCallBeforeAddLiquidity: flag('shouldCallBeforeAddLiquidity'),
      shouldCallAfterAddLiquidity: flag('shouldCallAfterAddLiquidity'),
      shouldCallBeforeRemoveLiquidity: flag('shouldCallBeforeRemoveLiquidity'),
      shouldCallAfterRemoveLiquidity: flag('shouldCallAfterRemoveLiquidity'),
    },
    params: {
      maxSurgeFeePercentage: unitsToDecimal(BigInt(surgeHook.dynamicData['maxSurgeFeePercentage']!), 18),
      surgeThresholdPercentage: unitsToDecimal(BigInt(surgeHook.dynamicData['surgeThresholdPercentage']!), 18),
    },
  };
  const eclpParams = (p: V3VectorPool): Record<string, string> => {
    const gyro: Record<string, string> = {};
    for (const name of ['alpha', 'beta', 'c', 's', 'lambda'])
      gyro[name] = unitsToDecimal(p.big(`params${name[0]!.toUpperCase()}${name.slice(1)}`), 18);
    for (const name of ['tauAlphaX', 'tauAlphaY', 'tauBetaX', 'tauBetaY', 'u', 'v', 'w', 'z', 'dSq'])
      gyro[name] = unitsToDecimal(p.big(name), 38);
    return gyro;
  };
  const quantWords = [
    ...quant.bigs('firstFourWeightsAndMultipliers'),
    ...quant.bigs('secondFourWeightsAndMultipliers'),
  ];
  return {
    Weighted: [{ ...base(weighted, 'Weighted', 'Weighted'), own: () => ({}) }],
    Stable: [
      { ...base(stable, 'Stable', 'Stable'), own: () => ({ fields: { amp: unitsToDecimal(stable.big('amp'), 3) } }) },
    ],
    StableSurge: [
      {
        ...base(surge.pool, 'StableSurge', 'Stable'),
        own: () => ({ fields: { amp: unitsToDecimal(surge.pool.big('amp'), 3) }, hook: stableSurgeHook }),
      },
    ],
    GyroE: eclps.map((p) => ({ ...base(p, 'GyroE', 'GyroE'), own: () => ({ fields: { gyro: eclpParams(p) } }) })),
    // No vector holds a 2-CLP: the Stable vector's state within price bounds around 1.
    Gyro2: [
      {
        ...base(stable, 'Gyro2', 'Gyro2'),
        own: () => ({
          fields: {
            gyro: {
              sqrtAlpha: unitsToDecimal(997_998_997_996_990_975n, 18),
              sqrtBeta: unitsToDecimal(1_001_999_001_995_010_973n, 18),
            },
          },
        }),
      },
    ],
    ReClamm: reClamms.map(([file, version]) => {
      const p = loadV3Vector(file).pool;
      return {
        ...base(p, 'ReClamm', 'ReClamm', version),
        unbalanced: false,
        own: (num: bigint, den: bigint) => ({
          fields: {
            lastTimestamp: Number(moved(p, 'lastTimestamp')),
            lastVirtualBalances: p.bigs('lastVirtualBalances').map((v) => ((v * num) / den).toString()),
            dailyPriceShiftBase: p.big('dailyPriceShiftBase').toString(),
            centerednessMargin: p.big('centerednessMargin').toString(),
            startFourthRootPriceRatio: p.big('startFourthRootPriceRatio').toString(),
            endFourthRootPriceRatio: p.big('endFourthRootPriceRatio').toString(),
            priceRatioUpdateStartTime: Number(moved(p, 'priceRatioUpdateStartTime')),
            priceRatioUpdateEndTime: Number(moved(p, 'priceRatioUpdateEndTime')),
          },
        }),
      };
    }),
    QuantAMM: [
      {
        ...base(quant, 'QuantAMM', 'QuantAMMWeighted'),
        own: () => ({
          fields: {
            maxTradeSizeRatio: quant.big('maxTradeSizeRatio').toString(),
            weightsAtLastUpdateInterval: [...quantWords.slice(0, 4), ...quantWords.slice(8, 12)].map(String),
            weightBlockMultipliers: [...quantWords.slice(4, 8), ...quantWords.slice(12, 16)].map(String),
            lastUpdateIntervalTime: Number(moved(quant, 'lastUpdateTime')),
            lastInterpolationTimePossible: Number(moved(quant, 'lastInteropTime')),
          },
        }),
      },
    ],
    LBP: [
      {
        ...base(lbp, 'LBP', 'LBP'),
        own: (_n: bigint, _d: bigint, address: string, tokens: readonly string[]) => {
          const start = lbp.bigs('startWeights');
          const end = lbp.bigs('endWeights');
          const project = lbp.num('projectTokenIndex');
          const reserve = 1 - project;
          return {
            hook: {
              address,
              kind: null,
              flags: { ...FLAGS_NONE, shouldCallBeforeAddLiquidity: true, shouldCallBeforeRemoveLiquidity: true },
              params: {},
            },
            typeParams: {
              projectToken: tokens[project]!,
              reserveToken: tokens[reserve]!,
              startTime: moved(lbp, 'startTime').toString(),
              endTime: moved(lbp, 'endTime').toString(),
              isProjectTokenSwapInBlocked: 'false',
              projectTokenStartWeight: start[project]!.toString(),
              projectTokenEndWeight: end[project]!.toString(),
              reserveTokenStartWeight: start[reserve]!.toString(),
              reserveTokenEndWeight: end[reserve]!.toString(),
            },
          };
        },
      },
    ],
  };
}

const FLAGS_NONE = {
  enableHookAdjustedAmounts: false,
  shouldCallComputeDynamicSwapFee: false,
  shouldCallBeforeSwap: false,
  shouldCallAfterSwap: false,
  shouldCallBeforeAddLiquidity: false,
  shouldCallAfterAddLiquidity: false,
  shouldCallBeforeRemoveLiquidity: false,
  shouldCallAfterRemoveLiquidity: false,
};

/** A copy of `t` over `tokens` whose largest live balance is `depth` whole units (scaled 18). */
function instantiate(t: Template, address: string, tokens: readonly SyntheticToken[], depth: bigint): StoredPool {
  const largest = t.live.reduce((a, b) => (a > b ? a : b));
  const num = depth * E18;
  const den = largest;
  const own = t.own(
    num,
    den,
    address,
    tokens.map((k) => k.address),
  );
  const { hook, typeParams, fields } = own;
  return storedPool({
    id: address,
    address: address as Address,
    poolType: t.poolType,
    poolTypeVersion: t.version,
    protocolVersion: 3,
    swapFee: unitsToDecimal(t.swapFee, 18),
    totalShares: unitsToDecimal((depth * E18 * BigInt(tokens.length)) / 2n, 18),
    tokens: tokens.map((k, i) => {
      const live = (t.live[i]! * num) / den;
      // raw * 10^(18 - decimals) * rate / 1e18 = live
      const raw = (live * E18) / (t.rates[i]! * 10n ** BigInt(18 - k.decimals));
      return {
        address: k.address as Address,
        symbol: null,
        name: null,
        decimals: k.decimals,
        balance: unitsToDecimal(raw, k.decimals),
        weight: t.weights ? unitsToDecimal(t.weights[i]!, 18) : null,
        priceRate: unitsToDecimal(t.rates[i]!, 18),
      };
    }),
    ...fields,
    v3: {
      ...VAULT_STATE,
      aggregateSwapFee: unitsToDecimal(t.aggregateSwapFee, 18),
      paysYieldFees: tokens.map(() => false),
      supportsUnbalancedLiquidity: t.unbalanced ?? true,
      hook: hook ?? null,
      ...(typeParams ? { typeParams } : {}),
    },
  });
}

const address = (tag: number, k: number): string =>
  `0x${tag.toString(16).padStart(4, '0')}${k.toString(16).padStart(36, '0')}`;

/** Pools per type, roughly in the proportions of mainnet's V3 Vault (Weighted and boosted Stable first). */
const MIX: readonly (readonly [string, number])[] = [
  ['Weighted', 620],
  ['Stable', 300],
  ['StableSurge', 220],
  ['GyroE', 120],
  ['Gyro2', 60],
  ['ReClamm', 100],
  ['QuantAMM', 40],
  ['LBP', 40],
];

export function syntheticV3Universe(
  options: { readonly seed?: number; readonly buffers?: number } = {},
): SyntheticUniverse {
  const random = seededRandom(options.seed ?? 40);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const hubs: SyntheticToken[] = [
    { address: MAINNET.WETH, decimals: 18 },
    { address: MAINNET.USDC, decimals: 6 },
    { address: MAINNET.USDT, decimals: 6 },
    { address: MAINNET.DAI, decimals: 18 },
    { address: MAINNET.WBTC, decimals: 8 },
    { address: MAINNET.wstETH, decimals: 18 },
  ];
  // ERC-4626 tokens: a third over the hubs (as mainnet's boosted stable and ETH pools), the rest over other tokens.
  const others: SyntheticToken[] = Array.from({ length: 214 }, (_, k) => ({
    address: address(0x3301, k),
    decimals: k % 5 === 0 ? 6 : 18,
  }));
  const bufferCount = options.buffers ?? 80;
  const bufferRates = ['1-21671845-Buffer-waEthUSDC.json', '1-21671845-Buffer-waEthLidoWETH.json'].map((f) =>
    loadV3Vector(f).pool.big('rate'),
  );
  const buffers = new Map<string, StoredBuffer>();
  const wrapped: SyntheticToken[] = [];
  const underlyingOf = new Map<string, SyntheticToken>();
  for (let k = 0; k < bufferCount; k++) {
    const underlying = k < bufferCount / 3 ? hubs[k % 4]! : others[k]!;
    const token = { address: address(0x4626, k), decimals: underlying.decimals };
    wrapped.push(token);
    underlyingOf.set(token.address, underlying);
    const held = (BigInt(10 ** (4 + Math.floor(random() * 3))) * 10n ** BigInt(underlying.decimals)).toString();
    const rate = (bufferRates[k % 2]! * BigInt(1000 + Math.floor(random() * 50))) / 1000n;
    buffers.set(token.address, {
      wrappedToken: token.address,
      underlyingToken: underlying.address,
      underlyingBalance: held,
      wrappedBalance: held,
      buffersPaused: false,
      token: {
        conversion: 'rate',
        rate: rate.toString(),
        maxDeposit: (2n ** 255n).toString(),
        maxMint: (2n ** 255n).toString(),
        maxRedeem: (2n ** 255n).toString(),
        maxWithdraw: (2n ** 255n).toString(),
      },
    });
  }
  const plain = [...hubs, ...others];
  const byType = templates();
  const pools: StoredPool[] = [];
  const types: Record<string, number> = {};
  let n = 0;
  for (const [type, count] of MIX) {
    types[type] = count;
    for (let k = 0; k < count; k++) {
      const t = pick(byType[type]!);
      const width = t.live.length;
      const chosen: SyntheticToken[] = [];
      const stableLike = type === 'Stable' || type === 'StableSurge' || type === 'Gyro2';
      while (chosen.length < width) {
        const roll = random();
        // Stable pools mostly pair ERC-4626 tokens (boosted); the rest join a hub to another token.
        const token =
          stableLike && roll < 0.7
            ? pick(wrapped)
            : chosen.length === 0 && roll < 0.6
              ? pick(hubs)
              : roll < 0.15
                ? pick(wrapped)
                : pick(plain);
        if (!chosen.some((c) => c.address === token.address)) chosen.push(token);
      }
      // An LBP sells a project token (not a hub) for a hub.
      if (type === 'LBP') chosen.splice(0, 2, pick(others), pick(hubs.slice(0, 4)));
      const depth = BigInt(10 ** (4 + Math.floor(random() * 4)));
      pools.push(instantiate(t, address(0x5000, n++), chosen, depth));
    }
  }
  const tokens = [...plain, ...wrapped];
  return {
    state: {
      block: {
        number: 22_000_000,
        hash: `0x${'cd'.repeat(32)}`,
        parentHash: `0x${'cc'.repeat(32)}`,
        timestamp: UNIVERSE_TIMESTAMP,
      },
      pools: new Map(),
      registered: new Map(pools.map((p) => [p.id, p])),
      buffers,
    },
    pools,
    buffers,
    tokens,
    types,
  };
}

/** `pool` after a trade: its first token's balance up by `percent`, its second's down as much. */
export function traded(pool: StoredPool, percent: number): StoredPool {
  const scale = (balance: string, decimals: number, up: boolean) => {
    const [int = '0', frac = ''] = balance.split('.');
    const raw = BigInt(int + frac.padEnd(decimals, '0'));
    const delta = (raw * BigInt(Math.round(percent * 100))) / 10_000n;
    return unitsToDecimal(up ? raw + delta : raw - delta, decimals);
  };
  return {
    ...pool,
    tokens: pool.tokens.map((t, i) => (i < 2 ? { ...t, balance: scale(t.balance, t.decimals, i === 0) } : t)),
  };
}

/** `buffer` after a wrap: more underlying, less wrapped, its token's rate up by a hair. */
export function movedBuffer(buffer: StoredBuffer): StoredBuffer {
  const token =
    buffer.token.conversion === 'rate'
      ? { ...buffer.token, rate: ((BigInt(buffer.token.rate) * 100_001n) / 100_000n).toString() }
      : buffer.token;
  return {
    ...buffer,
    underlyingBalance: ((BigInt(buffer.underlyingBalance) * 101n) / 100n).toString(),
    wrappedBalance: ((BigInt(buffer.wrappedBalance) * 99n) / 100n).toString(),
    token,
  };
}
