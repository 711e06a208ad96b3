import { complement, mulUp } from '../../../swap/math/fixedPoint';
import { MAX_FEE_PERCENTAGE, mulDivUp } from '../fixedPointV3';
import type { PoolSwapParams, V3SwapKind } from '../poolMath';
import { chargeAggregateSwapFee } from './aggregateFees';
import { balancesAfter } from './balancesAfter';
import { v3Revert } from './errors';
import { DEPLOYED_VAULT_LIMITS, ensureValidSwapAmount, type V3VaultLimits } from './limits';
import { loadBalances } from './poolData';
import {
  computeRateRoundUp,
  toRawUndoRateRoundDown,
  toRawUndoRateRoundUp,
  toScaled18ApplyRateRoundDown,
  toScaled18ApplyRateRoundUp,
} from './scaling';
import { ensureQuotable } from './quotable';
import { tokenIndex } from './tokens';
import type { V3Pool } from './v3Pool';

export interface V3SwapRequest {
  readonly kind: V3SwapKind;
  readonly tokenIn: string;
  readonly tokenOut: string;
  /** Amount in (exact in) or out (exact out), in the token's raw units. */
  readonly amountGivenRaw: bigint;
}

export interface V3SwapResult {
  /** Amount out (exact in) or in (exact out), raw: what the Vault's swap and its query return. */
  readonly amountCalculatedRaw: bigint;
  readonly amountInRaw: bigint;
  readonly amountOutRaw: bigint;
  /** The swap fee percentage applied (the static one, or the hook's). */
  readonly swapFeePercentage: bigint;
  /** The whole swap fee in token-in raw units (the `Swap` event's `swapFeeAmount`). */
  readonly swapFeeAmountRaw: bigint;
  /** Its protocol and creator share, which leaves the pool's balance. */
  readonly aggregateSwapFeeAmountRaw: bigint;
  /** The pool's live balances after the swap (and raw ones where the state has them). */
  readonly balancesLiveScaled18After: readonly bigint[];
  readonly balancesRawAfter: readonly bigint[] | undefined;
}

/**
 * `Vault.swap` on one pool, as the Vault computes it (and `querySwapSingleToken*` answers):
 * balances loaded rounded down; the amount given scaled with rounding against the user (exact in
 * rounds down with the rate; exact out rounds up with the rate rounded up); the static or
 * hook-computed fee, taken off the amount in before the pool prices an exact-in swap and added as
 * `amount * fee / (1 - fee)` after it prices an exact-out one; both amounts the pool sees at least
 * the minimum trade amount; the amount calculated back to raw rounding against the user; the
 * aggregate share of the fee out of the pool's balance; an after-swap hook's adjustment where the
 * pool enables it.
 */
