import { weightedV3Math } from '../../../../../src/domain/poolTypes/weighted/v3/weightedV3Pool';
import type { WeightedV3State } from '../../../../../src/domain/poolTypes/weighted/v3/weightedV3State';
import { akronHook } from '../../../../../src/domain/protocols/v3/hooks/akron/akronHook';
import { directionalFeeHook } from '../../../../../src/domain/protocols/v3/hooks/directionalFee/directionalFeeHook';
import { ExitFeeOnlyProportional, exitFeeHook } from '../../../../../src/domain/protocols/v3/hooks/exitFee/exitFeeHook';
import type { V3Hook } from '../../../../../src/domain/protocols/v3/hooks/hook';
import {
  mevCaptureHook,
  mevCaptureHookAtStaticFee,
  MevTaxedLiquidityRefused,
} from '../../../../../src/domain/protocols/v3/hooks/mevCapture/mevCaptureHook';
import type { V3SwapKind } from '../../../../../src/domain/protocols/v3/poolMath';
import { vaultSwap } from '../../../../../src/domain/protocols/v3/vault/swap';
import { isRevert } from '../../../../../src/domain/swap/math/revert';
import { loadV3Vector, vectorVaultState } from '../../../../helpers/v3Vectors';

// A real launch weighted pool (USDC/DAI 50/50, 1% static fee, USDC-heavy) carries each hook.
const vector = loadV3Vector('11155111-7439300-Weighted-USDC-DAI.json');
const state: WeightedV3State = { ...vectorVaultState(vector.pool), weights: vector.pool.bigs('weights') };
const math = weightedV3Math(state);
const [USDC, DAI] = state.tokens as [string, string];
const ONE = 10n ** 18n;
const USDC_UNIT = 10n ** 6n;

const quote = (
  hook: V3Hook | undefined,
  tokenIn: string,
  tokenOut: string,
  amountGivenRaw: bigint,
  kind: V3SwapKind = 'exactIn',
) =>
  vaultSwap(hook === undefined ? { state, math } : { state, math, hook }, { kind, tokenIn, tokenOut, amountGivenRaw });
/** The same swap on the pool without a hook but with `fee` as its static fee. */
const atStaticFee = (
  fee: bigint,
  tokenIn: string,
  tokenOut: string,
  amountGivenRaw: bigint,
  kind: V3SwapKind = 'exactIn',
) => vaultSwap({ state: { ...state, staticSwapFee: fee }, math }, { kind, tokenIn, tokenOut, amountGivenRaw });

describe('directional fee hook', () => {
  const hook = directionalFeeHook();

  test('a swap that pushes the pool further from balance pays (in after - out after) / their sum', () => {
    const amount = 100n * USDC_UNIT;
    const result = quote(hook, USDC, DAI, amount);
    const inAfter = state.balancesLiveScaled18[0]! + amount * 10n ** 12n;
    const outAfter = state.balancesLiveScaled18[1]! - amount * 10n ** 12n;
    expect(result.swapFeePercentage).toBe(((inAfter - outAfter) * ONE) / (inAfter + outAfter));
    expect(result.swapFeePercentage).toBeGreaterThan(state.staticSwapFee);
    expect(result.amountCalculatedRaw).toBe(
      atStaticFee(result.swapFeePercentage, USDC, DAI, amount).amountCalculatedRaw,
    );
  });

  test('a swap towards balance pays the static fee', () => {
    const result = quote(hook, DAI, USDC, 100n * ONE);
    expect(result.swapFeePercentage).toBe(state.staticSwapFee);
    expect(result.amountCalculatedRaw).toBe(quote(undefined, DAI, USDC, 100n * ONE).amountCalculatedRaw);
  });
});

