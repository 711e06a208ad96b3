import { CHAINS } from '../../../src/config/chains';
import { decimalToUnits, unitsToDecimal } from '../../../src/domain/decimal';
import type { StoredPool } from '../../../src/domain/pool';
import { v3PoolOf } from '../../../src/domain/poolTypes/v3PoolOf';
import { vaultSwap } from '../../../src/domain/protocols/v3/vault/swap';
import { V3Router } from '../../../src/routing/v3/v3Router';
import type { QuoteRequest } from '../../../src/routing/types';
import { storedPool } from '../../helpers/poolFixtures';
import { DAI, STATA_USDC, STATA_USDT, USDC, USDT } from '../../helpers/v3Universe';
import { snapshotInput, v3Snapshot } from '../../helpers/v3StoredUniverse';
import { ChainSnapshot } from '../../../src/readModel/chainSnapshot';
import { syntheticV3Universe, traded, UNIVERSE_TIMESTAMP } from '../../bench/v3SyntheticUniverse';

const MEV_FLAGS = {
  enableHookAdjustedAmounts: false,
  shouldCallComputeDynamicSwapFee: true,
  shouldCallBeforeSwap: false,
  shouldCallAfterSwap: false,
  shouldCallBeforeAddLiquidity: true,
  shouldCallAfterAddLiquidity: false,
  shouldCallBeforeRemoveLiquidity: true,
  shouldCallAfterRemoveLiquidity: false,
};

/**
 * `/sor`'s V3 answer from stored V3 pools and buffers: BatchRouter paths whose amounts are the V3
 * Vault's, V2 pools left out of V3 routes.
 */

const SEPOLIA = CHAINS.find((c) => c.id === 11155111)!;
const TIMESTAMP = 1_740_000_000;

const request = (over: Partial<QuoteRequest>): QuoteRequest => ({
  sellToken: USDC,
  buyToken: USDT,
  orderKind: 'sell',
  amount: 1_000n * 10n ** 6n,
  gasPrice: 0n,
  minLiquidityUsd: 0,
  ...over,
});

describe('V3 router', () => {
  test('USDC -> USDT: wrap, stable pool, unwrap, the amounts the V3 Vault pays', () => {
    const snap = v3Snapshot(SEPOLIA.id);
    const { info } = new V3Router().quote(SEPOLIA, snap, request({}), TIMESTAMP);
    expect(info.protocolVersion).toBe(3);
    expect(info.paths).toHaveLength(1);
    const [path] = info.paths;
    expect(path!.tokenIn).toBe(USDC);
    expect(path!.steps).toEqual([
      { pool: STATA_USDC, tokenOut: STATA_USDC, isBuffer: true },
      { pool: snap.pools[1]!.address, tokenOut: STATA_USDT, isBuffer: false },
      { pool: STATA_USDT, tokenOut: USDT, isBuffer: true },
    ]);
    expect(path!.amountIn).toBe(info.swapAmount);
    expect(path!.amountOut).toBe(info.returnAmount);
    expect(Number(info.priceImpact)).toBeGreaterThanOrEqual(0);
    expect(Number(info.marketSp)).toBeGreaterThan(0);
  });

  test('a sell along one pool answers the V3 Vault operations over the stored pool', () => {
    const snap = v3Snapshot(SEPOLIA.id);
    const amount = 1_500n * 10n ** 6n;
    const { info } = new V3Router().quote(SEPOLIA, snap, request({ buyToken: DAI, amount }), TIMESTAMP);
    expect(info.paths.map((p) => p.steps.length)).toEqual([1]);
    const weighted = v3PoolOf(snap.pools[0]!, BigInt(TIMESTAMP))!;
    const vaultAnswer = vaultSwap(weighted, { kind: 'exactIn', tokenIn: USDC, tokenOut: DAI, amountGivenRaw: amount });
    expect(info.returnAmount).toBe(vaultAnswer.amountCalculatedRaw.toString());
  });

  test('a buy: the exact amount out, the amount in the replay needs', () => {
    const snap = v3Snapshot(SEPOLIA.id);
    const amount = 300n * 10n ** 6n;
    const { info } = new V3Router().quote(
      SEPOLIA,
      snap,
      request({ sellToken: DAI, orderKind: 'buy', amount }),
      TIMESTAMP,
    );
    expect(info.paths.length).toBeGreaterThan(0);
    expect(info.paths.reduce((s, p) => s + BigInt(p.amountOut), 0n)).toBe(amount);
    expect(info.paths.reduce((s, p) => s + BigInt(p.amountIn), 0n).toString()).toBe(info.returnAmount);
    expect(info.paths[0]!.steps.at(-1)!.tokenOut).toBe(USDT);
  });

  test('a V2 pool between the same tokens is never a step of a V3 route', () => {
    const v2: StoredPool = storedPool({
      id: `0x${'12'.repeat(20)}000200000000000000000001`,
      tokens: [USDC, DAI].map((address, k) => ({
        address: address as never,
        symbol: null,
        name: null,
        decimals: k === 0 ? 6 : 18,
        balance: '100000000',
        weight: '0.5',
        priceRate: '1',
      })),
    });
    const snap = v3Snapshot(SEPOLIA.id, [v2]);
    const { info } = new V3Router().quote(SEPOLIA, snap, request({ buyToken: DAI }), TIMESTAMP);
    expect(info.paths.flatMap((p) => p.steps.map((s) => s.pool))).not.toContain(v2.address);
    expect(info.paths.length).toBeGreaterThan(0);
  });

  test('no V3 route: empty paths and zero amounts', () => {
    const snap = v3Snapshot(SEPOLIA.id);
    const lone = '0x00000000000000000000000000000000000000ee';
    const { info, route } = new V3Router().quote(SEPOLIA, snap, request({ buyToken: lone }), TIMESTAMP);
    expect(route).toBeUndefined();
    expect(info).toMatchObject({ protocolVersion: 3, paths: [], returnAmount: '0', tokenOut: lone });
  });

  test('a route through a MEV capture pool is the static fee quote, and the answer says what it assumes', () => {
    const plain = v3Snapshot(SEPOLIA.id);
    const hooked = (p: StoredPool): StoredPool => ({
      ...p,
      v3: { ...p.v3!, hook: { address: `0x${'3e'.repeat(20)}`, kind: 'mevCapture', flags: MEV_FLAGS, params: {} } },
    });
    const snap = v3Snapshot(SEPOLIA.id);
    const withMev = new ChainSnapshot({
      ...snapshotInput(snap),
      pools: snap.pools.map((p, i) => (i === 0 ? hooked(p) : p)),
    });
    const req = request({ buyToken: DAI, amount: 1_500n * 10n ** 6n });
    const before = new V3Router().quote(SEPOLIA, plain, req, TIMESTAMP).info;
    const after = new V3Router().quote(SEPOLIA, withMev, req, TIMESTAMP).info;
    expect(after.returnAmount).toBe(before.returnAmount);
    expect(before.assumptions).toBeUndefined();
    expect(after.assumptions).toEqual([expect.stringContaining('MEV capture hook is quoted at the static fee')]);
    expect(after.assumptions![0]).toContain(snap.pools[0]!.id);
  });
});

