import { fixedPriceLbpMath } from '../../../../../src/domain/poolTypes/weighted/v3/fixedPriceLbpV3Pool';
import {
  AddingLiquidityNotAllowed,
  lbpHook,
  RemoveOnlyThroughMigrationRouter,
  RemovingLiquidityNotAllowed,
  SwapOfProjectTokenIn,
  SwapsDisabled,
} from '../../../../../src/domain/poolTypes/weighted/v3/lbpV3Sale';
import { InsufficientRealReserveBalance, lbpMath } from '../../../../../src/domain/poolTypes/weighted/v3/lbpV3Pool';
import type { FixedPriceLbpState, LbpState } from '../../../../../src/domain/poolTypes/weighted/v3/lbpV3State';
import { lbpWeights } from '../../../../../src/domain/poolTypes/weighted/v3/lbpV3Weights';
import type { LiquidityHookParams } from '../../../../../src/domain/protocols/v3/hooks/hook';
import type { PoolSwapParams } from '../../../../../src/domain/protocols/v3/poolMath';
import { vaultSwap } from '../../../../../src/domain/protocols/v3/vault/swap';
import type { V3Pool } from '../../../../../src/domain/protocols/v3/vault/v3Pool';
import { V3PoolModel } from '../../../../../src/domain/protocols/v3/engine/v3PoolModel';
import { SwapEngine } from '../../../../../src/domain/swap/engine';
import { Revert } from '../../../../../src/domain/swap/math/revert';
import { loadV3Vector, vectorVaultState } from '../../../../helpers/v3Vectors';

const ONE = 10n ** 18n;
const lp = loadV3Vector('11155111-8085514-LBP-BAL-DAI.json').pool;
const lbp: LbpState = {
  ...vectorVaultState(lp),
  projectTokenIndex: 0,
  reserveTokenIndex: 1,
  startTime: lp.big('startTime'),
  endTime: lp.big('endTime'),
  isProjectTokenSwapInBlocked: false,
  startWeights: lp.bigs('startWeights'),
  endWeights: lp.bigs('endWeights'),
};
const swap = (indexIn: number, amount: bigint, balances = lbp.balancesLiveScaled18): PoolSwapParams => ({
  kind: 'exactIn',
  amountGivenScaled18: amount,
  balancesScaled18: balances,
  indexIn,
  indexOut: 1 - indexIn,
});

describe('V3 LBP weights over the sale', () => {
  test('start weights until the start, end weights from the end on, halfway at the midpoint', () => {
    const mid = (lbp.startTime + lbp.endTime) / 2n;
    expect(lbpWeights(lbp, lbp.startTime - 100n)).toEqual(lbp.startWeights);
    expect(lbpWeights(lbp, lbp.endTime + 100n)).toEqual(lbp.endWeights);
    const [project] = lbpWeights(lbp, mid);
    expect(project).toBe((lbp.startWeights[0]! + lbp.endWeights[0]!) / 2n);
  });

  test('the project token gets cheaper as its weight falls: the same buy pays out more later', () => {
    const early = lbpMath(lbp, lbp.startTime + 60n).onSwap(swap(1, ONE / 100n));
    const late = lbpMath(lbp, lbp.endTime - 60n).onSwap(swap(1, ONE / 100n));
    expect(late).toBeGreaterThan(early);
  });
});

