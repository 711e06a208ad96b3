import { Interface } from 'ethers';
import { CHAINS, vaultOf } from '../../src/config/chains';
import { unitsToDecimal } from '../../src/domain/decimal';
import type { StoredPool } from '../../src/domain/pool';
import { gyro2ClpV3Math } from '../../src/domain/poolTypes/gyro/v3/twoClpV3Pool';
import { vaultSwap } from '../../src/domain/protocols/v3/vault/swap';
import type { V3PoolState } from '../../src/domain/protocols/v3/vault/poolState';
import { headFollowFeature } from '../../src/jobs/triggers/headFollowFeature';
import { routingFeature } from '../../src/routing/routingFeature';
import { updatePools } from '../../src/jobs/updatePools';
import { FakeChainRpc } from '../fakes/chainRpcServer';
import { FakeSubgraph } from '../fakes/subgraphServer';
import { FakeV3Subgraphs } from '../fakes/v3SubgraphServer';
import { FakeV3Vault, type FakeV3Pool } from '../fakes/v3VaultFake';
import { fakePoolOf, vaultRowOf } from '../helpers/v3FollowedVector';
import { loadV3Vector, swapTitle, type V3Vector, type V3VectorSwap } from '../helpers/v3Vectors';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { post } from '../routing/quoteClient';

/**
 * The V3 pool types beyond Weighted and Stable as the service serves and quotes them end to end:
 * catalogued from the V3 subgraphs (their parameter entities), then followed on a node holding a
 * real vector pool's state (the Vault reads and the pool's own getters, answered with the
 * type's ABI), and quoted by `/sor` with protocolVersion 3 at the next block's timestamp. The
 * quotes equal what the chain's own queries answered at the vector's block; the subgraph's values
 * are deliberately stale or rounded, so only the chain read gives them.
 */
const MAINNET = CHAINS.find((c) => c.id === 1)!;
const V3_VAULT = vaultOf(MAINNET, 3)!.toLowerCase();
const BLOCK_SECONDS = MAINNET.blockSeconds ?? 1;

interface Followed {
  readonly srv: TestServer;
  readonly node: FakeChainRpc;
  close(): Promise<void>;
}

const running: Followed[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((f) => f.close()));
});

/**
 * A service following `pool` on a fake node from the V3 catalogue's `typeRow`, its state read at a
 * block whose successor has timestamp `quoteAt`.
 */
async function follow(pool: FakeV3Pool, typeRow: Record<string, unknown>, quoteAt: bigint): Promise<Followed> {
  const v2 = await FakeSubgraph.start([], { indexesBlocks: true });
  const v3 = await FakeV3Subgraphs.start();
  v3.setPool(vaultRowOf(pool), { id: pool.address, address: pool.address, ...typeRow });
  const node = await FakeChainRpc.start(MAINNET.vault, []);
  const vault = new FakeV3Vault(V3_VAULT);
  vault.addPool(pool);
  node.contractCall = vault.call;
  const srv = await startTestServer(
    {
      NETWORKS: '1',
      RPC_URL_1: node.url,
      SUBGRAPH_URL_1: v2.url,
      SUBGRAPH_V3_URL_1: v3.vaultUrl,
      SUBGRAPH_V3_POOLS_URL_1: v3.poolsUrl,
      FOLLOW_INTERVAL_MS: '50',
      ROUTER_WORKERS: '0',
    },
    { features: [headFollowFeature, routingFeature], background: true },
  );
  const followed: Followed = {
    srv,
    node,
    close: async () => {
      await srv.close();
      await Promise.all([node.close(), v2.close(), v3.close()]);
    },
  };
  running.push(followed);
  await updatePools(srv.ctx, 1, { waitForRunning: true });
  // A block in which the pool traded (its state as the vector's), the quote's block after it.
  node.timestampOf = () => Number(quoteAt) - BLOCK_SECONDS;
  node.mine([], [vault.swapLog(pool.address)]);
  await until('the pool read at the new block', () => {
    const snap = srv.ctx.readModel.get(1);
    return snap?.block?.number === 101 && snap.poolsById.get(pool.address)?.v3?.lastLiveBalances != null;
  });
  return followed;
}

