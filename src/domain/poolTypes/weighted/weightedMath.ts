import { complement, divDown, divUp, mulDown, mulUp, ONE, powDown, powUp, sub } from '../../swap/math/fixedPoint';
import { Revert } from '../../swap/math/revert';

/**
 * WeightedMath's joins and exits (exact tokens in for BPT out, exact BPT in for one token out), in
 * the rounding of each deployed generation. Balances and amounts are upscaled (18 decimals).
 *
 * - 'v1': weighted pools of 2021 (WeightedPool, WeightedPool2Tokens) and liquidity bootstrapping
 *   pools: the fee is the taxable amount times (1 - fee) rounded down; every token takes part in
 *   the join's invariant ratio, a zero amount included (its powDown(1, w) carries pow's error bound).
 * - 'investment': the 2021 InvestmentPool: the fee is taxable * fee rounded up and subtracted.
 * - 'v2': weighted pools from September 2022 on (v2, v3, v4): the investment pool's join, an exit
 *   that rounds the fee-free part up (taxable * (1 - fee)), and pow shortcuts for exponents 1, 2
 *   and 4. The v3 sources skip a zero-amount token in the join (no powDown(1, w) factor), but the
 *   deployed v3 build (deployment task 20230206-weighted-pool-v3) answers with the factor, as v2
 *   does; the devnet suite checks this against that build.
 */
export type WeightedGeneration = 'v1' | 'investment' | 'v2';

/** An exit may not take the invariant below 70% (BAL#306). */
export const MIN_INVARIANT_RATIO = 7n * 10n ** 17n;

const usesShortcuts = (g: WeightedGeneration): boolean => g === 'v2';

/** _calcBptOutGivenExactTokensIn over all the pool's tokens. */
export function bptOutGivenExactTokensIn(
  g: WeightedGeneration,
  balances: readonly bigint[],
  weights: readonly bigint[],
  amountsIn: readonly bigint[],
  supply: bigint,
  fee: bigint,
): bigint {
  const ratiosWithFee = balances.map((b, k) => divDown(b + amountsIn[k]!, b));
  let invariantRatioWithFees = 0n;
  for (let k = 0; k < balances.length; k++) invariantRatioWithFees += mulDown(ratiosWithFee[k]!, weights[k]!);
  let invariantRatio = ONE;
  for (let k = 0; k < balances.length; k++) {
    const amountIn = amountsIn[k]!;
    let amountInWithoutFee = amountIn;
    if (ratiosWithFee[k]! > invariantRatioWithFees) {
      // Only the part beyond a proportional join is a swap and pays the fee.
      const nonTaxable = mulDown(balances[k]!, sub(invariantRatioWithFees, ONE));
      const taxable = sub(amountIn, nonTaxable);
      amountInWithoutFee =
        g === 'v1' ? nonTaxable + mulDown(taxable, sub(ONE, fee)) : nonTaxable + sub(taxable, mulUp(taxable, fee));
    }
    const balanceRatio = divDown(balances[k]! + amountInWithoutFee, balances[k]!);
    invariantRatio = mulDown(invariantRatio, powDown(balanceRatio, weights[k]!, usesShortcuts(g)));
  }
  return invariantRatio > ONE ? mulDown(supply, invariantRatio - ONE) : 0n;
}

/** _calcTokenOutGivenExactBptIn. Throws `Revert` past the 70% invariant bound. */
export function tokenOutGivenExactBptIn(
  g: WeightedGeneration,
  balance: bigint,
  weight: bigint,
  bptIn: bigint,
  supply: bigint,
  fee: bigint,
): bigint {
  const invariantRatio = divUp(sub(supply, bptIn), supply);
  if (invariantRatio < MIN_INVARIANT_RATIO) throw new Revert('exit takes the invariant below 70% (BAL#306)');
  const balanceRatio = powUp(invariantRatio, divDown(ONE, weight), usesShortcuts(g));
  const amountOutWithoutFee = mulDown(balance, complement(balanceRatio));
  // Only the part beyond a proportional exit is a swap and pays the fee.
  const taxable = mulUp(amountOutWithoutFee, complement(weight));
  const nonTaxable = sub(amountOutWithoutFee, taxable);
  if (g === 'v1') return nonTaxable + mulDown(taxable, complement(fee));
  if (g === 'investment') return nonTaxable + sub(taxable, mulUp(taxable, fee));
  return nonTaxable + mulUp(taxable, complement(fee));
}
