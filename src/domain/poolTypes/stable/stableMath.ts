import { complement, divDown as fpDivDown, divUp as fpDivUp, mulDown, mulUp, ONE } from '../../swap/math/fixedPoint';
import { Revert } from '../../swap/math/revert';

/**
 * Balancer's StableMath in bigint, on upscaled (18-decimal) balances and amounts, every check the
 * contract makes (checked multiplication, subtraction underflow, division by zero, convergence)
 * throwing `Revert` where the contract reverts. Pure.
 *
 * Two generations are deployed:
 * - '2021' (Stable v1 of 2021-06, MetaStable, StablePhantom): the invariant's Newton step tracks
 *   P_D = n^n * prod(balances) / D^(n-1) and rounds it, and the step, up or down on request; every
 *   "current" invariant is rounded up, the "new" invariant of a join or exit down.
 * - '2022' (Stable v2 of 2022-06, every ComposableStable): Curve's iteration, always rounding down,
 *   and with every multiplication checked.
 * The rest (token balance from the invariant, swap and join/exit formulas) is shared.
 *
 * Amplification `amp` carries the contract's precision: A * 1000 (the value the pools store).
 */
export type StableGeneration = '2021' | '2022';

export const AMP_PRECISION = 1000n;
const MAX_UINT256 = 2n ** 256n - 1n;

function mul(a: bigint, b: bigint): bigint {
  const c = a * b;
  if (c > MAX_UINT256) throw new Revert('multiplication overflow (BAL#003)');
  return c;
}

function add(a: bigint, b: bigint): bigint {
  const c = a + b;
  if (c > MAX_UINT256) throw new Revert('addition overflow (BAL#000)');
  return c;
}

function sub(a: bigint, b: bigint): bigint {
  if (b > a) throw new Revert('subtraction underflow (BAL#001)');
  return a - b;
}

function divDown(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  return a / b;
}

function divUp(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  return a === 0n ? 0n : 1n + (a - 1n) / b;
}

const div = (a: bigint, b: bigint, roundUp: boolean): bigint => (roundUp ? divUp(a, b) : divDown(a, b));

function sumOf(balances: readonly bigint[]): bigint {
  let sum = 0n;
  for (const b of balances) sum = add(sum, b);
  return sum;
}

/**
 * The invariant D of `balances` at amplification `amp`. `roundUp` only matters for the 2021
 * generation (the 2022 one always rounds down).
 */
export function calculateInvariant(
  generation: StableGeneration,
  amp: bigint,
  balances: readonly bigint[],
  roundUp: boolean,
): bigint {
  const sum = sumOf(balances);
  if (sum === 0n) return 0n;
  const n = BigInt(balances.length);
  const ampTimesTotal = amp * n;
  let invariant = sum;
  for (let i = 0; i < 255; i++) {
    const prev = invariant;
    if (generation === '2021') {
      let pD = balances[0]! * n;
      for (let j = 1; j < balances.length; j++) pD = div(mul(mul(pD, balances[j]!), n), invariant, roundUp);
      invariant = div(
        add(mul(mul(n, invariant), invariant), div(mul(mul(ampTimesTotal, sum), pD), AMP_PRECISION, roundUp)),
        add(mul(n + 1n, invariant), div(mul(ampTimesTotal - AMP_PRECISION, pD), AMP_PRECISION, !roundUp)),
        roundUp,
      );
    } else {
      let dP = invariant;
      for (const b of balances) dP = divDown(mul(dP, invariant), mul(b, n));
      invariant = divDown(
        mul(add(divDown(mul(ampTimesTotal, sum), AMP_PRECISION), mul(dP, n)), invariant),
        add(divDown(mul(ampTimesTotal - AMP_PRECISION, invariant), AMP_PRECISION), mul(n + 1n, dP)),
      );
    }
    if (invariant > prev ? invariant - prev <= 1n : prev - invariant <= 1n) return invariant;
  }
  throw new Revert('stable invariant did not converge (BAL#321)');
}