describe('V3 router across blocks (one router, as the service keeps it)', () => {
  const sellUsdcForDai = request({ buyToken: DAI, amount: 1_500n * 10n ** 6n });
  const vaultPays = (pool: StoredPool, at: number) =>
    vaultSwap(v3PoolOf(pool, BigInt(at))!, {
      kind: 'exactIn',
      tokenIn: USDC,
      tokenOut: DAI,
      amountGivenRaw: sellUsdcForDai.amount,
    }).amountCalculatedRaw.toString();

  test('a pool a block changed is quoted at its new state; one it left alone, as before', () => {
    const router = new V3Router();
    const first = v3Snapshot(SEPOLIA.id);
    const weighted = first.pools[0]!;
    expect(router.quote(SEPOLIA, first, sellUsdcForDai, TIMESTAMP).info.returnAmount).toBe(
      vaultPays(weighted, TIMESTAMP),
    );
    // The next block: someone sold DAI into the weighted pool (a new stored object, as the read
    // model makes for a pool whose state changed); the other pools are the same objects.
    const traded: StoredPool = {
      ...weighted,
      tokens: weighted.tokens.map((t) =>
        t.address === DAI
          ? { ...t, balance: unitsToDecimal((decimalToUnits(t.balance, t.decimals) * 5n) / 4n, t.decimals) }
          : t,
      ),
    };
    const second = new ChainSnapshot({ ...snapshotInput(first), pools: [traded, ...first.pools.slice(1)] });
    const afterTrade = router.quote(SEPOLIA, second, sellUsdcForDai, TIMESTAMP + 12).info.returnAmount;
    expect(afterTrade).toBe(vaultPays(traded, TIMESTAMP + 12));
    expect(afterTrade).not.toBe(vaultPays(weighted, TIMESTAMP + 12));
    // A block after that changes nothing V3 holds: the same answer, at the next time.
    const third = new ChainSnapshot({ ...snapshotInput(second), pools: [...second.pools] });
    expect(router.quote(SEPOLIA, third, sellUsdcForDai, TIMESTAMP + 24).info.returnAmount).toBe(afterTrade);
    // And the route through the stable pool and both buffers is still the Vault's own.
    const boosted = router.quote(SEPOLIA, third, request({}), TIMESTAMP + 24).info;
    const fresh = new V3Router().quote(SEPOLIA, third, request({}), TIMESTAMP + 24).info;
    expect(boosted.returnAmount).toBe(fresh.returnAmount);
    expect(boosted.paths).toEqual(fresh.paths);
  });
});

