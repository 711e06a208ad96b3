import { decimalToUnits } from '../../decimal';
import { complement, divDown, divUp, mulDown, mulUp, ONE, powUp, sub } from '../../swap/math/fixedPoint';
import {
  bptOutGivenExactTokensIn,
  MIN_INVARIANT_RATIO,
  tokenOutGivenExactBptIn,
  type WeightedGeneration,
} from './weightedMath';
import {
  Revert,
  UnsupportedPoolError,
  type JoinExitModel,
  type ModelFactory,
  type PoolState,
  type SwapKind,
} from '../../swap/poolModel';
import { largestValid } from '../../swap/limits';
import {
  postJoinExitFeeBpt,
  preJoinExitFeeBpt,
  v1DueProtocolFee,
  weightedInvariant,
  yieldOwnership,
  type WeightedFeeBasis,
} from './weightedFees';
import { accepts, floatRate, MAX_BALANCE, scalingFactor, V2VaultPool, withRates } from '../../protocols/v2/vaultPool';
import { declaredParam } from '../paramField';
import type { WeightedSpec } from './weightedParams';

/**
 * Weighted pools (WeightedMath): every generation's swap is `onSwap` of BaseWeightedPool /
 * BaseMinimalSwapInfoPool. Generation 1 (2021 pools, LBPs, Investment) adds pow's error bound on
 * every power; from weighted v2 on `powUp` takes exact shortcuts for exponents 1, 2 and 4.
 *
 * The family:
 * - Weighted v1-v4: swaps, and single-token joins and exits (weightedMath.ts has each generation's
 *   rounding).
 * - LiquidityBootstrapping (2021 LBP and its no-protocol-fee copy): the v1 arithmetic at the stored
 *   weights (the pool moves them over time; a followed chain's state holds them at the next
 *   block's time, `domain/chainTime.ts`, else the subgraph's last), swaps only while swapEnabled. Only the pool's owner may join (BAL#328), so joins are refused; exits work.
 * - Investment (2021 InvestmentPool): the v1 swap, its own join/exit fee rounding, swaps and
 *   non-proportional joins/exits only while swapEnabled. The pool prices against its balances net
 *   of the management fees it has collected but not paid out; the store has no such figure, so the
 *   model takes the stored balances as those net balances (exact when the manager fee is zero or
 *   freshly withdrawn).
 * - Managed (ManagedPool v1/v2): token swaps take the fee off the upscaled amount (not the raw one)
 *   and use the 2022 pow. Its BPT is token 0 of the pool, and swaps through it are joins and exits
 *   priced on the actual supply including management (AUM) fees accrued since the last collection,
 *   which the store does not hold, so BPT swaps are not offered; circuit breakers are not known
 *   either, so a swap that trips one is quoted but reverts on chain.
 *
 * Protocol fees around joins and exits: Weighted v2+ pools mint the protocol's share of the
 * invariant growth since the last join or exit, and of their rate product's growth over its
 * all-time high (pools with a rate provider), as BPT first (weightedFees.ts), from the basis the
 * pool stores (lastPostJoinExitInvariant, protocolSwapFeeCache; athRateProduct, rateProduct,
 * protocolYieldFeeCache); a pool stored without the swap part is taken to owe none, without the
 * yield part no yield fee. Weighted v1 pools pay the due fee out of their largest-weight token's
 * balance instead (weightedFees.ts v1DueProtocolFee), from the basis every pool paying fees in
 * tokens stores (lastInvariant, vaultProtocolSwapFee: poolTypes/legacyFeeBasis.ts, read from the
 * chain; the subgraph has neither), as legacy stable pools do; stored without it, none is taken
 * to be due. v1 liquidity bootstrapping pools assume none either.
 */

const MAX_IN_RATIO = 3n * 10n ** 17n;
const MAX_OUT_RATIO = 3n * 10n ** 17n;

