import { decimalToUnits } from '../../decimal';
import { complement, divDown, divUp, mulDown, mulUp, ONE, powUp, sub } from '../math/fixedPoint';
import { PoolMathError, UnsupportedPoolError, type ModelFactory, type PoolModel, type PoolSpec, type PoolState, type SwapKind } from '../poolModel';

/**
 * Weighted pools (WeightedMath): every generation's swap is `onSwap` of BaseWeightedPool /
 * BaseMinimalSwapInfoPool. Generation 1 (2021 pools, LBPs, Investment) adds pow's error bound on
 * every power; from weighted v2 on `powUp` takes exact shortcuts for exponents 1, 2 and 4.
 */

const MAX_IN_RATIO = 3n * 10n ** 17n;
const MAX_OUT_RATIO = 3n * 10n ** 17n;

export interface WeightedParams {
  readonly weights: readonly bigint[];
  readonly scalingFactors: readonly bigint[];
  readonly fee: bigint;
  /** Weighted v2+ (exact pow shortcuts). */
  readonly shortcuts: boolean;
}

/** Scaling factor of a token: 10^(18 - decimals) as an 18-decimal number, times its rate. */
export function scalingFactor(decimals: number, priceRate: string | null | undefined): bigint {
  return mulDown(ONE * 10n ** BigInt(18 - decimals), decimalToUnits(priceRate ?? '1', 18));
}

export function weightedOutGivenIn(p: WeightedParams, balances: readonly bigint[], i: number, j: number, amountIn: bigint): bigint {
  const sfIn = p.scalingFactors[i]!;
  const sfOut = p.scalingFactors[j]!;
  const bIn = mulDown(balances[i]!, sfIn);
  const bOut = mulDown(balances[j]!, sfOut);
  // The fee comes off the raw amount before scaling: the pool's own order of rounding.
  const aIn = mulDown(amountIn - mulUp(amountIn, p.fee), sfIn);
  if (aIn > mulDown(bIn, MAX_IN_RATIO)) throw new PoolMathError('amount in above 30% of the balance (BAL#304)');
  const base = divUp(bIn, bIn + aIn);
  const power = powUp(base, divDown(p.weights[i]!, p.weights[j]!), p.shortcuts);
  return divDown(mulDown(bOut, complement(power)), sfOut);
}

export function weightedInGivenOut(p: WeightedParams, balances: readonly bigint[], i: number, j: number, amountOut: bigint): bigint {
  const sfIn = p.scalingFactors[i]!;
  const sfOut = p.scalingFactors[j]!;
  const bIn = mulDown(balances[i]!, sfIn);
  const bOut = mulDown(balances[j]!, sfOut);
  const aOut = mulDown(amountOut, sfOut);
  if (aOut > mulDown(bOut, MAX_OUT_RATIO)) throw new PoolMathError('amount out above 30% of the balance (BAL#305)');
  const base = divUp(bOut, sub(bOut, aOut));
  const power = powUp(base, divUp(p.weights[j]!, p.weights[i]!), p.shortcuts);
  const aIn = mulUp(bIn, sub(power, ONE));
  return divUp(divUp(aIn, sfIn), complement(p.fee));
}

export interface WeightedState extends PoolState {
  /** BPT total supply (raw, 18 decimals): joins and exits read it. */
  totalSupply: bigint;
}

export class WeightedModel implements PoolModel<WeightedState> {
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly tokens: readonly string[];
  readonly decimals: readonly number[];
  readonly params: WeightedParams;
  private readonly balances: readonly bigint[];
  private readonly totalSupply: bigint;
  /** Float weights and fee for spot prices. */
  private readonly w: readonly number[];
  private readonly feeFloat: number;

  constructor(spec: PoolSpec) {
    this.id = spec.id.toLowerCase();
    this.address = spec.address.toLowerCase();
    this.poolType = spec.poolType;
    this.tokens = spec.tokens.map((t) => t.address.toLowerCase());
    this.decimals = spec.tokens.map((t) => t.decimals);
    const weights = spec.tokens.map((t) => decimalToUnits(t.weight ?? '0', 18));
    if (weights.some((w) => w <= 0n)) throw new UnsupportedPoolError(`weighted pool ${spec.id} has a token without a weight`);
    this.params = {
      weights,
      scalingFactors: spec.tokens.map((t) => scalingFactor(t.decimals, t.priceRate)),
      fee: decimalToUnits(spec.swapFee, 18),
      shortcuts: spec.poolType === 'Weighted' && (spec.poolTypeVersion ?? 1) >= 2,
    };
    this.balances = spec.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
    this.totalSupply = decimalToUnits(spec.totalShares, 18);
    this.w = weights.map((x) => Number(x) / 1e18);
    this.feeFloat = Number(this.params.fee) / 1e18;
  }

  initialState(): WeightedState {
    return { balances: [...this.balances], totalSupply: this.totalSupply };
  }

  cloneState(state: WeightedState): WeightedState {
    return { balances: [...state.balances], totalSupply: state.totalSupply };
  }

  canSwap(i: number, j: number): boolean {
    return i !== j && i >= 0 && j >= 0 && i < this.tokens.length && j < this.tokens.length;
  }

  swap(state: WeightedState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    return kind === 'givenIn' ? weightedOutGivenIn(this.params, state.balances, i, j, amount) : weightedInGivenOut(this.params, state.balances, i, j, amount);
  }

  apply(state: WeightedState, i: number, j: number, amountIn: bigint, amountOut: bigint): void {
    state.balances[i] = state.balances[i]! + amountIn;
    state.balances[j] = state.balances[j]! - amountOut;
  }

  maxAmount(state: WeightedState, kind: SwapKind, i: number, j: number): bigint {
    if (kind === 'givenOut') {
      // Largest raw out whose upscaled value stays within 30% of the upscaled balance.
      const sf = this.params.scalingFactors[j]!;
      return divDown(mulDown(mulDown(state.balances[j]!, sf), MAX_OUT_RATIO), sf);
    }
    // Largest raw in whose fee-less upscaled part stays within 30%: a little under, to be safe.
    const sf = this.params.scalingFactors[i]!;
    const cap = divDown(mulDown(mulDown(state.balances[i]!, sf), MAX_IN_RATIO), sf);
    const gross = divDown(cap, complement(this.params.fee));
    return gross > 1n ? gross - 1n : 0n;
  }

  spotPrice(state: WeightedState, i: number, j: number): number {
    const bi = Number(state.balances[i]!) / 10 ** this.decimals[i]! * this.rate(i);
    const bj = Number(state.balances[j]!) / 10 ** this.decimals[j]! * this.rate(j);
    if (bi <= 0 || bj <= 0) return Infinity;
    // (Bi / wi) / (Bj / wj) / (1 - fee), rates turning raw tokens into the pool's units.
    return ((bi / this.w[i]!) / (bj / this.w[j]!)) / (1 - this.feeFloat) * (this.rate(j) / this.rate(i));
  }

  private rate(k: number): number {
    return Number(this.params.scalingFactors[k]!) / 1e18 / 10 ** (18 - this.decimals[k]!);
  }
}

const SUPPORTED = new Set(['Weighted', 'LiquidityBootstrapping', 'Investment']);

export const createWeightedModel: ModelFactory = (spec) => {
  if (!SUPPORTED.has(spec.poolType)) throw new UnsupportedPoolError(`${spec.poolType} is not a weighted pool`);
  if (spec.poolType === 'Weighted' && (spec.poolTypeVersion ?? 1) > 4) throw new UnsupportedPoolError(`Weighted v${spec.poolTypeVersion} is not carried`);
  return new WeightedModel(spec);
};
