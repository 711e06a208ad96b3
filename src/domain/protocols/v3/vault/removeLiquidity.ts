import type { RemoveLiquidityKind } from '../hooks/hook';
import { chargeAggregateSwapFee } from './aggregateFees';
import { balancesAfter } from './balancesAfter';
import {
  computeProportionalAmountsOut,
  computeRemoveLiquiditySingleTokenExactIn,
  computeRemoveLiquiditySingleTokenExactOut,
} from './basePoolMath';
import { v3Revert } from './errors';
import { DEPLOYED_VAULT_LIMITS, ensureValidTradeAmount, type V3VaultLimits } from './limits';
import {
  ensureOneAmountPerToken,
  ensureUnbalancedLiquidity,
  POOL_MINIMUM_TOTAL_SUPPLY,
  singleInputIndex,
} from './liquidityInputs';
import { loadBalances } from './poolData';
import { toRawUndoRateRoundDown, toScaled18ApplyRateRoundUp } from './scaling';
import { ensureQuotable } from './quotable';
import type { V3Pool } from './v3Pool';

export interface V3RemoveLiquidityRequest {
  /**
   * 'proportional': exact BPT in, every token in proportion; 'singleTokenExactIn': exact BPT in
   * for the one token whose min amount out is not zero; 'singleTokenExactOut': that token's min
   * amount out is the exact amount out.
   */
  readonly kind: RemoveLiquidityKind;
  /** Exact BPT in for 'proportional' and 'singleTokenExactIn', a limit for 'singleTokenExactOut'. */
  readonly maxBptAmountIn: bigint;
  /** Raw limits; for 'singleTokenExactOut' the one non-zero entry is the exact amount out. */
  readonly minAmountsOutRaw: readonly bigint[];
}

export interface V3RemoveLiquidityResult {
  readonly bptAmountIn: bigint;
  readonly amountsOutRaw: readonly bigint[];
  /** Swap fee charged per token, raw (the `LiquidityRemoved` event's `swapFeeAmountsRaw`). */
  readonly swapFeeAmountsRaw: readonly bigint[];
  readonly balancesLiveScaled18After: readonly bigint[];
  readonly balancesRawAfter: readonly bigint[] | undefined;
  readonly totalSupplyAfter: bigint;
}

/**
 * `Vault.removeLiquidity` (what `queryRemoveLiquidity*` answers): balances loaded rounded down,
 * min amounts scaled rounded up, BasePoolMath with the static fee, amounts out back to raw rounded
 * down, the fee's aggregate share out of the pool, the BPT supply left at least 1e6.
 *
 * Not modelled: the round-trip fee a proportional remove pays when the same transaction added
 * liquidity to the pool first (a quote is one operation).
 */