async function until(what: string, ok: () => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function servedPool(f: Followed, id: string): Promise<StoredPool> {
  const res = await fetch(`${f.srv.url}/pools/1/${id}`);
  expect(res.status).toBe(200);
  return (await res.json()) as StoredPool;
}

/** `/sor` with protocolVersion 3 for one vector swap: the amount out (exact in) or in (exact out), raw. */
async function quoted(
  f: Followed,
  swap: { kind: V3VectorSwap['kind']; tokenIn: string; tokenOut: string; amountRaw: bigint },
): Promise<string> {
  const res = await post(`${f.srv.url}/sor/1`, {
    sellToken: swap.tokenIn.toLowerCase(),
    buyToken: swap.tokenOut.toLowerCase(),
    orderKind: swap.kind === 'exactIn' ? 'sell' : 'buy',
    amount: swap.amountRaw.toString(),
    gasPrice: '0',
    protocolVersion: 3,
  });
  expect(res.status).toBe(200);
  expect(res.body['protocolVersion']).toBe(3);
  return String(res.body['returnAmount']);
}

const selectorAnswers = (abi: Interface, answers: Record<string, readonly unknown[]>): Map<string, string> =>
  new Map(
    Object.entries(answers).map(([fn, values]) => [
      abi.getFunction(fn)!.selector,
      abi.encodeFunctionResult(fn, values),
    ]),
  );

/** A decimal cut to 34 significant digits, as the subgraph keeps a BigDecimal. */
function significant34(units: bigint, decimals: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString();
  const kept = digits.length > 34 ? BigInt(digits.slice(0, 34)) * 10n ** BigInt(digits.length - 34) : BigInt(digits);
  return unitsToDecimal(negative ? -kept : kept, decimals);
}

async function expectVectorSwaps(f: Followed, vector: V3Vector): Promise<void> {
  expect(vector.swaps.length).toBeGreaterThan(0);
  for (const swap of vector.swaps) {
    const amount = await quoted(f, swap);
    expect({ swap: swapTitle(swap), amount }).toEqual({ swap: swapTitle(swap), amount: swap.outputRaw.toString() });
  }
}

describe('Gyro E-CLP (V3)', () => {
  const ECLP = new Interface([
    'function getECLPParams() view returns (tuple(int256 alpha, int256 beta, int256 c, int256 s, int256 lambda) params, tuple(tuple(int256 x, int256 y) tauAlpha, tuple(int256 x, int256 y) tauBeta, int256 u, int256 v, int256 w, int256 z, int256 dSq) d)',
  ]);
  const NAMES = [
    ['alpha', 'paramsAlpha', 18],
    ['beta', 'paramsBeta', 18],
    ['c', 'paramsC', 18],
    ['s', 'paramsS', 18],
    ['lambda', 'paramsLambda', 18],
    ['tauAlphaX', 'tauAlphaX', 38],
    ['tauAlphaY', 'tauAlphaY', 38],
    ['tauBetaX', 'tauBetaX', 38],
    ['tauBetaY', 'tauBetaY', 38],
    ['u', 'u', 38],
    ['v', 'v', 38],
    ['w', 'w', 38],
    ['z', 'z', 38],
    ['dSq', 'dSq', 38],
  ] as const;

  test.each(['11155111-7748718-GyroECLP.json', '1-23511249-GyroECLP-Barter.json'])(
    '%s: parameters read from the pool, /sor answers as the chain did',
    async (file) => {
      const vector = loadV3Vector(file);
      const p = vector.pool;
      const value = (name: string) => p.big(name);
      const answers = selectorAnswers(ECLP, {
        getECLPParams: [
          [value('paramsAlpha'), value('paramsBeta'), value('paramsC'), value('paramsS'), value('paramsLambda')],
          [
            [value('tauAlphaX'), value('tauAlphaY')],
            [value('tauBetaX'), value('tauBetaY')],
            value('u'),
            value('v'),
            value('w'),
            value('z'),
            value('dSq'),
          ],
        ],
      });
      const pool = fakePoolOf(vector, answers);
      const gyroEParams = Object.fromEntries(NAMES.map(([name, field, d]) => [name, significant34(value(field), d)]));
      const f = await follow(
        pool,
        { factory: { id: `0x${'fc'.repeat(20)}`, type: 'GyroE', version: 1 }, gyroEParams },
        1_800_000_000n,
      );
      const served = await servedPool(f, pool.address);
      expect(served).toMatchObject({ protocolVersion: 3, poolType: 'GyroE' });
      expect(served.gyro).toEqual(
        Object.fromEntries(NAMES.map(([name, field, d]) => [name, unitsToDecimal(value(field), d)])),
      );
      await expectVectorSwaps(f, vector);
    },
  );
});

describe('ReClamm (V3, v1 and v2)', () => {
  // Not in the vectors (the math reads the base derived from it): any value the subgraph lacks.
  const SHIFT_EXPONENT = 150_000_000_000_000_000n;
  const RECLAMM = new Interface([
    'function getLastTimestamp() view returns (uint32)',
    'function getLastVirtualBalances() view returns (uint256 lastVirtualBalanceA, uint256 lastVirtualBalanceB)',
    'function getCenterednessMargin() view returns (uint256)',
    'function getDailyPriceShiftBase() view returns (uint256)',
    'function getDailyPriceShiftExponent() view returns (uint256)',
    'function getPriceRatioState() view returns (tuple(uint96 startFourthRootPriceRatio, uint96 endFourthRootPriceRatio, uint32 priceRatioUpdateStartTime, uint32 priceRatioUpdateEndTime))',
  ]);

  test.each([
    ['8453-31094200-ReClamm-WETH-USDC-In-Range.json', 1],
    ['8453-31094380-ReClamm-WETH-USDC-Same-Timestamp.json', 1],
    ['8453-31094381-ReClamm-WETH-USDC-Out-Of-Range.json', 1],
    ['8453-32632378-ReClamm-V2.json', 2],
    ['8453-32641745-ReClamm-V2-Out-Of-Range.json', 2],
  ] as const)(
    '%s: state read from the pool, /sor at the vector timestamp answers as the chain did',
    async (file, version) => {
      const vector = loadV3Vector(file);
      const p = vector.pool;
      const [a, b] = p.bigs('lastVirtualBalances');
      const answers = selectorAnswers(RECLAMM, {
        getLastTimestamp: [p.big('lastTimestamp')],
        getLastVirtualBalances: [a!, b!],
        getCenterednessMargin: [p.big('centerednessMargin')],
        getDailyPriceShiftBase: [p.big('dailyPriceShiftBase')],
        getDailyPriceShiftExponent: [SHIFT_EXPONENT],
        getPriceRatioState: [
          [
            p.big('startFourthRootPriceRatio'),
            p.big('endFourthRootPriceRatio'),
            p.big('priceRatioUpdateStartTime'),
            p.big('priceRatioUpdateEndTime'),
          ],
        ],
      });
      // The pool registers with unbalanced liquidity disabled, as its own hooks contract called
      // before initialisation and before adds and removes.
      const pool = {
        ...fakePoolOf(vector, answers, false),
        hook: p.poolAddress.toLowerCase(),
        hookFlags: [false, true, false, false, false, false, true, false, true, false],
      };
      // The subgraph's state is older than the block's: an earlier write of the virtual balances.
      const reClammParams = {
        lastTimestamp: String(p.big('lastTimestamp') - 600n),
        lastVirtualBalances: [String(a! - 10n ** 15n), String(b! + 10n ** 15n)],
        dailyPriceShiftExponent: '100000000000000000',
        dailyPriceShiftBase: p.big('dailyPriceShiftBase').toString(),
        centerednessMargin: p.big('centerednessMargin').toString(),
        startFourthRootPriceRatio: p.big('startFourthRootPriceRatio').toString(),
        endFourthRootPriceRatio: p.big('endFourthRootPriceRatio').toString(),
        priceRatioUpdateStartTime: p.big('priceRatioUpdateStartTime').toString(),
        priceRatioUpdateEndTime: p.big('priceRatioUpdateEndTime').toString(),
      };
      const f = await follow(
        pool,
        { factory: { id: `0x${'fd'.repeat(20)}`, type: 'ReClamm', version }, reClammParams },
        p.big('currentTimestamp'),
      );
      const served = await servedPool(f, pool.address);
      expect(served).toMatchObject({
        protocolVersion: 3,
        poolType: 'ReClamm',
        poolTypeVersion: version,
        lastTimestamp: Number(p.big('lastTimestamp')),
        lastVirtualBalances: [a!.toString(), b!.toString()],
        centerednessMargin: p.big('centerednessMargin').toString(),
        dailyPriceShiftExponent: SHIFT_EXPONENT.toString(),
        v3: { hook: { address: pool.address, kind: null } },
      });
      await expectVectorSwaps(f, vector);
    },
  );
});

describe('QuantAMM weighted (V3)', () => {
  const QUANT_AMM = new Interface([
    'function getQuantAMMWeightedPoolDynamicData() view returns (tuple(uint256[] balancesLiveScaled18, uint256[] tokenRates, uint256 totalSupply, bool isPoolInitialized, bool isPoolPaused, bool isPoolInRecoveryMode, int256[] firstFourWeightsAndMultipliers, int256[] secondFourWeightsAndMultipliers, uint40 lastUpdateTime, uint40 lastInteropTime) data)',
    'function getQuantAMMWeightedPoolImmutableData() view returns (tuple(address[] tokens, uint256 oracleStalenessThreshold, uint256 poolRegistry, int256[][] ruleParameters, uint64[] lambda, uint64 epsilonMax, uint64 absoluteWeightGuardRail, uint64 updateInterval, uint256 maxTradeSizeRatio) data)',
  ]);
  const vector = loadV3Vector('1-22524240-QuantAMM.json');
  const p = vector.pool;
  const first = p.bigs('firstFourWeightsAndMultipliers');
  const second = p.bigs('secondFourWeightsAndMultipliers');
  const cap = p.big('maxTradeSizeRatio');

  async function followed(): Promise<{ f: Followed; pool: FakeV3Pool }> {
    const answers = selectorAnswers(QUANT_AMM, {
      getQuantAMMWeightedPoolDynamicData: [
        [
          p.bigs('balancesLiveScaled18'),
          p.bigs('tokenRates'),
          p.big('totalSupply'),
          true,
          false,
          false,
          first,
          second,
          p.big('lastUpdateTime'),
          p.big('lastInteropTime'),
        ],
      ],
      getQuantAMMWeightedPoolImmutableData: [
        [p.tokens, 3600n, 0n, [[1n, -2n], [3n]], [10n ** 17n], 10n ** 17n, 3n * 10n ** 16n, 60n, cap],
      ],
    });
    const pool = fakePoolOf(vector, answers);
    // The subgraph's weights are an earlier update's, without movement.
    const halves = (from: number) => [...first.slice(from, from + 4), ...second.slice(from, from + 4)];
    const quantAMMWeightedParams = {
      maxTradeSizeRatio: cap.toString(),
      epsilonMax: '100000000000000000',
      absoluteWeightGuardRail: '30000000000000000',
      updateInterval: '60',
      oracleStalenessThreshold: '3600',
      weightsAtLastUpdateInterval: halves(0).map(String),
      weightBlockMultipliers: halves(4).map(() => '0'),
      lastUpdateIntervalTime: String(p.big('lastUpdateTime') - 86_400n),
      lastInterpolationTimePossible: String(p.big('lastUpdateTime') - 86_400n),
    };
    const f = await follow(
      pool,
      { factory: { id: `0x${'fe'.repeat(20)}`, type: 'QuantAMMWeighted', version: 1 }, quantAMMWeightedParams },
      p.big('currentTimestamp'),
    );
    return { f, pool };
  }

  test('weights and multipliers read from the pool, /sor at the vector timestamp answers as the chain did', async () => {
    const { f, pool } = await followed();
    const served = await servedPool(f, pool.address);
    expect(served).toMatchObject({
      protocolVersion: 3,
      poolType: 'QuantAMMWeighted',
      maxTradeSizeRatio: cap.toString(),
      lastUpdateIntervalTime: Number(p.big('lastUpdateTime')),
      lastInterpolationTimePossible: Number(p.big('lastInteropTime')),
      weightsAtLastUpdateInterval: [...first.slice(0, 4), ...second.slice(0, 4)].map(String),
      weightBlockMultipliers: [...first.slice(4, 8), ...second.slice(4, 8)].map(String),
    });
    await expectVectorSwaps(f, vector);
  });

  test('no quote offers more than the max trade size ratio lets the pool take in', async () => {
    const { f, pool } = await followed();
    const [swap] = vector.swaps.filter((s) => s.kind === 'exactIn');
    const i = pool.tokens.indexOf(swap!.tokenIn.toLowerCase());
    // Ten times the cap's share of the balance in: the pool refuses it, so no route carries it all.
    const tooMuch = (pool.balancesRaw[i]! * cap * 10n) / 10n ** 18n;
    const res = await post(`${f.srv.url}/sor/1`, {
      sellToken: swap!.tokenIn.toLowerCase(),
      buyToken: swap!.tokenOut.toLowerCase(),
      orderKind: 'sell',
      amount: tooMuch.toString(),
      gasPrice: '0',
      protocolVersion: 3,
    });
    expect(res.status).toBe(200);
    expect(res.body['returnAmount']).toBe('0');
  });
});

describe('Gyro 2-CLP (V3)', () => {
  const TWO_CLP = new Interface([
    'function getGyro2CLPPoolImmutableData() view returns (tuple(address[] tokens, uint256[] decimalScalingFactors, uint256 sqrtAlpha, uint256 sqrtBeta) data)',
  ]);
  const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
  const USDT = '0xdac17f958d2ee523a2206206994597c13d831ec7';
  const E18 = 10n ** 18n;
  // No vector holds a 2-CLP: a USDC/USDT pool around 1, priced by the 2-CLP math on what the node answers.
  const sqrtAlpha = 997_998_997_996_990_975n;
  const sqrtBeta = 1_001_999_001_995_010_973n;

  test('its price bounds read from the pool; /sor answers as the V3 Vault running the 2-CLP math on that state', async () => {
    const pool: FakeV3Pool = {
      address: `0x${'c2'.repeat(20)}`,
      tokens: [USDC, USDT],
      decimals: [6, 6],
      balancesRaw: [1_000_000_000_000n, 900_000_000_000n],
      lastLiveBalances: [1_000_000n * E18, 900_000n * E18],
      rates: [E18, E18],
      rateProviders: [`0x${'0'.repeat(40)}`, `0x${'0'.repeat(40)}`],
      paysYieldFees: [false, false],
      staticSwapFee: 10n ** 14n,
      aggregateSwapFee: 5n * 10n ** 17n,
      aggregateYieldFee: 0n,
      paused: false,
      recovery: false,
      totalSupply: 1_899_000n * E18,
      answers: selectorAnswers(TWO_CLP, {
        getGyro2CLPPoolImmutableData: [[[USDC, USDT], [10n ** 12n, 10n ** 12n], sqrtAlpha, sqrtBeta]],
      }),
    };
    // The subgraph's bounds are rounded to 6 places.
    const gyro2Params = { sqrtAlpha: '0.997999', sqrtBeta: '1.001999' };
    const f = await follow(
      pool,
      { factory: { id: `0x${'c3'.repeat(20)}`, type: 'Gyro2', version: 1 }, gyro2Params },
      1_800_000_000n,
    );
    const served = await servedPool(f, pool.address);
    expect(served.gyro).toEqual({ sqrtAlpha: unitsToDecimal(sqrtAlpha, 18), sqrtBeta: unitsToDecimal(sqrtBeta, 18) });
    const state: V3PoolState = {
      address: pool.address,
      tokens: pool.tokens,
      scalingFactors: [10n ** 12n, 10n ** 12n],
      tokenRates: pool.rates,
      balancesLiveScaled18: pool.lastLiveBalances,
      balancesRaw: pool.balancesRaw,
      staticSwapFee: pool.staticSwapFee,
      aggregateSwapFee: pool.aggregateSwapFee,
      totalSupply: pool.totalSupply,
      paused: false,
      inRecoveryMode: false,
      supportsUnbalancedLiquidity: true,
    };
    const direct = { state, math: gyro2ClpV3Math({ ...state, sqrtAlpha, sqrtBeta }) };
    for (const [kind, tokenIn, tokenOut, amountRaw] of [
      ['exactIn', USDC, USDT, 10_000_000_000n],
      ['exactOut', USDT, USDC, 25_000_000_000n],
    ] as const) {
      const chain = vaultSwap(direct, { kind, tokenIn, tokenOut, amountGivenRaw: amountRaw });
      expect(await quoted(f, { kind, tokenIn, tokenOut, amountRaw })).toBe(chain.amountCalculatedRaw.toString());
    }
  });
});
