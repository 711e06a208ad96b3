import { candidatePaths } from '../../../src/domain/swap/candidates';
import { SwapEngine } from '../../../src/domain/swap/engine';
import { pathOut } from '../../../src/domain/swap/evaluate';
import { buildModels } from '../../../src/domain/swap/models';
import type { PoolSpec } from '../../../src/domain/swap/poolModel';
import { replayBatchSwap } from '../../../src/domain/swap/replay';
import { toBatchSwap, type Route } from '../../../src/domain/swap/route';

/**
 * The engine on small synthetic universes of weighted pools, where the right answer can be
 * reasoned out: which pairs connect, when splitting pays, what gas changes, what no route means.
 */

const T = {
  LINK: '0x000000000000000000000000000000000000001a',
  WETH: '0x00000000000000000000000000000000000000e1',
  USDC: '0x00000000000000000000000000000000000000c6',
  USDT: '0x00000000000000000000000000000000000000d7',
  DAI: '0x00000000000000000000000000000000000000d1',
  LONE: '0x0000000000000000000000000000000000000042',
  NEW: '0x00000000000000000000000000000000000000ee',
  SALE_A: '0x00000000000000000000000000000000000000a1',
  SALE_B: '0x00000000000000000000000000000000000000b1',
};
const DECIMALS: Record<string, number> = { [T.USDC]: 6, [T.USDT]: 6 };

let nonce = 0;
function weighted(
  tokens: [string, string][],
  opts: { fee?: string; type?: string; weights?: string[]; version?: number } = {},
): PoolSpec {
  const n = ++nonce;
  const address = `0x${n.toString(16).padStart(40, '0')}`;
  return {
    id: `${address}000200000000000000000000`.slice(0, 66).padEnd(66, '0'),
    address,
    poolType: opts.type ?? 'Weighted',
    poolTypeVersion: opts.version ?? 2,
    swapFee: opts.fee ?? '0.003',
    totalShares: '1000',
    tokens: tokens.map(([address, balance], k) => ({
      address,
      balance,
      decimals: DECIMALS[address] ?? 18,
      weight: opts.weights?.[k] ?? String(1 / tokens.length),
      priceRate: '1',
    })),
  };
}

function engineOf(specs: PoolSpec[]): SwapEngine {
  return new SwapEngine(buildModels(specs, { timestamp: 0 }).models);
}

const NO_GAS = () => 0n;
const units = (n: number, token: string) => BigInt(Math.round(n * 1e6)) * 10n ** BigInt((DECIMALS[token] ?? 18) - 6);

/** The route's amount replayed independently of the engine's own bookkeeping. */
function replayed(engine: SwapEngine, route: Route): bigint {
  const batch = toBatchSwap(route);
  const r = replayBatchSwap(route.kind, batch.steps, batch.assets, (id) => engine.model(id));
  if (!r.ok) throw new Error(r.reason);
  return route.kind === 'sell' ? -r.deltas[1]! : r.deltas[0]!;
}