export function vaultSwap(
  pool: V3Pool,
  request: V3SwapRequest,
  limits: V3VaultLimits = DEPLOYED_VAULT_LIMITS,
): V3SwapResult {
  const { state, math, hook } = pool;
  ensureQuotable(state);
  if (request.amountGivenRaw === 0n) throw v3Revert('AmountGivenZero', 'swap of zero');
  const indexIn = tokenIndex(state, request.tokenIn);
  const indexOut = tokenIndex(state, request.tokenOut);
  if (indexIn === indexOut) throw v3Revert('CannotSwapSameToken', 'token in and out are the same');
  const { kind } = request;
  const factors = state.scalingFactors;
  const rates = state.tokenRates;

  let loaded = loadBalances(state, 'down');
  const amountGivenScaled18 =
    kind === 'exactIn'
      ? toScaled18ApplyRateRoundDown(request.amountGivenRaw, factors[indexIn]!, rates[indexIn]!)
      : toScaled18ApplyRateRoundUp(request.amountGivenRaw, factors[indexOut]!, computeRateRoundUp(rates[indexOut]!));
  let params: PoolSwapParams = { kind, amountGivenScaled18, balancesScaled18: loaded.live, indexIn, indexOut };

  if (hook?.beforeSwap !== undefined) {
    const moved = hook.beforeSwap(params, state);
    if (moved !== undefined) {
      // The hook changed the pool's balances through the Vault; its raw ones are not known here.
      loaded = { live: moved, raw: undefined };
      params = { ...params, balancesScaled18: moved };
    }
  }

  let swapFeePercentage = state.staticSwapFee;
  if (hook?.computeDynamicSwapFee !== undefined) {
    swapFeePercentage = hook.computeDynamicSwapFee(params, state, state.staticSwapFee);
    if (swapFeePercentage > MAX_FEE_PERCENTAGE) {
      throw v3Revert('PercentageAboveMax', `dynamic swap fee ${swapFeePercentage} above 99.9999%`);
    }
  }

  let totalSwapFeeScaled18 = 0n;
  let amountCalculatedScaled18: bigint;
  let amountCalculatedRaw: bigint;
  if (kind === 'exactIn') {
    totalSwapFeeScaled18 = mulUp(amountGivenScaled18, swapFeePercentage);
    const amountInNet = amountGivenScaled18 - totalSwapFeeScaled18;
    ensureValidSwapAmount(amountInNet, limits);
    amountCalculatedScaled18 = math.onSwap({ ...params, amountGivenScaled18: amountInNet });
    ensureValidSwapAmount(amountCalculatedScaled18, limits);
    amountCalculatedRaw = toRawUndoRateRoundDown(
      amountCalculatedScaled18,
      factors[indexOut]!,
      computeRateRoundUp(rates[indexOut]!),
    );
  } else {
    ensureValidSwapAmount(amountGivenScaled18, limits);
    const amountInBeforeFee = math.onSwap(params);
    ensureValidSwapAmount(amountInBeforeFee, limits);
    totalSwapFeeScaled18 = mulDivUp(amountInBeforeFee, swapFeePercentage, complement(swapFeePercentage));
    amountCalculatedScaled18 = amountInBeforeFee + totalSwapFeeScaled18;
    amountCalculatedRaw = toRawUndoRateRoundUp(amountCalculatedScaled18, factors[indexIn]!, rates[indexIn]!);
  }
  const [amountInRaw, amountOutRaw] =
    kind === 'exactIn' ? [request.amountGivenRaw, amountCalculatedRaw] : [amountCalculatedRaw, request.amountGivenRaw];

  const fee = chargeAggregateSwapFee(state, totalSwapFeeScaled18, indexIn);
  const deltas = state.tokens.map(() => 0n);
  deltas[indexIn] = amountInRaw - fee.aggregateRaw;
  deltas[indexOut] = -amountOutRaw;
  const after = balancesAfter(state, loaded, deltas);

  if (hook?.afterSwap !== undefined) {
    const adjusted = hook.afterSwap(
      {
        kind,
        indexIn,
        indexOut,
        amountInScaled18: kind === 'exactIn' ? amountGivenScaled18 : amountCalculatedScaled18,
        amountOutScaled18: kind === 'exactIn' ? amountCalculatedScaled18 : amountGivenScaled18,
        tokenInBalanceScaled18: after.live[indexIn]!,
        tokenOutBalanceScaled18: after.live[indexOut]!,
        amountCalculatedScaled18,
        amountCalculatedRaw,
      },
      state,
    );
    if (hook.enableHookAdjustedAmounts) amountCalculatedRaw = adjusted;
  }

  return {
    amountCalculatedRaw,
    amountInRaw: kind === 'exactIn' ? amountInRaw : amountCalculatedRaw,
    amountOutRaw: kind === 'exactIn' ? amountCalculatedRaw : amountOutRaw,
    swapFeePercentage,
    swapFeeAmountRaw: fee.totalRaw,
    aggregateSwapFeeAmountRaw: fee.aggregateRaw,
    balancesLiveScaled18After: after.live,
    balancesRawAfter: after.raw,
  };
}