describe('V3 LBP sale rules', () => {
  test('swaps only inside the sale window, both ends included', () => {
    expect(() => lbpMath(lbp, lbp.startTime - 1n).onSwap(swap(1, ONE / 100n))).toThrow(SwapsDisabled);
    expect(() => lbpMath(lbp, lbp.endTime + 1n).onSwap(swap(1, ONE / 100n))).toThrow(SwapsDisabled);
    expect(lbpMath(lbp, lbp.startTime).onSwap(swap(1, ONE / 100n))).toBeGreaterThan(0n);
    expect(lbpMath(lbp, lbp.endTime).onSwap(swap(1, ONE / 100n))).toBeGreaterThan(0n);
  });

  test('a buy-only sale refuses the project token in and sells it out', () => {
    const buyOnly = lbpMath({ ...lbp, isProjectTokenSwapInBlocked: true }, lbp.startTime + 60n);
    expect(() => buyOnly.onSwap(swap(0, ONE / 100n))).toThrow(SwapOfProjectTokenIn);
    expect(buyOnly.onSwap(swap(1, ONE / 100n))).toBeGreaterThan(0n);
  });

  const liquidity: LiquidityHookParams = {
    kind: 'proportional',
    amountsScaled18: [0n, 0n],
    bptAmount: ONE,
    balancesScaled18: lbp.balancesLiveScaled18,
  };

  test('no add is quotable; removes only outside the sale', () => {
    const during = lbpHook(lbp, lbp.startTime + 60n);
    expect(() => during.beforeAddLiquidity!(liquidity, lbp)).toThrow(AddingLiquidityNotAllowed);
    expect(() => during.beforeRemoveLiquidity!(liquidity, lbp)).toThrow(RemovingLiquidityNotAllowed);
    expect(lbpHook(lbp, lbp.endTime + 1n).beforeRemoveLiquidity!(liquidity, lbp)).toBeUndefined();
  });

  test('a pool with a migration router takes no user remove, even after the sale', () => {
    const migrating: LbpState = { ...lbp, migrationRouter: '0x00000000000000000000000000000000000000aa' };
    expect(() => lbpHook(migrating, lbp.endTime + 1n).beforeRemoveLiquidity!(liquidity, migrating)).toThrow(
      RemoveOnlyThroughMigrationRouter,
    );
  });

  test('a seedless LBP prices with its virtual reserve but pays out only the reserve it holds', () => {
    const seedless: LbpState = { ...lbp, reserveTokenVirtualBalanceScaled18: 1000n * ONE };
    const t = lbp.startTime + 60n;
    const noReserve = [lbp.balancesLiveScaled18[0]!, 0n];
    // Buying the project token with no real reserve in the pool works: the virtual reserve prices it.
    expect(lbpMath(seedless, t).onSwap(swap(1, ONE / 100n, noReserve))).toBeGreaterThan(0n);
    // Selling it back asks for reserve the pool does not have.
    expect(() => lbpMath(seedless, t).onSwap(swap(0, ONE / 100n, noReserve))).toThrow(InsufficientRealReserveBalance);
  });

  test('the npm 1.0.0 seedless build refuses an exact-out sale whose project amount in passes the real reserve', () => {
    const t = lbp.startTime + 60n;
    const seedless: LbpState = { ...lbp, reserveTokenVirtualBalanceScaled18: 1000n * ONE };
    // A million project tokens against 10 real (and 1000 virtual) reserve tokens: one reserve token
    // out costs about a thousand project tokens in, more than the 10 reserve tokens held.
    const balances = [1_000_000n * ONE, 10n * ONE];
    const sell = { ...swap(0, ONE, balances), kind: 'exactOut' } as const;
    expect(lbpMath(seedless, t).onSwap(sell)).toBeGreaterThan(10n * ONE);
    expect(() => lbpMath({ ...seedless, checksCalculatedAmountAgainstReserve: true }, t).onSwap(sell)).toThrow(
      InsufficientRealReserveBalance,
    );
  });
});