export interface WeightedParams {
  readonly weights: readonly bigint[];
  readonly scalingFactors: readonly bigint[];
  readonly fee: bigint;
  /** Weighted v2+ and Managed (exact pow shortcuts). */
  readonly shortcuts: boolean;
  /** ManagedPool: the fee comes off the upscaled amount in, and is added to the upscaled amount in. */
  readonly feeOnUpscaled?: boolean;
}

function calcOutGivenIn(p: WeightedParams, bIn: bigint, bOut: bigint, i: number, j: number, aIn: bigint): bigint {
  if (aIn > mulDown(bIn, MAX_IN_RATIO)) throw new Revert('amount in above 30% of the balance (BAL#304)');
  const base = divUp(bIn, bIn + aIn);
  const power = powUp(base, divDown(p.weights[i]!, p.weights[j]!), p.shortcuts);
  return mulDown(bOut, complement(power));
}

function calcInGivenOut(p: WeightedParams, bIn: bigint, bOut: bigint, i: number, j: number, aOut: bigint): bigint {
  if (aOut > mulDown(bOut, MAX_OUT_RATIO)) throw new Revert('amount out above 30% of the balance (BAL#305)');
  const base = divUp(bOut, sub(bOut, aOut));
  const power = powUp(base, divUp(p.weights[j]!, p.weights[i]!), p.shortcuts);
  return mulUp(bIn, sub(power, ONE));
}

export function weightedOutGivenIn(
  p: WeightedParams,
  balances: readonly bigint[],
  i: number,
  j: number,
  amountIn: bigint,
): bigint {
  const sfIn = p.scalingFactors[i]!;
  const sfOut = p.scalingFactors[j]!;
  const bIn = mulDown(balances[i]!, sfIn);
  const bOut = mulDown(balances[j]!, sfOut);
  // BaseMinimalSwapInfoPool takes the fee off the raw amount before scaling; ManagedPool off the
  // upscaled amount.
  const aIn = p.feeOnUpscaled
    ? mulDown(mulDown(amountIn, sfIn), complement(p.fee))
    : mulDown(amountIn - mulUp(amountIn, p.fee), sfIn);
  return divDown(calcOutGivenIn(p, bIn, bOut, i, j, aIn), sfOut);
}

export function weightedInGivenOut(
  p: WeightedParams,
  balances: readonly bigint[],
  i: number,
  j: number,
  amountOut: bigint,
): bigint {
  const sfIn = p.scalingFactors[i]!;
  const sfOut = p.scalingFactors[j]!;
  const bIn = mulDown(balances[i]!, sfIn);
  const bOut = mulDown(balances[j]!, sfOut);
  const aIn = calcInGivenOut(p, bIn, bOut, i, j, mulDown(amountOut, sfOut));
  if (p.feeOnUpscaled) return divUp(divUp(aIn, complement(p.fee)), sfIn);
  return divUp(divUp(aIn, sfIn), complement(p.fee));
}

export interface WeightedState extends PoolState {
  /** BPT total supply (raw, 18 decimals): joins and exits read it. */
  totalSupply: bigint;
  /** Weighted with a fee basis: the invariant after the last join or exit (18 decimals). */
  lastInvariant?: bigint;
  /** ... and with a yield fee basis: the all-time high rate product (a join or exit raises it). */
  athRateProduct?: bigint;
}

/**
 * What tells one weighted-math pool type's contract from another's, as its definition says it
 * (`poolTypes/weighted/weightedDef.ts`): the model asks these, never the type's name.
 */