/** The balance of token `index` that keeps `invariant` given all other balances (rounded up). */
export function tokenBalanceGivenInvariant(
  amp: bigint,
  balances: readonly bigint[],
  invariant: bigint,
  index: number,
): bigint {
  const n = BigInt(balances.length);
  const ampTimesTotal = amp * n;
  let sum = balances[0]!;
  let pD = balances[0]! * n;
  for (let j = 1; j < balances.length; j++) {
    pD = divDown(mul(mul(pD, balances[j]!), n), invariant);
    sum = add(sum, balances[j]!);
  }
  sum -= balances[index]!;
  const inv2 = mul(invariant, invariant);
  const c = mul(mul(divUp(inv2, mul(ampTimesTotal, pD)), AMP_PRECISION), balances[index]!);
  const b = add(sum, mul(divDown(invariant, ampTimesTotal), AMP_PRECISION));
  let balance = divUp(add(inv2, c), add(invariant, b));
  for (let i = 0; i < 255; i++) {
    const prev = balance;
    balance = divUp(add(mul(balance, balance), c), sub(add(mul(balance, 2n), b), invariant));
    if (balance > prev ? balance - prev <= 1n : prev - balance <= 1n) return balance;
  }
  throw new Revert('stable balance did not converge (BAL#322)');
}

/** Amount of token `j` out for `amountIn` of token `i` (fee already taken), at `invariant`. */
export function outGivenIn(
  amp: bigint,
  balances: readonly bigint[],
  i: number,
  j: number,
  amountIn: bigint,
  invariant: bigint,
): bigint {
  const after = [...balances];
  after[i] = add(after[i]!, amountIn);
  const finalOut = tokenBalanceGivenInvariant(amp, after, invariant, j);
  return sub(sub(balances[j]!, finalOut), 1n);
}

/** Amount of token `i` in (before the fee) for `amountOut` of token `j`, at `invariant`. */
export function inGivenOut(
  amp: bigint,
  balances: readonly bigint[],
  i: number,
  j: number,
  amountOut: bigint,
  invariant: bigint,
): bigint {
  const after = [...balances];
  after[j] = sub(after[j]!, amountOut);
  const finalIn = tokenBalanceGivenInvariant(amp, after, invariant, i);
  return add(sub(finalIn, balances[i]!), 1n);
}

/**
 * BPT minted for `amountsIn`, the part of each amount beyond the proportional join paying the
 * swap fee. `currentInvariant` is the invariant of `balances` as the pool computes it (rounded up
 * in the 2021 generation).
 */
export function bptOutGivenExactTokensIn(
  generation: StableGeneration,
  amp: bigint,
  balances: readonly bigint[],
  amountsIn: readonly bigint[],
  supply: bigint,
  currentInvariant: bigint,
  fee: bigint,
): bigint {
  const sum = sumOf(balances);
  const ratios: bigint[] = [];
  let invariantRatioWithFees = 0n;
  for (let k = 0; k < balances.length; k++) {
    const weight = fpDivDown(balances[k]!, sum);
    ratios.push(fpDivDown(add(balances[k]!, amountsIn[k]!), balances[k]!));
    invariantRatioWithFees = add(invariantRatioWithFees, mulDown(ratios[k]!, weight));
  }
  const newBalances = balances.map((b, k) => {
    let amountInWithoutFee = amountsIn[k]!;
    if (ratios[k]! > invariantRatioWithFees) {
      const nonTaxable = mulDown(b, sub(invariantRatioWithFees, ONE));
      const taxable = sub(amountsIn[k]!, nonTaxable);
      amountInWithoutFee = add(nonTaxable, mulDown(taxable, ONE - fee));
    }
    return add(b, amountInWithoutFee);
  });
  const newInvariant = calculateInvariant(generation, amp, newBalances, false);
  const invariantRatio = fpDivDown(newInvariant, currentInvariant);
  return invariantRatio > ONE ? mulDown(supply, invariantRatio - ONE) : 0n;
}

/** Token `i` needed to mint exactly `bptOut`, fee included. */
export function tokenInGivenExactBptOut(
  amp: bigint,
  balances: readonly bigint[],
  i: number,
  bptOut: bigint,
  supply: bigint,
  currentInvariant: bigint,
  fee: bigint,
): bigint {
  const newInvariant = mulUp(fpDivUp(add(supply, bptOut), supply), currentInvariant);
  const newBalance = tokenBalanceGivenInvariant(amp, balances, newInvariant, i);
  const amountInWithoutFee = sub(newBalance, balances[i]!);
  const weight = fpDivDown(balances[i]!, sumOf(balances));
  const taxable = mulUp(amountInWithoutFee, complement(weight));
  const nonTaxable = sub(amountInWithoutFee, taxable);
  return add(nonTaxable, fpDivUp(taxable, ONE - fee));
}