describe('Akron LVR fee hook', () => {
  const hook = akronHook(state.weights, state.staticSwapFee);

  test('a small swap pays the minimum fee, exactly as the pool without the hook', () => {
    const result = quote(hook, USDC, DAI, USDC_UNIT);
    expect(result.swapFeePercentage).toBe(state.staticSwapFee);
    expect(result.amountCalculatedRaw).toBe(quote(undefined, USDC, DAI, USDC_UNIT).amountCalculatedRaw);
  });

  test.each(['exactIn', 'exactOut'] as const)('%s: the fee grows with the size of the swap', (kind) => {
    // DAI in (18 decimals) for exact in, USDC out (6 decimals) for exact out.
    const unit = kind === 'exactIn' ? ONE : USDC_UNIT;
    const pct = [500n, 1000n, 1500n].map((n) => quote(hook, DAI, USDC, n * unit, kind).swapFeePercentage);
    expect(pct[0]).toBeGreaterThan(state.staticSwapFee);
    expect(pct[1]).toBeGreaterThan(pct[0]!);
    expect(pct[2]).toBeGreaterThan(pct[1]!);
  });
});

describe('MEV capture hook at a given priority fee', () => {
  const GWEI = 10n ** 9n;
  const params = { mevTaxEnabled: true, threshold: GWEI, multiplier: 10n ** 25n, maxMevSwapFeePercentage: ONE / 2n };
  const fee = (priority: bigint, p = params) =>
    quote(mevCaptureHook(p, priority), USDC, DAI, 10n * USDC_UNIT).swapFeePercentage;

  test('at or below the threshold the static fee; above it static + (priority - threshold) * multiplier', () => {
    expect(fee(GWEI)).toBe(state.staticSwapFee);
    // 2 gwei above the threshold at 1e25: 2e9 * 1e25 / 1e18 = 2% on top of the static 1%.
    expect(fee(3n * GWEI)).toBe(state.staticSwapFee + 2n * 10n ** 16n);
    expect(fee(1000n * GWEI)).toBe(params.maxMevSwapFeePercentage);
    expect(fee(3n * GWEI, { ...params, mevTaxEnabled: false })).toBe(state.staticSwapFee);
  });

  test('above the threshold only proportional liquidity passes', () => {
    const hook = mevCaptureHook(params, 3n * GWEI);
    const liquidity = { kind: 'unbalanced', amountsScaled18: [0n, 0n], bptAmount: 0n, balancesScaled18: [] } as const;
    expect(() => hook.beforeAddLiquidity!(liquidity, state)).toThrow(MevTaxedLiquidityRefused);
    expect(hook.beforeAddLiquidity!({ ...liquidity, kind: 'proportional' }, state)).toBeUndefined();
  });
});

describe('MEV capture hook at the static fee', () => {
  test('quotes exactly as the pool without the hook', () => {
    for (const kind of ['exactIn', 'exactOut'] as const) {
      const amount = kind === 'exactIn' ? 50n * USDC_UNIT : 50n * ONE;
      const hooked = quote(mevCaptureHookAtStaticFee(), USDC, DAI, amount, kind);
      expect(hooked.swapFeePercentage).toBe(state.staticSwapFee);
      expect(hooked.amountCalculatedRaw).toBe(quote(undefined, USDC, DAI, amount, kind).amountCalculatedRaw);
    }
  });
});

describe('exit fee hook', () => {
  const hook = exitFeeHook(ONE / 100n);
  const remove = (kind: 'proportional' | 'singleTokenExactIn') => ({
    kind,
    bptAmountIn: ONE,
    amountsOutScaled18: [1000n * ONE, 2000n * ONE],
    amountsOutRaw: [1000n * USDC_UNIT + 99n, 2000n * ONE],
    balancesScaled18: state.balancesLiveScaled18,
  });

  test("a proportional remove pays the fee on each raw amount, rounded in the pool's favour", () => {
    expect(hook.enableHookAdjustedAmounts).toBe(true);
    expect(hook.afterRemoveLiquidity!(remove('proportional'), state)).toEqual([990n * USDC_UNIT + 99n, 1980n * ONE]);
  });

  test('any other remove fails the hook, so the Vault reverts', () => {
    let error: unknown;
    try {
      hook.afterRemoveLiquidity!(remove('singleTokenExactIn'), state);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ExitFeeOnlyProportional);
    expect(isRevert(error)).toBe(true);
  });
});