export function vaultRemoveLiquidity(
  pool: V3Pool,
  request: V3RemoveLiquidityRequest,
  limits: V3VaultLimits = DEPLOYED_VAULT_LIMITS,
): V3RemoveLiquidityResult {
  const { state, math, hook } = pool;
  ensureQuotable(state);
  ensureOneAmountPerToken(state, request.minAmountsOutRaw);
  const factors = state.scalingFactors;
  const rates = state.tokenRates;
  let loaded = loadBalances(state, 'down');
  const minAmountsOutScaled18 = request.minAmountsOutRaw.map((a, i) =>
    toScaled18ApplyRateRoundUp(a, factors[i]!, rates[i]!),
  );
  if (hook?.beforeRemoveLiquidity !== undefined) {
    const moved = hook.beforeRemoveLiquidity(
      {
        kind: request.kind,
        amountsScaled18: minAmountsOutScaled18,
        bptAmount: request.maxBptAmountIn,
        balancesScaled18: loaded.live,
      },
      state,
    );
    if (moved !== undefined) loaded = { live: moved, raw: undefined };
  }

  const balances = loaded.live;
  const supply = state.totalSupply;
  // The exact amount out a caller fixed is kept raw; the rest are computed from scaled18.
  const givenRaw = state.tokens.map(() => 0n);
  let amountsOutScaled18: bigint[];
  let bptAmountIn: bigint;
  let swapFees: readonly bigint[];
  switch (request.kind) {
    case 'proportional':
      bptAmountIn = request.maxBptAmountIn;
      amountsOutScaled18 = computeProportionalAmountsOut(balances, supply, bptAmountIn);
      swapFees = balances.map(() => 0n);
      break;
    case 'singleTokenExactIn': {
      ensureUnbalancedLiquidity(state);
      bptAmountIn = request.maxBptAmountIn;
      const index = singleInputIndex(request.minAmountsOutRaw);
      const r = computeRemoveLiquiditySingleTokenExactIn(
        balances,
        index,
        bptAmountIn,
        supply,
        state.staticSwapFee,
        math,
      );
      amountsOutScaled18 = [...minAmountsOutScaled18];
      amountsOutScaled18[index] = r.amount;
      swapFees = r.swapFeeAmountsScaled18;
      break;
    }
    case 'singleTokenExactOut': {
      ensureUnbalancedLiquidity(state);
      const index = singleInputIndex(request.minAmountsOutRaw);
      amountsOutScaled18 = [...minAmountsOutScaled18];
      givenRaw[index] = request.minAmountsOutRaw[index]!;
      const r = computeRemoveLiquiditySingleTokenExactOut(
        balances,
        index,
        amountsOutScaled18[index]!,
        supply,
        state.staticSwapFee,
        math,
      );
      bptAmountIn = r.amount;
      swapFees = r.swapFeeAmountsScaled18;
      break;
    }
  }
  if (bptAmountIn > request.maxBptAmountIn) {
    throw v3Revert('BptAmountInAboveMax', `BPT in ${bptAmountIn} above the maximum ${request.maxBptAmountIn}`);
  }
  ensureValidTradeAmount(bptAmountIn, limits);

  const amountsOutRaw: bigint[] = [];
  const swapFeeAmountsRaw: bigint[] = [];
  const deltas: bigint[] = [];
  for (let i = 0; i < state.tokens.length; i++) {
    ensureValidTradeAmount(amountsOutScaled18[i]!, limits);
    const amountOutRaw =
      givenRaw[i] !== 0n ? givenRaw[i]! : toRawUndoRateRoundDown(amountsOutScaled18[i]!, factors[i]!, rates[i]!);
    if (amountOutRaw < request.minAmountsOutRaw[i]!) {
      throw v3Revert('AmountOutBelowMin', `token ${i} amount out ${amountOutRaw} below ${request.minAmountsOutRaw[i]}`);
    }
    const fee = chargeAggregateSwapFee(state, swapFees[i]!, i);
    amountsOutRaw.push(amountOutRaw);
    swapFeeAmountsRaw.push(fee.totalRaw);
    deltas.push(-(amountOutRaw + fee.aggregateRaw));
  }
  const after = balancesAfter(state, loaded, deltas);
  const totalSupplyAfter = supply - bptAmountIn;
  if (totalSupplyAfter < POOL_MINIMUM_TOTAL_SUPPLY) {
    throw v3Revert('PoolTotalSupplyTooLow', `BPT supply would fall to ${totalSupplyAfter}`);
  }

  let finalAmountsOutRaw: readonly bigint[] = amountsOutRaw;
  if (hook?.afterRemoveLiquidity !== undefined) {
    const adjusted = hook.afterRemoveLiquidity(
      { kind: request.kind, bptAmountIn, amountsOutScaled18, amountsOutRaw, balancesScaled18: after.live },
      state,
    );
    if (adjusted.length !== amountsOutRaw.length) {
      throw v3Revert('AfterRemoveLiquidityHookFailed', 'hook answer length');
    }
    if (hook.enableHookAdjustedAmounts) {
      adjusted.forEach((a, i) => {
        if (a < request.minAmountsOutRaw[i]!) {
          throw v3Revert(
            'HookAdjustedAmountOutBelowMin',
            `token ${i} amount out ${a} below ${request.minAmountsOutRaw[i]}`,
          );
        }
      });
      finalAmountsOutRaw = adjusted;
    }
  }

  return {
    bptAmountIn,
    amountsOutRaw: finalAmountsOutRaw,
    swapFeeAmountsRaw,
    balancesLiveScaled18After: after.live,
    balancesRawAfter: after.raw,
    totalSupplyAfter,
  };
}