export interface WeightedVariant {
  /** The owner can switch swaps off (`swapEnabled`): swaps and joins then revert. */
  readonly swapSwitch: boolean;
  /** Whether `powDown` takes the exact shortcuts (WeightedMath from 2022 on) at this version. */
  readonly shortcuts: (version: number) => boolean;
  /** The swap fee is taken on upscaled amounts (Managed). */
  readonly feeOnUpscaled?: boolean;
  /** The pool lists its own BPT among its tokens (Managed). */
  readonly ownBpt?: boolean;
  /** Only the owner joins (liquidity bootstrapping pools): no single-token join hop. */
  readonly ownerJoinsOnly?: boolean;
  /** Its join/exit rounding generation at this version; absent: no join or exit is modelled. */
  readonly joinExit?: (version: number) => WeightedGeneration;
  /** It keeps a protocol fee basis (weighted v2+ minting BPT, v1 paying in tokens). */
  readonly feeBasis?: boolean;
}

export class WeightedModel extends V2VaultPool<WeightedState> {
  readonly params: WeightedParams;
  /** The pool's own BPT among its tokens (Managed pools), else -1. */
  readonly bptIndex: number;
  readonly swapEnabled: boolean;
  private readonly totalSupply: bigint;
  /** Float weights, fee and rates for spot prices. */
  private readonly w: readonly number[];
  private readonly feeFloat: number;
  private readonly rates: readonly number[];

