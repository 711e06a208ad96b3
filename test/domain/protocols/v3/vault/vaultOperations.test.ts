import { weightedV3Math } from '../../../../../src/domain/poolTypes/weighted/v3/weightedV3Pool';
import type { WeightedV3State } from '../../../../../src/domain/poolTypes/weighted/v3/weightedV3State';
import type { V3Hook } from '../../../../../src/domain/protocols/v3/hooks/hook';
import { vaultAddLiquidity } from '../../../../../src/domain/protocols/v3/vault/addLiquidity';
import { PoolInRecoveryModeError, PoolPausedError } from '../../../../../src/domain/protocols/v3/vault/errors';
import { loadBalances } from '../../../../../src/domain/protocols/v3/vault/poolData';
import { vaultRemoveLiquidity } from '../../../../../src/domain/protocols/v3/vault/removeLiquidity';
import { toScaled18ApplyRateRoundDown } from '../../../../../src/domain/protocols/v3/vault/scaling';
import { vaultSwap, type V3SwapRequest } from '../../../../../src/domain/protocols/v3/vault/swap';
import type { V3Pool } from '../../../../../src/domain/protocols/v3/vault/v3Pool';
import { isRevert } from '../../../../../src/domain/swap/math/revert';

const E18 = 10n ** 18n;
const USDC = '0x00000000000000000000000000000000000000a6';
const WSTETH = '0x00000000000000000000000000000000000000b8';

/** An 80/20 pool of a 6-decimal token and an 18-decimal token with a rate, read with raw balances. */
function weighted(fields: Partial<WeightedV3State> = {}): WeightedV3State {
  const base: WeightedV3State = {
    address: '0x0000000000000000000000000000000000000f00',
    tokens: [USDC, WSTETH],
    scalingFactors: [10n ** 12n, 1n],
    tokenRates: [E18, 1_190_000_000_000_000_123n],
    balancesRaw: [4_000_000n * 10n ** 6n, 1_000n * E18],
    balancesLiveScaled18: [],
    staticSwapFee: 3n * 10n ** 15n,
    aggregateSwapFee: 0n,
    totalSupply: 50_000n * E18,
    paused: false,
    inRecoveryMode: false,
    supportsUnbalancedLiquidity: true,
    weights: [8n * 10n ** 17n, 2n * 10n ** 17n],
    ...fields,
  };
  return { ...base, balancesLiveScaled18: fields.balancesLiveScaled18 ?? loadBalances(base, 'down').live };
}

const pool = (state: WeightedV3State, hook?: V3Hook): V3Pool => ({ state, math: weightedV3Math(state), hook });
const sellUsdc: V3SwapRequest = {
  kind: 'exactIn',
  tokenIn: USDC,
  tokenOut: WSTETH,
  amountGivenRaw: 25_000n * 10n ** 6n,
};
const buyUsdc: V3SwapRequest = {
  kind: 'exactOut',
  tokenIn: WSTETH,
  tokenOut: USDC,
  amountGivenRaw: 25_000n * 10n ** 6n,
};

function revertCode(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    if (isRevert(e)) return (e as { code?: string }).code;
    throw e;
  }
  return undefined;
}

