import type { AddLiquidityKind } from '../hooks/hook';
import { chargeAggregateSwapFee } from './aggregateFees';
import { balancesAfter } from './balancesAfter';
import {
  computeAddLiquiditySingleTokenExactOut,
  computeAddLiquidityUnbalanced,
  computeProportionalAmountsIn,
} from './basePoolMath';
import { v3Revert } from './errors';
import { DEPLOYED_VAULT_LIMITS, ensureValidTradeAmount, type V3VaultLimits } from './limits';
import { ensureOneAmountPerToken, ensureUnbalancedLiquidity, singleInputIndex } from './liquidityInputs';
import { loadBalances } from './poolData';
import { toRawUndoRateRoundUp, toScaled18ApplyRateRoundDown } from './scaling';
import { ensureQuotable } from './quotable';
import type { V3Pool } from './v3Pool';

export interface V3AddLiquidityRequest {
  /**
   * 'proportional': exact BPT out, every token in proportion; 'unbalanced': exact amounts in;
   * 'singleTokenExactOut': exact BPT out for the one token whose max amount in is not zero.
   */
  readonly kind: AddLiquidityKind;
  /** Raw; the exact amounts for 'unbalanced', limits otherwise. */
  readonly maxAmountsInRaw: readonly bigint[];
  /** Exact BPT out for 'proportional' and 'singleTokenExactOut', a limit for 'unbalanced'. */
  readonly minBptAmountOut: bigint;
}

export interface V3AddLiquidityResult {
  readonly amountsInRaw: readonly bigint[];
  readonly bptAmountOut: bigint;
  /** Swap fee charged per token, raw (the `LiquidityAdded` event's `swapFeeAmountsRaw`). */
  readonly swapFeeAmountsRaw: readonly bigint[];
  readonly balancesLiveScaled18After: readonly bigint[];
  readonly balancesRawAfter: readonly bigint[] | undefined;
  readonly totalSupplyAfter: bigint;
}

/**
 * `Vault.addLiquidity` (what `queryAddLiquidity*` answers): balances loaded rounded up (higher
 * balances mean fewer BPT), max amounts scaled rounded down, BasePoolMath with the static fee,
 * amounts the pool computed back to raw rounded up, every non-zero amount and the BPT at least
 * the minimum trade amount, the fee's aggregate share out of the pool.
 */
export function vaultAddLiquidity(
  pool: V3Pool,
  request: V3AddLiquidityRequest,
  limits: V3VaultLimits = DEPLOYED_VAULT_LIMITS,
): V3AddLiquidityResult {
  const { state, math, hook } = pool;
  ensureQuotable(state);
  ensureOneAmountPerToken(state, request.maxAmountsInRaw);
  const factors = state.scalingFactors;
  const rates = state.tokenRates;
  let loaded = loadBalances(state, 'up');
  const maxAmountsInScaled18 = request.maxAmountsInRaw.map((a, i) =>
    toScaled18ApplyRateRoundDown(a, factors[i]!, rates[i]!),
  );
  if (hook?.beforeAddLiquidity !== undefined) {
    const moved = hook.beforeAddLiquidity(
      {
        kind: request.kind,
        amountsScaled18: maxAmountsInScaled18,
        bptAmount: request.minBptAmountOut,
        balancesScaled18: loaded.live,
      },
      state,
    );
    if (moved !== undefined) loaded = { live: moved, raw: undefined };
  }

  const balances = loaded.live;
  const supply = state.totalSupply;
  // Raw amounts the caller fixed (unbalanced) are kept as given; the rest are computed from scaled18.
  const givenRaw = state.tokens.map(() => 0n);
  let amountsInScaled18: bigint[];
  let bptAmountOut: bigint;
  let swapFees: readonly bigint[];
  switch (request.kind) {
    case 'proportional':
      bptAmountOut = request.minBptAmountOut;
      amountsInScaled18 = computeProportionalAmountsIn(balances, supply, bptAmountOut);
      swapFees = balances.map(() => 0n);
      break;
    case 'unbalanced': {
      ensureUnbalancedLiquidity(state);
      amountsInScaled18 = maxAmountsInScaled18;
      request.maxAmountsInRaw.forEach((a, i) => (givenRaw[i] = a));
      const r = computeAddLiquidityUnbalanced(balances, maxAmountsInScaled18, supply, state.staticSwapFee, math);
      bptAmountOut = r.amount;
      swapFees = r.swapFeeAmountsScaled18;
      break;
    }
    case 'singleTokenExactOut': {
      ensureUnbalancedLiquidity(state);
      bptAmountOut = request.minBptAmountOut;
      const index = singleInputIndex(maxAmountsInScaled18);
      const r = computeAddLiquiditySingleTokenExactOut(
        balances,
        index,
        bptAmountOut,
        supply,
        state.staticSwapFee,
        math,
      );
      amountsInScaled18 = [...maxAmountsInScaled18];
      amountsInScaled18[index] = r.amount;
      swapFees = r.swapFeeAmountsScaled18;
      break;
    }
  }
  if (bptAmountOut < request.minBptAmountOut) {
    throw v3Revert('BptAmountOutBelowMin', `BPT out ${bptAmountOut} below the minimum ${request.minBptAmountOut}`);
  }
  ensureValidTradeAmount(bptAmountOut, limits);

  const amountsInRaw: bigint[] = [];
  const swapFeeAmountsRaw: bigint[] = [];
  const deltas: bigint[] = [];
  for (let i = 0; i < state.tokens.length; i++) {
    ensureValidTradeAmount(amountsInScaled18[i]!, limits);
    const amountInRaw =
      givenRaw[i] !== 0n ? givenRaw[i]! : toRawUndoRateRoundUp(amountsInScaled18[i]!, factors[i]!, rates[i]!);
    if (amountInRaw > request.maxAmountsInRaw[i]!) {
      throw v3Revert('AmountInAboveMax', `token ${i} amount in ${amountInRaw} above ${request.maxAmountsInRaw[i]}`);
    }
    const fee = chargeAggregateSwapFee(state, swapFees[i]!, i);
    amountsInRaw.push(amountInRaw);
    swapFeeAmountsRaw.push(fee.totalRaw);
    deltas.push(amountInRaw - fee.aggregateRaw);
  }
  // The Vault writes balances back from raw rounded down, whatever the load's rounding.
  const after = balancesAfter(state, loaded, deltas);

  let finalAmountsInRaw: readonly bigint[] = amountsInRaw;
  if (hook?.afterAddLiquidity !== undefined) {
    const adjusted = hook.afterAddLiquidity(
      { kind: request.kind, amountsInScaled18, amountsInRaw, bptAmountOut, balancesScaled18: after.live },
      state,
    );
    if (adjusted.length !== amountsInRaw.length) throw v3Revert('AfterAddLiquidityHookFailed', 'hook answer length');
    if (hook.enableHookAdjustedAmounts) {
      adjusted.forEach((a, i) => {
        if (a > request.maxAmountsInRaw[i]!) {
          throw v3Revert(
            'HookAdjustedAmountInAboveMax',
            `token ${i} amount in ${a} above ${request.maxAmountsInRaw[i]}`,
          );
        }
      });
      finalAmountsInRaw = adjusted;
    }
  }

  return {
    amountsInRaw: finalAmountsInRaw,
    bptAmountOut,
    swapFeeAmountsRaw,
    balancesLiveScaled18After: after.live,
    balancesRawAfter: after.raw,
    totalSupplyAfter: supply + bptAmountOut,
  };
}
