import { stableV3Math, steadyAmp } from '../../../../../src/domain/poolTypes/stable/v3/stableV3Pool';
import type { StableV3State } from '../../../../../src/domain/poolTypes/stable/v3/stableV3State';
import { imbalance } from '../../../../../src/domain/protocols/v3/hooks/stableSurge/imbalance';
import {
  stableSurgeHook,
  SurgingLiquidityRefused,
} from '../../../../../src/domain/protocols/v3/hooks/stableSurge/stableSurgeHook';
import { vaultAddLiquidity } from '../../../../../src/domain/protocols/v3/vault/addLiquidity';
import { vaultRemoveLiquidity } from '../../../../../src/domain/protocols/v3/vault/removeLiquidity';
import { vaultSwap } from '../../../../../src/domain/protocols/v3/vault/swap';
import type { V3Pool } from '../../../../../src/domain/protocols/v3/vault/v3Pool';
import { loadV3Vector, vectorVaultState } from '../../../../helpers/v3Vectors';

const ONE = 10n ** 18n;

describe('StableSurge imbalance', () => {
  test('balanced is 0; otherwise the distance from the median over the total', () => {
    expect(imbalance([5n * ONE, 5n * ONE, 5n * ONE])).toBe(0n);
    // Median of [100, 300] is 200: (100 + 100) / 400.
    expect(imbalance([100n * ONE, 300n * ONE])).toBe(ONE / 2n);
    // Odd count: the median is the middle balance, in any order.
    expect(imbalance([300n, 100n, 200n])).toBe(imbalance([100n, 200n, 300n]));
    expect(imbalance([100n, 200n, 300n])).toBe((200n * ONE) / 600n);
  });
});

// A real StableSurge pool (threshold 10%, max surge fee 5%, static 0.05%), balances about 43/57.
const p = loadV3Vector('1-22247251-StableSurgeHook.json').pool;
const state: StableV3State = { ...vectorVaultState(p), amp: steadyAmp(p.big('amp')) };
const math = stableV3Math(state, 0n);
const params = { maxSurgeFeePercentage: 5n * 10n ** 16n, surgeThresholdPercentage: 10n ** 17n };
const pool: V3Pool = { state, math, hook: stableSurgeHook(params, math) };
const plain: V3Pool = { state, math };
const [A, B] = state.tokens as [string, string];

describe('StableSurge swap fee', () => {
  test('a swap towards balance pays the static fee, as the pool without the hook', () => {
    const request = { kind: 'exactIn', tokenIn: A, tokenOut: B, amountGivenRaw: 10n * ONE } as const;
    expect(vaultSwap(pool, request).swapFeePercentage).toBe(state.staticSwapFee);
    expect(vaultSwap(pool, request).amountCalculatedRaw).toBe(vaultSwap(plain, request).amountCalculatedRaw);
  });

  test('swaps deeper into imbalance pay more, up to the max surge fee', () => {
    const fees = [10n, 50n, 100n, 200n].map(
      (n) => vaultSwap(pool, { kind: 'exactIn', tokenIn: B, tokenOut: A, amountGivenRaw: n * ONE }).swapFeePercentage,
    );
    expect(fees[0]).toBeGreaterThan(state.staticSwapFee);
    for (let k = 1; k < fees.length; k++) expect(fees[k]).toBeGreaterThan(fees[k - 1]!);
    expect(fees[fees.length - 1]).toBeLessThanOrEqual(params.maxSurgeFeePercentage);
  });

  test('a max surge fee below the static fee leaves the static fee', () => {
    const low: V3Pool = { state, math, hook: stableSurgeHook({ ...params, maxSurgeFeePercentage: 0n }, math) };
    const request = { kind: 'exactIn', tokenIn: B, tokenOut: A, amountGivenRaw: 100n * ONE } as const;
    expect(vaultSwap(low, request).swapFeePercentage).toBe(state.staticSwapFee);
  });
});

describe('StableSurge liquidity', () => {
  test('an unbalanced add that takes the pool past the threshold, further from balance, is refused', () => {
    const add = { kind: 'unbalanced', maxAmountsInRaw: [0n, 100n * ONE], minBptAmountOut: 0n } as const;
    expect(() => vaultAddLiquidity(pool, add)).toThrow(SurgingLiquidityRefused);
    expect(vaultAddLiquidity(plain, add).bptAmountOut).toBeGreaterThan(0n);
  });

  test('an unbalanced add towards balance is taken', () => {
    const add = { kind: 'unbalanced', maxAmountsInRaw: [50n * ONE, 0n], minBptAmountOut: 0n } as const;
    expect(vaultAddLiquidity(pool, add).bptAmountOut).toBe(vaultAddLiquidity(plain, add).bptAmountOut);
  });

  test('a proportional remove is always taken; a single-token one that surges is refused', () => {
    const proportional = { kind: 'proportional', maxBptAmountIn: 100n * ONE, minAmountsOutRaw: [0n, 0n] } as const;
    expect(vaultRemoveLiquidity(pool, proportional).amountsOutRaw).toEqual(
      vaultRemoveLiquidity(plain, proportional).amountsOutRaw,
    );
    const singleA = { kind: 'singleTokenExactIn', maxBptAmountIn: 100n * ONE, minAmountsOutRaw: [1n, 0n] } as const;
    expect(() => vaultRemoveLiquidity(pool, singleA)).toThrow(SurgingLiquidityRefused);
  });
});