/** BPT burned for exactly `amountsOut`, the non-proportional part paying the swap fee. */
export function bptInGivenExactTokensOut(
  generation: StableGeneration,
  amp: bigint,
  balances: readonly bigint[],
  amountsOut: readonly bigint[],
  supply: bigint,
  currentInvariant: bigint,
  fee: bigint,
): bigint {
  const sum = sumOf(balances);
  const ratios: bigint[] = [];
  let invariantRatioWithoutFees = 0n;
  for (let k = 0; k < balances.length; k++) {
    const weight = fpDivUp(balances[k]!, sum);
    ratios.push(fpDivUp(sub(balances[k]!, amountsOut[k]!), balances[k]!));
    invariantRatioWithoutFees = add(invariantRatioWithoutFees, mulUp(ratios[k]!, weight));
  }
  const newBalances = balances.map((b, k) => {
    let amountOutWithFee = amountsOut[k]!;
    if (invariantRatioWithoutFees > ratios[k]!) {
      const nonTaxable = mulDown(b, complement(invariantRatioWithoutFees));
      const taxable = sub(amountsOut[k]!, nonTaxable);
      amountOutWithFee = add(nonTaxable, fpDivUp(taxable, ONE - fee));
    }
    return sub(b, amountOutWithFee);
  });
  const newInvariant = calculateInvariant(generation, amp, newBalances, false);
  const invariantRatio = fpDivDown(newInvariant, currentInvariant);
  return mulUp(supply, complement(invariantRatio));
}

/** Token `i` paid out for `bptIn`, fee taken. */
export function tokenOutGivenExactBptIn(
  amp: bigint,
  balances: readonly bigint[],
  i: number,
  bptIn: bigint,
  supply: bigint,
  currentInvariant: bigint,
  fee: bigint,
): bigint {
  const newInvariant = mulUp(fpDivUp(sub(supply, bptIn), supply), currentInvariant);
  const newBalance = tokenBalanceGivenInvariant(amp, balances, newInvariant, i);
  const amountOutWithoutFee = sub(balances[i]!, newBalance);
  const weight = fpDivDown(balances[i]!, sumOf(balances));
  const taxable = mulUp(amountOutWithoutFee, complement(weight));
  const nonTaxable = sub(amountOutWithoutFee, taxable);
  return add(nonTaxable, mulDown(taxable, ONE - fee));
}

/**
 * The invariant's shape in floats, for spot prices only (never for amounts). With
 * f(x, D) = Ann*S + D - Ann*D - D^(n+1) / (n^n * P), Ann = A * n (A without its precision):
 * `grad[k]` is df/dx_k = Ann + D_P / x_k and `dfdD` is -(df/dD) = Ann - 1 + (n + 1) * D_P / D,
 * where D_P = D^(n+1) / (n^n * P). Along the curve, dx_i/dx_j = grad[j] / grad[i], and
 * dD/dx_k = grad[k] / dfdD. Balances are normalised by their sum (D is returned in their units).
 */
export interface StableShape {
  readonly invariant: number;
  readonly grad: readonly number[];
  readonly dfdD: number;
}

export function stableShape(ampHuman: number, balances: readonly number[]): StableShape {
  const n = balances.length;
  const sum = balances.reduce((a, b) => a + b, 0);
  const x = balances.map((b) => b / sum);
  const ann = ampHuman * n;
  const dP = (d: number) => x.reduce((acc, xk) => (acc * d) / (xk * n), d);
  let d = 1;
  for (let i = 0; i < 255; i++) {
    const p = dP(d);
    const next = ((ann + n * p) * d) / ((ann - 1) * d + (n + 1) * p);
    const done = Math.abs(next - d) <= 1e-15 * next;
    d = next;
    if (done) break;
  }
  const p = dP(d);
  return { invariant: d * sum, grad: x.map((xk) => ann + p / xk), dfdD: ann - 1 + ((n + 1) * p) / d };
}
