import { calculateInvariant } from '../stableMath';
import { csub, divUpRaw } from '../../../protocols/v3/fixedPointV3';
import { v3Revert } from '../../../protocols/v3/vault/errors';

/**
 * The V3 StableMath library (solidity-utils), on scaled18 balances; `amp` carries the precision
 * (A * 1000). The invariant is V2's 2022 iteration unchanged (`calculateInvariant('2022', ...)`);
 * the balance for an invariant is not: V3 multiplies by the amp precision before dividing (`c`,
 * `b` below), where V2 divides first, so the V2 function would differ by rounding.
 */

export const AMP_PRECISION = 1000n;
/** Single-token and unbalanced liquidity may move the invariant between 60% and 500%. */
export const MIN_INVARIANT_RATIO = 600_000_000_000_000_000n;
export const MAX_INVARIANT_RATIO = 5_000_000_000_000_000_000n;

/** `StableMath.computeInvariant`: Curve's Newton iteration, rounded down. */
export const computeStableInvariant = (amp: bigint, balances: readonly bigint[]): bigint =>
  calculateInvariant('2022', amp, balances, false);

/** `StableMath.computeBalance`: the balance of `tokenIndex` that keeps `invariant`, rounded up. */
export function computeStableBalance(
  amp: bigint,
  balances: readonly bigint[],
  invariant: bigint,
  tokenIndex: number,
): bigint {
  const n = BigInt(balances.length);
  const ampTimesTotal = amp * n;
  let sum = balances[0]!;
  let pD = balances[0]! * n;
  for (let j = 1; j < balances.length; j++) {
    pD = (pD * balances[j]! * n) / invariant;
    sum += balances[j]!;
  }
  sum = csub(sum, balances[tokenIndex]!);
  const inv2 = invariant * invariant;
  const c = divUpRaw(inv2 * AMP_PRECISION, ampTimesTotal * pD) * balances[tokenIndex]!;
  const b = sum + (invariant * AMP_PRECISION) / ampTimesTotal;
  let balance = divUpRaw(inv2 + c, invariant + b);
  for (let i = 0; i < 255; i++) {
    const prev = balance;
    balance = divUpRaw(balance * balance + c, csub(balance * 2n + b, invariant));
    if (balance > prev ? balance - prev <= 1n : prev - balance <= 1n) return balance;
  }
  throw v3Revert('StableComputeBalanceDidNotConverge', 'stable balance did not converge');
}

/** Amount out for `amountIn` (fee already taken), at `invariant`; one wei less, for the pool. */
export function computeOutGivenExactIn(
  amp: bigint,
  balances: readonly bigint[],
  indexIn: number,
  indexOut: number,
  amountIn: bigint,
  invariant: bigint,
): bigint {
  const after = [...balances];
  after[indexIn] = after[indexIn]! + amountIn;
  const finalOut = computeStableBalance(amp, after, invariant, indexOut);
  return csub(csub(balances[indexOut]!, finalOut), 1n);
}

/** Amount in (before the fee) for `amountOut`, at `invariant`; one wei more, for the pool. */
export function computeInGivenExactOut(
  amp: bigint,
  balances: readonly bigint[],
  indexIn: number,
  indexOut: number,
  amountOut: bigint,
  invariant: bigint,
): bigint {
  const after = [...balances];
  after[indexOut] = csub(after[indexOut]!, amountOut);
  const finalIn = computeStableBalance(amp, after, invariant, indexIn);
  return csub(finalIn, balances[indexIn]!) + 1n;
}