describe('V3 fixed-price LBP', () => {
  const fp = loadV3Vector('11155111-10434442-FixedPriceLBP-MTK-USDC.json').pool;
  const state: FixedPriceLbpState = {
    ...vectorVaultState(fp),
    projectTokenIndex: fp.num('projectTokenIndex'),
    reserveTokenIndex: fp.num('reserveTokenIndex'),
    startTime: fp.big('startTime'),
    endTime: fp.big('endTime'),
    projectTokenRate: 4n * ONE,
  };
  const open = fixedPriceLbpMath(state, state.startTime);
  const buy = (kind: PoolSwapParams['kind'], amount: bigint): PoolSwapParams => ({
    kind,
    amountGivenScaled18: amount,
    balancesScaled18: state.balancesLiveScaled18,
    indexIn: state.reserveTokenIndex,
    indexOut: state.projectTokenIndex,
  });

  test('the price is the rate whatever the size: 4 reserve per project token, rounding against the buyer', () => {
    expect(open.onSwap(buy('exactIn', 8n * ONE))).toBe(2n * ONE);
    expect(open.onSwap(buy('exactIn', 1000n * ONE))).toBe(250n * ONE);
    expect(open.onSwap(buy('exactIn', 7n))).toBe(1n);
    expect(open.onSwap(buy('exactOut', 2n * ONE))).toBe(8n * ONE);
  });

  test('the project token is never taken in, and nothing trades outside the window', () => {
    const sell: PoolSwapParams = {
      ...buy('exactIn', ONE),
      indexIn: state.projectTokenIndex,
      indexOut: state.reserveTokenIndex,
    };
    expect(() => open.onSwap(sell)).toThrow(SwapOfProjectTokenIn);
    expect(() => fixedPriceLbpMath(state, state.endTime + 1n).onSwap(buy('exactIn', ONE))).toThrow(SwapsDisabled);
  });

  test('buying more project tokens than the pool holds is refused by the Vault', () => {
    const pool: V3Pool = { state, math: open };
    const reserve = state.tokens[state.reserveTokenIndex]!;
    const project = state.tokens[state.projectTokenIndex]!;
    const held = state.balancesLiveScaled18[state.projectTokenIndex]!;
    // The reserve is USDC (6 decimals): 4 USDC buys one project token.
    const allOfIt = (held * 4n) / 10n ** 12n;
    const swap = (amountGivenRaw: bigint) =>
      vaultSwap(pool, { kind: 'exactIn', tokenIn: reserve, tokenOut: project, amountGivenRaw });
    expect(() => swap(allOfIt * 2n)).toThrow(Revert);
    expect(swap(allOfIt / 2n).amountOutRaw).toBeGreaterThan(0n);
  });

  test('a sale that holds no reserve yet is routable: its spot price is the rate with the fee', () => {
    const unsold = state.balancesLiveScaled18.map((b, k) => (k === state.reserveTokenIndex ? 0n : b));
    const fresh: FixedPriceLbpState = { ...state, balancesLiveScaled18: unsold, balancesRaw: undefined };
    const model = new V3PoolModel({
      pool: { state: fresh, math: open },
      decimals: state.tokens.map((_, k) => (k === state.reserveTokenIndex ? 6 : 18)),
      poolType: 'FixedLBP',
    });
    const spot = model.spotPrice(model.initialState(), state.reserveTokenIndex, state.projectTokenIndex);
    const fee = Number(state.staticSwapFee) / 1e18;
    // The probe is small: its reserve amount (6 decimals) rounds up by up to a unit.
    expect(spot).toBeCloseTo(4 / (1 - fee), 3);
  });

  test("its project token, which no pool takes in, is still an order's end: the engine routes a buy through the sale", () => {
    const model = new V3PoolModel({
      pool: { state, math: open },
      decimals: state.tokens.map((_, k) => (k === state.reserveTokenIndex ? 6 : 18)),
      poolType: 'FixedLBP',
      pathRole: 'ends',
    });
    const reserve = state.tokens[state.reserveTokenIndex]!.toLowerCase();
    const project = state.tokens[state.projectTokenIndex]!.toLowerCase();
    const engine = new SwapEngine([model]);
    const order = { tokenIn: reserve, tokenOut: project, gasPerSwap: () => 0n } as const;
    // 8 USDC less the fee at 4 USDC per project token.
    const fee = state.staticSwapFee;
    const sold = engine.route({ ...order, kind: 'sell', amount: 8_000_000n });
    expect(sold?.returnAmount).toBe(((8n * ONE - (8n * ONE * fee) / ONE) * ONE) / (4n * ONE));
    expect(engine.route({ ...order, kind: 'buy', amount: 2n * ONE })?.paths).toHaveLength(1);
    expect(engine.route({ tokenIn: project, tokenOut: reserve, kind: 'sell', amount: ONE, gasPerSwap: () => 0n })).toBe(
      undefined,
    );
  });
});