describe('swap engine', () => {
  // LINK only trades against WETH, USDT only against USDC: LINK -> USDT needs three hops.
  const chain = [
    weighted([
      [T.LINK, '100000'],
      [T.WETH, '500'],
    ]),
    weighted([
      [T.WETH, '1000'],
      [T.USDC, '3000000'],
    ]),
    weighted(
      [
        [T.USDC, '5000000'],
        [T.USDT, '5000000'],
      ],
      { fee: '0.0004' },
    ),
  ];

  test('a pair three hops apart is routed, and the answer is what the Vault replay pays', () => {
    const engine = engineOf(chain);
    const route = engine.route({
      tokenIn: T.LINK,
      tokenOut: T.USDT,
      kind: 'sell',
      amount: units(100, T.LINK),
      gasPerSwap: NO_GAS,
    })!;
    expect(route).toBeDefined();
    expect(route.paths.map((p) => p.path.length)).toEqual([3]);
    expect(route.returnAmount).toBe(replayed(engine, route));
    // 100 LINK at 0.005 WETH, 3000 USDC per WETH, ~1:1 to USDT, less fees and a little slippage.
    const human = Number(route.returnAmount) / 1e6;
    expect(human).toBeGreaterThan(1450);
    expect(human).toBeLessThan(1500);
  });

  test('a buy pays the least the replay says, and the route delivers exactly the amount asked', () => {
    const engine = engineOf(chain);
    const route = engine.route({
      tokenIn: T.LINK,
      tokenOut: T.USDT,
      kind: 'buy',
      amount: units(1000, T.USDT),
      gasPerSwap: NO_GAS,
    })!;
    expect(route.returnAmount).toBe(replayed(engine, route));
    const batch = toBatchSwap(route);
    const r = replayBatchSwap('buy', batch.steps, batch.assets, (id) => engine.model(id));
    if (!r.ok) throw new Error(r.reason);
    expect(r.deltas[1]).toBe(-units(1000, T.USDT));
  });

  test('a large order splits across parallel pools and gets more than the best single pool gives', () => {
    const pools = [
      weighted([
        [T.WETH, '100'],
        [T.USDC, '300000'],
      ]),
      weighted([
        [T.WETH, '60'],
        [T.USDC, '180000'],
      ]),
      weighted([
        [T.WETH, '30'],
        [T.USDC, '90000'],
      ]),
    ];
    const engine = engineOf(pools);
    const amount = units(20, T.WETH);
    const route = engine.route({ tokenIn: T.WETH, tokenOut: T.USDC, kind: 'sell', amount, gasPerSwap: NO_GAS })!;
    expect(route.paths.length).toBeGreaterThanOrEqual(2);
    expect(route.paths.reduce((s, p) => s + p.given, 0n)).toBe(amount);
    const singles = engine.graph
      .between(T.WETH, T.USDC)
      .map((e) => pathOut([e.hop], amount, (m) => m.initialState()) ?? 0n);
    expect(route.returnAmount).toBeGreaterThan(singles.reduce((a, b) => (a > b ? a : b)));
    // Equal marginal prices: the bigger pools take the bigger parts.
    const given = route.paths.map((p) => p.given);
    expect([...given].sort((a, b) => (a > b ? -1 : 1))).toEqual(given.slice().sort((a, b) => (a > b ? -1 : 1)));
  });

  test("an order beyond one pool's in-limit (30% of its balance) is carried by a split, not refused", () => {
    const pools = [
      weighted([
        [T.WETH, '100'],
        [T.USDC, '300000'],
      ]),
      weighted([
        [T.WETH, '100'],
        [T.USDC, '300000'],
      ]),
    ];
    const engine = engineOf(pools);
    const route = engine.route({
      tokenIn: T.WETH,
      tokenOut: T.USDC,
      kind: 'sell',
      amount: units(45, T.WETH),
      gasPerSwap: NO_GAS,
    });
    expect(route).toBeDefined();
    expect(route!.paths).toHaveLength(2);
    for (const p of route!.paths) expect(p.given).toBeLessThanOrEqual(units(30, T.WETH));
    expect(
      engine.route({ tokenIn: T.WETH, tokenOut: T.USDC, kind: 'sell', amount: units(61, T.WETH), gasPerSwap: NO_GAS }),
    ).toBeUndefined();
  });

  test('a single-path request gets the best path that carries the whole order, and none when no path can', () => {
    const pools = [
      weighted([
        [T.WETH, '100'],
        [T.USDC, '300000'],
      ]),
      weighted([
        [T.WETH, '60'],
        [T.USDC, '180000'],
      ]),
      weighted([
        [T.WETH, '30'],
        [T.USDC, '90000'],
      ]),
    ];
    const engine = engineOf(pools);
    const amount = units(20, T.WETH);
    const single = engine.route({
      tokenIn: T.WETH,
      tokenOut: T.USDC,
      kind: 'sell',
      amount,
      gasPerSwap: NO_GAS,
      singlePath: true,
    })!;
    expect(single.paths).toHaveLength(1);
    const singles = engine.graph
      .between(T.WETH, T.USDC)
      .map((e) => pathOut([e.hop], amount, (m) => m.initialState()) ?? 0n);
    expect(single.returnAmount).toBe(singles.reduce((a, b) => (a > b ? a : b)));
    expect(
      engine.route({ tokenIn: T.WETH, tokenOut: T.USDC, kind: 'sell', amount, gasPerSwap: NO_GAS })!.returnAmount,
    ).toBeGreaterThan(single.returnAmount);
    // 45 WETH is past every pool's 30% in-limit: a split carries it, a single path cannot.
    expect(
      engine.route({
        tokenIn: T.WETH,
        tokenOut: T.USDC,
        kind: 'sell',
        amount: units(45, T.WETH),
        gasPerSwap: NO_GAS,
        singlePath: true,
      }),
    ).toBeUndefined();
  });

  test('costly gas trades a better price for fewer swaps', () => {
    // Direct pool ~18 USDC worse than the two-hop route through DAI; one more swap costs 25 USDC.
    const pools = [
      weighted([
        [T.WETH, '1000'],
        [T.USDC, '2990000'],
      ]),
      weighted(
        [
          [T.WETH, '1000'],
          [T.DAI, '3000000'],
        ],
        { fee: '0.0001' },
      ),
      weighted(
        [
          [T.DAI, '5000000'],
          [T.USDC, '5000000'],
        ],
        { fee: '0.0001' },
      ),
    ];
    const engine = engineOf(pools);
    const free = engine.route({
      tokenIn: T.WETH,
      tokenOut: T.USDC,
      kind: 'sell',
      amount: units(1, T.WETH),
      gasPerSwap: NO_GAS,
    })!;
    expect(free.paths.some((p) => p.path.length === 2)).toBe(true);
    const costly = engine.route({
      tokenIn: T.WETH,
      tokenOut: T.USDC,
      kind: 'sell',
      amount: units(1, T.WETH),
      gasPerSwap: () => units(25, T.USDC),
    })!;
    expect(costly.paths.map((p) => p.path.length)).toEqual([1]);
    expect(costly.gasCost).toBe(units(25, T.USDC));
  });

  test('no route: tokens the pools do not connect, a zero amount, or an order no split can carry', () => {
    const engine = engineOf([
      ...chain,
      weighted([
        [T.LONE, '10'],
        [T.NEW, '10'],
      ]),
    ]);
    expect(
      engine.route({ tokenIn: T.LINK, tokenOut: T.LONE, kind: 'sell', amount: units(1, T.LINK), gasPerSwap: NO_GAS }),
    ).toBeUndefined();
    expect(
      engine.route({ tokenIn: T.LINK, tokenOut: T.USDT, kind: 'sell', amount: 0n, gasPerSwap: NO_GAS }),
    ).toBeUndefined();
    expect(
      engine.route({
        tokenIn: T.LINK,
        tokenOut: T.USDT,
        kind: 'buy',
        amount: units(10_000_000, T.USDT),
        gasPerSwap: NO_GAS,
      }),
    ).toBeUndefined();
  });

  test('a liquidity bootstrapping pool is used only to trade its own tokens', () => {
    // A cheap LBP price for WETH/USDC must not become a hop between other tokens.
    const lbp = weighted(
      [
        [T.WETH, '1000'],
        [T.USDC, '9000000'],
      ],
      { type: 'LiquidityBootstrapping', weights: ['0.5', '0.5'], version: 1 },
    );
    const pools = [
      lbp,
      weighted([
        [T.DAI, '1000000'],
        [T.WETH, '333'],
      ]),
      weighted([
        [T.USDC, '1000000'],
        [T.USDT, '1000000'],
      ]),
    ];
    const engine = engineOf(pools);
    const through = engine.route({
      tokenIn: T.DAI,
      tokenOut: T.USDT,
      kind: 'sell',
      amount: units(100, T.DAI),
      gasPerSwap: NO_GAS,
    });
    expect(through?.paths.some((p) => p.path.some((h) => h.pool.id === lbp.id)) ?? false).toBe(false);
    const own = engine.route({
      tokenIn: T.WETH,
      tokenOut: T.USDC,
      kind: 'sell',
      amount: units(1, T.WETH),
      gasPerSwap: NO_GAS,
    })!;
    expect(own.paths[0]!.path[0]!.pool.id).toBe(lbp.id);
  });

  describe('tokens that live only in liquidity bootstrapping pools', () => {
    const lbp = (tokens: [string, string][]) =>
      weighted(tokens, { type: 'LiquidityBootstrapping', weights: ['0.8', '0.2'], version: 1 });
    const saleA = lbp([
      [T.SALE_A, '1000000'],
      [T.WETH, '100'],
    ]);
    const saleB = lbp([
      [T.SALE_B, '2000000'],
      [T.USDC, '300000'],
    ]);
    const saleBWeth = lbp([
      [T.SALE_B, '1000000'],
      [T.WETH, '40'],
    ]);
    const wethUsdc = weighted([
      [T.WETH, '1000'],
      [T.USDC, '3000000'],
    ]);
    const usdcDai = weighted([
      [T.USDC, '1000000'],
      [T.DAI, '1000000'],
    ]);
    const poolsOf = (route: Route) => route.paths.map((p) => p.path.map((h) => h.pool.id));

    test('a pair whose tokens each live only in an LBP routes through both, sells and buys alike', () => {
      const engine = engineOf([saleA, saleB, wethUsdc]);
      const sell = engine.route({
        tokenIn: T.SALE_A,
        tokenOut: T.SALE_B,
        kind: 'sell',
        amount: units(1000, T.SALE_A),
        gasPerSwap: NO_GAS,
      })!;
      expect(poolsOf(sell)).toEqual([[saleA.id, wethUsdc.id, saleB.id]]);
      expect(sell.returnAmount).toBeGreaterThan(0n);
      expect(replayed(engine, sell)).toBe(sell.returnAmount);
      const buy = engine.route({
        tokenIn: T.SALE_A,
        tokenOut: T.SALE_B,
        kind: 'buy',
        amount: units(500, T.SALE_B),
        gasPerSwap: NO_GAS,
      })!;
      expect(poolsOf(buy)).toEqual([[saleA.id, wethUsdc.id, saleB.id]]);
      expect(replayed(engine, buy)).toBe(buy.returnAmount);
    });

    test('two LBPs that share their other token make a two-hop path', () => {
      const engine = engineOf([saleA, saleBWeth]);
      const route = engine.route({
        tokenIn: T.SALE_B,
        tokenOut: T.SALE_A,
        kind: 'sell',
        amount: units(100, T.SALE_B),
        gasPerSwap: NO_GAS,
      })!;
      expect(poolsOf(route)).toEqual([[saleBWeth.id, saleA.id]]);
      expect(replayed(engine, route)).toBe(route.returnAmount);
    });

    test("an LBP is never a hop between two tokens that are not the order's own", () => {
      // SALE_A -> WETH -> SALE_B -> ... would cross saleBWeth between WETH and SALE_B, neither
      // of them DAI's pair: the only connection is a route the rule forbids.
      const engine = engineOf([saleA, saleBWeth, usdcDai]);
      const lbpSellB = lbp([
        [T.SALE_B, '1000000'],
        [T.USDT, '1000000'],
      ]);
      expect(
        engine.route({
          tokenIn: T.SALE_A,
          tokenOut: T.DAI,
          kind: 'sell',
          amount: units(1, T.SALE_A),
          gasPerSwap: NO_GAS,
        }),
      ).toBeUndefined();
      // Over a universe with LBPs on every side, every candidate's LBP hops touch the order's tokens.
      const models = buildModels([saleA, saleB, saleBWeth, lbpSellB, wethUsdc, usdcDai], { timestamp: 0 }).models;
      const graphEngine = new SwapEngine(models);
      const tokens = Object.values(T);
      let lbpPaths = 0;
      for (const tokenIn of tokens) {
        for (const tokenOut of tokens) {
          for (const c of candidatePaths(graphEngine.graph, tokenIn, tokenOut)) {
            c.path.forEach((h, k) => {
              if (h.pool.poolType !== 'LiquidityBootstrapping') return;
              const atStart = k === 0 && h.pool.tokens[h.i] === tokenIn;
              const atEnd = k === c.path.length - 1 && h.pool.tokens[h.j] === tokenOut;
              expect(atStart || atEnd).toBe(true);
              lbpPaths++;
            });
          }
        }
      }
      expect(lbpPaths).toBeGreaterThan(0);
    });
  });
});