  constructor(
    spec: WeightedSpec,
    protected readonly variant: WeightedVariant,
  ) {
    super(spec);
    this.bptIndex = this.tokens.indexOf(this.address);
    if (this.bptIndex >= 0 && !variant.ownBpt)
      throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} lists its own BPT`);
    const weights = spec.tokens.map((t, k) => (k === this.bptIndex ? 0n : decimalToUnits(t.weight ?? '0', 18)));
    if (weights.some((w, k) => w <= 0n && k !== this.bptIndex))
      throw new UnsupportedPoolError(`weighted pool ${spec.id} has a token without a weight`);
    const version = spec.poolTypeVersion ?? 1;
    this.params = {
      weights,
      scalingFactors: spec.tokens.map((t) => scalingFactor(t.decimals, t.priceRate)),
      fee: decimalToUnits(spec.swapFee, 18),
      shortcuts: variant.shortcuts(version),
      feeOnUpscaled: variant.feeOnUpscaled === true,
    };
    this.swapEnabled = !variant.swapSwitch || spec.swapEnabled !== false;
    this.totalSupply = decimalToUnits(spec.totalShares, 18);
    this.w = weights.map((x) => Number(x) / 1e18);
    this.feeFloat = Number(this.params.fee) / 1e18;
    this.rates = this.params.scalingFactors.map((sf, k) => floatRate(sf, this.decimals[k]!));
  }

  protected stateAt(balances: bigint[]): WeightedState {
    return { balances, totalSupply: this.totalSupply };
  }

  override canSwap(i: number, j: number): boolean {
    return this.swapEnabled && super.canSwap(i, j) && i !== this.bptIndex && j !== this.bptIndex;
  }

  protected override refusal(i: number, j: number): Revert {
    return this.swapEnabled ? super.refusal(i, j) : new Revert('swaps are disabled (BAL#327)');
  }

  protected poolSwap(state: WeightedState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    return kind === 'givenIn'
      ? weightedOutGivenIn(this.params, state.balances, i, j, amount)
      : weightedInGivenOut(this.params, state.balances, i, j, amount);
  }

  maxAmount(state: WeightedState, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    let candidate: bigint;
    if (kind === 'givenOut') {
      // Largest raw out whose upscaled value stays within 30% of the upscaled balance.
      const sf = this.params.scalingFactors[j]!;
      candidate = divDown(mulDown(mulDown(state.balances[j]!, sf), MAX_OUT_RATIO), sf);
    } else {
      // Largest raw in whose fee-less upscaled part stays within 30%.
      const sf = this.params.scalingFactors[i]!;
      const cap = divDown(mulDown(mulDown(state.balances[i]!, sf), MAX_IN_RATIO), sf);
      candidate = divDown(cap, complement(this.params.fee));
    }
    // The estimate can miss by a rounding step either way; the pool's own answer decides.
    return this.largestAccepted(state, kind, i, j, candidate);
  }

  spotPrice(state: WeightedState, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    const bi = (Number(state.balances[i]!) / 10 ** this.decimals[i]!) * this.rates[i]!;
    const bj = (Number(state.balances[j]!) / 10 ** this.decimals[j]!) * this.rates[j]!;
    if (bi <= 0 || bj <= 0) return Infinity;
    // (Bi / wi) / (Bj / wj) in the pool's units, the fee on the amount in.
    return withRates(bi / this.w[i]! / (bj / this.w[j]!) / (1 - this.feeFloat), this.rates, i, j);
  }
}

/**
 * Weighted, LBP and Investment pools, whose BPT is not one of their tokens: a route enters and
 * leaves them through Vault.joinPool / exitPool with one token (EXACT_TOKENS_IN_FOR_BPT_OUT with a
 * single non-zero amount, EXACT_BPT_IN_FOR_ONE_TOKEN_OUT).
 */
export class WeightedJoinExitModel extends WeightedModel implements JoinExitModel<WeightedState> {
  readonly generation: WeightedGeneration;
  /** Weighted v2+ pools stored with their protocol fee basis; null: no fee is taken to be due. */
  readonly feeBasis: WeightedFeeBasis | null;
  /** Weighted v1 pools stored with their protocol fee basis (paid in tokens); null: none due. */
  readonly v1Fees: WeightedFeeBasis | null;
  /** The token a v1 pool pays the protocol in: the first of the largest weight. */
  private readonly maxWeightIndex: number;

  constructor(spec: WeightedSpec, variant: WeightedVariant, generation: WeightedGeneration) {
    super(spec, variant);
    this.generation = generation;
    const last = spec.lastPostJoinExitInvariant;
    const pct = spec.protocolSwapFeeCache;
    const { athRateProduct: ath, rateProduct: product } = spec;
    this.feeBasis =
      variant.feeBasis === true && generation === 'v2' && last != null && pct != null
        ? {
            lastInvariant: decimalToUnits(last, 18),
            swapPct: decimalToUnits(pct, 18),
            ...(ath != null && product != null
              ? {
                  yield: {
                    athRateProduct: decimalToUnits(ath, 18),
                    rateProduct: decimalToUnits(product, 18),
                    yieldPct: decimalToUnits(declaredParam(spec, 'protocolYieldFeeCache') ?? '0', 18),
                  },
                }
              : {}),
          }
        : null;
    const { lastInvariant: v1Last, vaultProtocolSwapFee: v1Pct } = spec;
    this.v1Fees =
      variant.feeBasis === true && generation === 'v1' && v1Last != null && v1Pct != null
        ? { lastInvariant: decimalToUnits(v1Last, 18), swapPct: decimalToUnits(v1Pct, 18) }
        : null;
    const w = this.params.weights;
    this.maxWeightIndex = w.reduce((best, x, k) => (x > w[best]! ? k : best), 0);
  }

  protected override stateAt(balances: bigint[]): WeightedState {
    const state = super.stateAt(balances);
    const basis = this.feeBasis ?? this.v1Fees;
    if (!basis) return state;
    const ath = this.feeBasis?.yield?.athRateProduct;
    return {
      ...state,
      lastInvariant: basis.lastInvariant,
      ...(ath !== undefined ? { athRateProduct: ath } : {}),
    };
  }

  /**
   * A v1 join or exit before it prices (WeightedPool 2021 _onJoinPool/_onExitPool): the upscaled
   * balances less the protocol's due fee, taken from the largest-weight token; null without a basis.
   */
  private v1PreJoinExit(state: WeightedState): { balances: bigint[]; due: bigint } | null {
    if (!this.v1Fees || state.lastInvariant === undefined) return null;
    const balances = this.upscaled(state);
    const m = this.maxWeightIndex;
    const invariant = weightedInvariant(this.params.weights, balances, false);
    const due = v1DueProtocolFee(
      balances[m]!,
      this.params.weights[m]!,
      state.lastInvariant,
      invariant,
      this.v1Fees.swapPct,
    );
    balances[m] = sub(balances[m]!, due);
    return { balances, due };
  }

  /**
   * After a v1 join or exit: the Vault takes the due fee (rounded down) from the raw balance, and
   * the pool keeps the invariant of its upscaled balances after the join or exit as the new basis.
   */
  private v1AfterJoinExit(state: WeightedState, due: bigint, postUpscaled: readonly bigint[]): void {
    const m = this.maxWeightIndex;
    state.balances[m] = state.balances[m]! - divDown(due, this.params.scalingFactors[m]!);
    state.lastInvariant = weightedInvariant(this.params.weights, postUpscaled, false);
  }

  /** The fee basis as the state has moved it (the last invariant, the all-time high). */
  private basisOf(state: WeightedState, lastInvariant: bigint): WeightedFeeBasis {
    const y = this.feeBasis?.yield;
    return {
      lastInvariant,
      swapPct: this.feeBasis!.swapPct,
      ...(y ? { yield: { ...y, athRateProduct: state.athRateProduct ?? y.athRateProduct } } : {}),
    };
  }

  private upscaled(state: WeightedState): bigint[] {
    return state.balances.map((b, k) => mulDown(b, this.params.scalingFactors[k]!));
  }

  /**
   * What _beforeJoinExit sees: the invariant of the balances and the supply with the protocol's
   * due fee BPT minted.
   */
  private preJoinExit(state: WeightedState): { invariant: bigint; supply: bigint } {
    if (!this.feeBasis || state.lastInvariant === undefined) return { invariant: 0n, supply: state.totalSupply };
    const invariant = weightedInvariant(this.params.weights, this.upscaled(state));
    const basis = this.basisOf(state, state.lastInvariant);
    return { invariant, supply: state.totalSupply + preJoinExitFeeBpt(invariant, state.totalSupply, basis) };
  }

  /** _afterJoinExit: the fee on the join or exit's own swap fee, and the new basis. */
  private afterJoinExit(
    state: WeightedState,
    pre: { invariant: bigint; supply: bigint },
    postSupply: bigint,
    postUpscaled: () => bigint[],
  ): void {
    if (!this.feeBasis || state.lastInvariant === undefined) {
      state.totalSupply = postSupply;
      return;
    }
    // _beforeJoinExit raised the all-time high to the rate product if it passed it.
    const { newHigh } = yieldOwnership(this.basisOf(state, state.lastInvariant).yield);
    if (newHigh !== undefined) state.athRateProduct = newHigh;
    const postInvariant = weightedInvariant(this.params.weights, postUpscaled());
    const fee = postJoinExitFeeBpt(pre.invariant, postInvariant, pre.supply, postSupply, this.feeBasis.swapPct);
    state.totalSupply = postSupply + fee;
    state.lastInvariant = postInvariant;
  }

  joinGivenIn(state: WeightedState, i: number, amountIn: bigint): bigint {
    if (this.variant.ownerJoinsOnly)
      throw new Revert('only the pool owner joins a liquidity bootstrapping pool (BAL#328)');
    if (!this.swapEnabled) throw new Revert('single-token joins are disabled with swaps (BAL#330)');
    this.checkToken(i);
    if (amountIn < 0n) throw new Revert('negative amount');
    if (state.balances[i]! + amountIn > MAX_BALANCE) throw new Revert('balance above 2^112 (BAL#526)');
    const sf = this.params.scalingFactors;
    const amounts = state.balances.map((_, k) => (k === i ? mulDown(amountIn, sf[k]!) : 0n));
    const v1 = this.v1PreJoinExit(state);
    return bptOutGivenExactTokensIn(
      this.generation,
      v1 ? v1.balances : this.upscaled(state),
      this.params.weights,
      amounts,
      v1 ? state.totalSupply : this.preJoinExit(state).supply,
      this.params.fee,
    );
  }

  exitGivenIn(state: WeightedState, i: number, bptIn: bigint): bigint {
    if (!this.swapEnabled) throw new Revert('single-token exits are disabled with swaps (BAL#330)');
    this.checkToken(i);
    if (bptIn < 0n) throw new Revert('negative amount');
    const sf = this.params.scalingFactors[i]!;
    const v1 = this.v1PreJoinExit(state);
    const out = tokenOutGivenExactBptIn(
      this.generation,
      v1 ? v1.balances[i]! : mulDown(state.balances[i]!, sf),
      this.params.weights[i]!,
      bptIn,
      v1 ? state.totalSupply : this.preJoinExit(state).supply,
      this.params.fee,
    );
    return divDown(out, sf);
  }

  applyJoin(state: WeightedState, i: number, amountIn: bigint, bptOut: bigint): void {
    const v1 = this.v1PreJoinExit(state);
    if (v1) {
      v1.balances[i] = v1.balances[i]! + mulDown(amountIn, this.params.scalingFactors[i]!);
      this.v1AfterJoinExit(state, v1.due, v1.balances);
      state.balances[i] = state.balances[i]! + amountIn;
      state.totalSupply += bptOut;
      return;
    }
    const pre = this.preJoinExit(state);
    state.balances[i] = state.balances[i]! + amountIn;
    this.afterJoinExit(state, pre, pre.supply + bptOut, () => this.upscaled(state));
  }

  applyExit(state: WeightedState, i: number, bptIn: bigint, amountOut: bigint): void {
    const v1 = this.v1PreJoinExit(state);
    if (v1) {
      // The basis takes the upscaled amount out before it rounds down.
      const out = tokenOutGivenExactBptIn(
        this.generation,
        v1.balances[i]!,
        this.params.weights[i]!,
        bptIn,
        state.totalSupply,
        this.params.fee,
      );
      v1.balances[i] = sub(v1.balances[i]!, out);
      this.v1AfterJoinExit(state, v1.due, v1.balances);
      state.balances[i] = state.balances[i]! - amountOut;
      state.totalSupply -= bptIn;
      return;
    }
    const pre = this.preJoinExit(state);
    // The pool takes the post-exit invariant from the upscaled amount out before it rounds it down.
    const post = this.feeBasis ? this.upscaled(state) : [];
    if (this.feeBasis)
      post[i] =
        post[i]! -
        tokenOutGivenExactBptIn(this.generation, post[i]!, this.params.weights[i]!, bptIn, pre.supply, this.params.fee);
    state.balances[i] = state.balances[i]! - amountOut;
    this.afterJoinExit(state, pre, pre.supply - bptIn, () => post);
  }

  maxJoin(state: WeightedState, i: number): bigint {
    if (this.variant.ownerJoinsOnly || !this.swapEnabled) return 0n;
    // WeightedMath bounds no exact-tokens-in join; the Vault's 112-bit balance does.
    return largestValid(MAX_BALANCE - state.balances[i]!, (a) => accepts(() => this.joinGivenIn(state, i, a)));
  }

  maxExit(state: WeightedState, i: number): bigint {
    if (!this.swapEnabled) return 0n;
    // The invariant may not fall below 70%: keep ceil(0.7 * supply) BPT, due fees minted.
    const supply = this.preJoinExit(state).supply;
    const keep = (supply * MIN_INVARIANT_RATIO + ONE - 1n) / ONE;
    return largestValid(supply - keep, (b) => accepts(() => this.exitGivenIn(state, i, b)));
  }
}

/** The model of a weighted-math pool type: its definition says which variant it is. */
export function weightedModelFactory(variant: WeightedVariant): ModelFactory<WeightedSpec> {
  const joinExit = variant.joinExit;
  return (spec) =>
    joinExit
      ? new WeightedJoinExitModel(spec, variant, joinExit(spec.poolTypeVersion ?? 1))
      : new WeightedModel(spec, variant);
}