describe('the V3 Vault operations', () => {
  test('a paused pool and a pool in recovery mode are refused for swaps, adds and removes, each with its named error', () => {
    for (const [fields, error] of [
      [{ paused: true }, PoolPausedError],
      [{ inRecoveryMode: true }, PoolInRecoveryModeError],
    ] as const) {
      const p = pool(weighted(fields));
      expect(() => vaultSwap(p, sellUsdc)).toThrow(error);
      expect(() =>
        vaultAddLiquidity(p, { kind: 'unbalanced', maxAmountsInRaw: [10n ** 9n, 0n], minBptAmountOut: 0n }),
      ).toThrow(error);
      expect(() =>
        vaultRemoveLiquidity(p, { kind: 'proportional', maxBptAmountIn: E18, minAmountsOutRaw: [0n, 0n] }),
      ).toThrow(error);
    }
    expect(new PoolPausedError('0xabc').name).toBe('PoolPausedError');
  });

  test('a swap the pool sees below the minimum trade amount (1e6 scaled18) reverts TradeAmountTooSmall', () => {
    const p = pool(weighted({ staticSwapFee: 10n ** 16n }));
    const buyWsteth = (amount: bigint): V3SwapRequest => ({
      kind: 'exactOut',
      tokenIn: USDC,
      tokenOut: WSTETH,
      amountGivenRaw: amount,
    });
    // At a rate of 1.19, 840,000 wei of wstETH is 999,600 scaled18 and 841,000 wei is 1,000,790.
    expect(revertCode(() => vaultSwap(p, buyWsteth(840_000n)))).toBe('TradeAmountTooSmall');
    expect(revertCode(() => vaultSwap(p, buyWsteth(841_000n)))).toBeUndefined();
    // A weighted pool prices dust out at zero (pow's error bound), which the minimum refuses too.
    const sellWsteth: V3SwapRequest = { kind: 'exactIn', tokenIn: WSTETH, tokenOut: USDC, amountGivenRaw: 10n ** 6n };
    expect(revertCode(() => vaultSwap(p, sellWsteth))).toBe('TradeAmountTooSmall');
    expect(revertCode(() => vaultSwap(p, { ...sellUsdc, amountGivenRaw: 0n }))).toBe('AmountGivenZero');
  });

  test('the aggregate fee leaves the amounts alone and takes its share of the fee out of the balance in', () => {
    const lpOnly = vaultSwap(pool(weighted()), sellUsdc);
    const shared = vaultSwap(pool(weighted({ aggregateSwapFee: 5n * 10n ** 17n })), sellUsdc);
    expect(shared.amountCalculatedRaw).toBe(lpOnly.amountCalculatedRaw);
    expect(shared.swapFeeAmountRaw).toBe(lpOnly.swapFeeAmountRaw);
    expect(shared.swapFeeAmountRaw).toBeGreaterThan(0n);
    expect(shared.aggregateSwapFeeAmountRaw).toBe(shared.swapFeeAmountRaw / 2n);
    expect(lpOnly.balancesRawAfter![0]! - shared.balancesRawAfter![0]!).toBe(shared.aggregateSwapFeeAmountRaw);
  });

  test('an exact-out swap charges fee / (1 - fee) on top, an exact-in one the fee off the amount in', () => {
    const noFee = pool(weighted({ staticSwapFee: 0n }));
    const withFee = pool(weighted());
    expect(vaultSwap(withFee, buyUsdc).amountCalculatedRaw).toBeGreaterThan(
      vaultSwap(noFee, buyUsdc).amountCalculatedRaw,
    );
    expect(vaultSwap(withFee, sellUsdc).amountCalculatedRaw).toBeLessThan(
      vaultSwap(noFee, sellUsdc).amountCalculatedRaw,
    );
  });

  test("a dynamic-fee hook's fee replaces the static fee, and a fee of 100% is refused", () => {
    const dynamic = (fee: bigint): V3Hook => ({ enableHookAdjustedAmounts: false, computeDynamicSwapFee: () => fee });
    const fee = 25n * 10n ** 15n;
    for (const request of [sellUsdc, buyUsdc]) {
      expect(vaultSwap(pool(weighted(), dynamic(fee)), request).amountCalculatedRaw).toBe(
        vaultSwap(pool(weighted({ staticSwapFee: fee })), request).amountCalculatedRaw,
      );
    }
    expect(revertCode(() => vaultSwap(pool(weighted(), dynamic(E18)), sellUsdc))).toBe('PercentageAboveMax');
  });

  test('an after-swap hook changes the amount only where the pool enables hook-adjusted amounts', () => {
    const halve = (enable: boolean): V3Hook => ({
      enableHookAdjustedAmounts: enable,
      afterSwap: (p) => p.amountCalculatedRaw / 2n,
    });
    const plain = vaultSwap(pool(weighted()), sellUsdc).amountCalculatedRaw;
    expect(vaultSwap(pool(weighted(), halve(false)), sellUsdc).amountCalculatedRaw).toBe(plain);
    expect(vaultSwap(pool(weighted(), halve(true)), sellUsdc).amountCalculatedRaw).toBe(plain / 2n);
  });

  test('raw balances price as their live balances rounded down for swaps, and rounded up (fewer BPT) for adds', () => {
    const withRaw = weighted();
    const liveOnly: WeightedV3State = { ...withRaw, balancesRaw: undefined };
    for (const request of [sellUsdc, buyUsdc]) {
      expect(vaultSwap(pool(withRaw), request).amountCalculatedRaw).toBe(
        vaultSwap(pool(liveOnly), request).amountCalculatedRaw,
      );
    }
    const add = { kind: 'unbalanced' as const, maxAmountsInRaw: [0n, 10n * E18], minBptAmountOut: 0n };
    const up = vaultAddLiquidity(pool(withRaw), add).bptAmountOut;
    const down = vaultAddLiquidity(pool(liveOnly), add).bptAmountOut;
    expect(down - up).toBeGreaterThanOrEqual(0n);
    expect(down - up).toBeLessThanOrEqual(1n);
  });

  test('the yield fee comes off a yield-paying token when the Vault loads the pool, not in recovery mode', () => {
    const last = toScaled18ApplyRateRoundDown(1_000n * E18, 1n, 1_100_000_000_000_000_000n);
    const yieldFee = (pct: bigint) => ({
      aggregateYieldFee: pct,
      lastLiveBalances: [0n, last],
      paysYieldFees: [false, true],
    });
    const grown = weighted({ yieldFee: yieldFee(0n) });
    const growth = loadBalances(grown, 'down').live[1]! - last;
    expect(growth).toBeGreaterThan(0n);
    const half = loadBalances(weighted({ yieldFee: yieldFee(5n * 10n ** 17n) }), 'down').live[1]!;
    // Half the growth goes (to within the raw rounding of 1.19 scaled18 per wei).
    expect(half - (last + growth / 2n)).toBeLessThanOrEqual(2n);
    expect(half - (last + growth / 2n)).toBeGreaterThanOrEqual(-2n);
    const recovering = weighted({ yieldFee: yieldFee(5n * 10n ** 17n), inRecoveryMode: true });
    expect(loadBalances(recovering, 'down').live[1]).toBe(last + growth);
    // The swap prices on the balance net of the fee.
    expect(
      vaultSwap(pool(weighted({ yieldFee: yieldFee(5n * 10n ** 17n) })), sellUsdc).amountCalculatedRaw,
    ).toBeLessThan(vaultSwap(pool(grown), sellUsdc).amountCalculatedRaw);
  });

  test('a pool registered without unbalanced liquidity takes proportional operations only', () => {
    const p = pool(weighted({ supportsUnbalancedLiquidity: false }));
    expect(
      revertCode(() =>
        vaultAddLiquidity(p, { kind: 'unbalanced', maxAmountsInRaw: [10n ** 9n, 0n], minBptAmountOut: 0n }),
      ),
    ).toBe('DoesNotSupportUnbalancedLiquidity');
    const out = vaultRemoveLiquidity(p, { kind: 'proportional', maxBptAmountIn: E18, minAmountsOutRaw: [0n, 0n] });
    expect(out.amountsOutRaw.every((a) => a > 0n)).toBe(true);
  });

  test('a proportional add and remove of the same BPT round trip without profit', () => {
    const p = pool(weighted());
    const bpt = 1_234n * E18;
    const added = vaultAddLiquidity(p, {
      kind: 'proportional',
      maxAmountsInRaw: [2n ** 128n, 2n ** 128n],
      minBptAmountOut: bpt,
    });
    const removed = vaultRemoveLiquidity(p, { kind: 'proportional', maxBptAmountIn: bpt, minAmountsOutRaw: [0n, 0n] });
    added.amountsInRaw.forEach((a, i) => expect(a).toBeGreaterThanOrEqual(removed.amountsOutRaw[i]!));
  });

  test('a remove may not leave less than 1e6 BPT, nor an exit past the invariant ratio floor', () => {
    const p = pool(weighted({ totalSupply: 10n ** 24n }));
    expect(
      revertCode(() =>
        vaultRemoveLiquidity(p, {
          kind: 'singleTokenExactIn',
          maxBptAmountIn: 4n * 10n ** 23n,
          minAmountsOutRaw: [1n, 0n],
        }),
      ),
    ).toBe('InvariantRatioBelowMin');
    expect(
      revertCode(() =>
        vaultRemoveLiquidity(p, {
          kind: 'proportional',
          maxBptAmountIn: 10n ** 24n - 999_999n,
          minAmountsOutRaw: [0n, 0n],
        }),
      ),
    ).toBe('PoolTotalSupplyTooLow');
  });
});