/**
 * Between blocks the quote threads build ahead the next block's time-dependent pools
 * (`V3Router.prepare`, in slices while idle); the block then builds what it changed. Its answers
 * are a fresh router's at that time, through pools whose price moves every second (QuantAMM
 * weights, an LBP's sale, a ReClamm pool out of range) and through one the block traded.
 */
describe('V3 router building the next block ahead', () => {
  const u = syntheticV3Universe();
  const now = UNIVERSE_TIMESTAMP + 12;
  const weth = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
  const source = (pools: readonly StoredPool[]) => ({
    chainId: 1,
    pools,
    buffers: u.buffers,
    decimalsOf: (t: string) => u.tokens.find((k) => k.address === t)?.decimals,
  });

  test("after a prepared block, every answer is a fresh router's at the block's time", () => {
    const pairsOf = (type: string, n: number) =>
      u.pools
        .filter((p) => p.poolType === type)
        .slice(0, n)
        .map((p) => [p.tokens[0]!.address, p.tokens[1]!.address] as const);
    const pairs = [
      ...pairsOf('QuantAMMWeighted', 2),
      ...pairsOf('LBP', 2),
      ...pairsOf('ReClamm', 4),
      ...pairsOf('Stable', 2),
    ];
    const ask = (router: V3Router, pools: readonly StoredPool[], at: number) =>
      pairs.flatMap(([a, b]) =>
        (['sell', 'buy'] as const).map(
          (kind) =>
            router.route(
              weth,
              source(pools),
              { sellToken: a, buyToken: b, orderKind: kind, amount: 10n ** 15n, gasPrice: 0n },
              at,
              {},
            ).info,
        ),
      );
    const router = new V3Router();
    ask(router, u.pools, now);
    let slices = 1;
    while (!router.prepare(source(u.pools), now + 12, 0)) slices++;
    expect(slices).toBeGreaterThan(1);
    // Quotes on the block before, after its pairs were carried ahead: still that block's answers.
    expect(ask(router, u.pools, now)).toEqual(ask(new V3Router(), u.pools, now));
    const next = [...u.pools];
    const k = u.pools.findIndex((p) => p.poolType === 'Stable' && p.tokens.length === 2);
    next[k] = traded(u.pools[k]!, 0.5);
    const answers = ask(router, next, now + 12);
    expect(answers).toEqual(ask(new V3Router(), next, now + 12));
    expect(answers.filter((a) => a.returnAmount !== '0').length).toBeGreaterThanOrEqual(pairs.length);
  });

  test('a block at another time than the one built ahead is still priced at its own', () => {
    const pairs = u.pools
      .filter((p) => p.poolType === 'QuantAMMWeighted' || p.poolType === 'ReClamm')
      .slice(0, 6)
      .map((p) => [p.tokens[0]!.address, p.tokens[1]!.address] as const);
    const ask = (router: V3Router, pools: readonly StoredPool[], at: number) =>
      pairs.map(
        ([a, b]) =>
          router.route(
            weth,
            source(pools),
            { sellToken: a, buyToken: b, orderKind: 'sell', amount: 10n ** 15n, gasPrice: 0n },
            at,
            {},
          ).info,
      );
    const router = new V3Router();
    ask(router, u.pools, now);
    while (!router.prepare(source(u.pools), now + 12, 5));
    // A slot missed: the block lands 24 s on, with one pool traded.
    const next = [...u.pools];
    const k = u.pools.findIndex((p) => p.poolType === 'ReClamm');
    next[k] = traded(u.pools[k]!, 0.5);
    expect(ask(router, next, now + 24)).toEqual(ask(new V3Router(), next, now + 24));
    // A change within the block while the next one is built ahead, then the block itself.
    const early = new V3Router();
    ask(early, u.pools, now);
    while (!early.prepare(source(u.pools), now + 12, 5));
    const sameBlock = [...u.pools];
    sameBlock[k] = traded(u.pools[k]!, 0.25);
    expect(ask(early, sameBlock, now)).toEqual(ask(new V3Router(), sameBlock, now));
    expect(ask(early, next, now + 12)).toEqual(ask(new V3Router(), next, now + 12));
    // And on demand the clock reaches the time built ahead with no block: that universe as built.
    const quiet = new V3Router();
    ask(quiet, u.pools, now);
    while (!quiet.prepare(source(u.pools), now + 1, 5));
    expect(ask(quiet, u.pools, now + 1)).toEqual(ask(new V3Router(), u.pools, now + 1));
  });
});
