import { decimalToUnits } from '../../decimal';
import { complement, divDown, divUp, mulDown, mulUp, sub } from '../../swap/math/fixedPoint';
import * as S from './stableMath';
import {
  Revert,
  UnsupportedPoolError,
  type JoinExitModel,
  type ModelFactory,
  type PoolSpecCore,
  type PoolState,
  type SwapKind,
} from '../../swap/poolModel';
import { largestValid } from '../../swap/limits';
import {
  accepts,
  floatRate,
  MAX_BALANCE,
  parseFee,
  scalingFactor,
  V2VaultPool,
  withRates,
} from '../../protocols/v2/vaultPool';
import type { StableSpec } from './stableParams';

/**
 * Stable pools whose BPT is not one of their tokens: 'Stable' v1 (2021-06 StablePool), 'Stable' v2
 * (2022-06 StablePool) and 'MetaStable' (2021-07, two tokens with rate providers). Swaps are
 * BaseGeneralPool's (or, with two tokens, BaseMinimalSwapInfoPool's, the same arithmetic): the
 * swap fee comes off the raw amount in (given in) or is added to the downscaled amount in (given
 * out), balances and amounts are upscaled by 10^(18 - decimals) times the token's rate (MetaStable;
 * 1 for the others), and StableMath of the pool's generation does the rest. v1 and MetaStable use
 * the 2021 StableMath, v2 the 2022 one (see stableMath.ts).
 *
 * Joins and exits are single-token EXACT_TOKENS_IN_FOR_BPT_OUT and EXACT_BPT_IN_FOR_ONE_TOKEN_OUT
 * against the BPT total supply the state carries. Before either, these pools pay the protocol's
 * share of the swap fees earned since the last join or exit out of their balances, in the token
 * with the largest upscaled balance: what that token's balance exceeds the one the invariant and
 * amp stored then would give it (StableMath._calcDueTokenProtocolSwapFeeAmount), times the Vault's
 * protocol swap fee percentage; the join or exit is priced on the balances without it, and the
 * pool stores the invariant after it (rounded up) and the current amp as the next basis. The model
 * does the same where the store holds that basis (`lastInvariant`, `lastInvariantAmp`,
 * `vaultProtocolSwapFee`, from the chain: poolTypes/legacyFeeBasis.ts); without it, it assumes none
 * is due (exact with a zero protocol swap fee percentage). Swaps never pay protocol fees here.
 *
 * The amplification parameter is the stored one; a pool in the middle of an amp ramp moves it
 * every block and is priced at the value the store last read.
 */

export interface StableParams {
  readonly generation: S.StableGeneration;
  /** A * 1000, as the pool stores it. */
  readonly amp: bigint;
  readonly fee: bigint;
}

export function parseAmp(spec: PoolSpecCore): bigint {
  const amp = decimalToUnits(spec.amp ?? '0', 3);
  if (amp < S.AMP_PRECISION)
    throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has no valid amp (${String(spec.amp)})`);
  return amp;
}

/**
 * What the stable family checks before its math (the Vault's checks after it follow in
 * `V2VaultPool.swap`): the out balance must stay above zero, the in balance within 112 bits. The
 * Vault refuses zero amounts; searches probing zero get zero (true: answered without the math).
 */
export function answeredBeforeMath(
  balances: readonly bigint[],
  kind: SwapKind,
  i: number,
  j: number,
  amount: bigint,
): boolean {
  if (amount === 0n) return true;
  if (kind === 'givenOut' && amount >= balances[j]!)
    throw new Revert('amount out not below the pool balance (BAL#001)');
  if (kind === 'givenIn' && balances[i]! + amount > MAX_BALANCE) throw new Revert('balance above 2^112 (BAL#526)');
  return false;
}

/**
 * A token-for-token swap as BaseGeneralPool runs it: `up` holds the upscaled balances the math
 * sees (without the BPT for composable pools), `i`/`j` index into it, `sfIn`/`sfOut` are the two
 * tokens' scaling factors and `amount` is raw.
 */
export function tokenSwap(
  p: StableParams,
  up: readonly bigint[],
  i: number,
  j: number,
  sfIn: bigint,
  sfOut: bigint,
  kind: SwapKind,
  amount: bigint,
): bigint {
  const invariant = S.calculateInvariant(p.generation, p.amp, up, true);
  if (kind === 'givenIn') {
    const amountIn = mulDown(amount - mulUp(amount, p.fee), sfIn);
    return divDown(S.outGivenIn(p.amp, up, i, j, amountIn, invariant), sfOut);
  }
  const amountIn = S.inGivenOut(p.amp, up, i, j, mulDown(amount, sfOut), invariant);
  return divUp(divUp(amountIn, sfIn), complement(p.fee));
}

/** Upscaled balances as floats in human units, for spot prices. */
export function floatBalances(up: readonly bigint[]): number[] {
  return up.map((b) => Number(b) / 1e18);
}

export interface StableState extends PoolState {
  /** BPT total supply (raw, 18 decimals): joins and exits read it. */
  totalSupply: bigint;
  /** With a protocol fee basis: the invariant and amp (x1000) stored at the last join or exit. */
  lastInvariant?: bigint;
  lastAmp?: bigint;
}

/**
 * A Stable v1/v2 or MetaStable pool's protocol fee basis: the last invariant, its amp (x1000), the
 * Vault's percentage.
 */
interface StableFeeBasis {
  readonly lastInvariant: bigint;
  readonly lastAmp: bigint;
  readonly pct: bigint;
}

export class StableModel extends V2VaultPool<StableState> implements JoinExitModel<StableState> {
  readonly params: StableParams;
  readonly scalingFactors: readonly bigint[];
  private readonly totalSupply: bigint;
  private readonly rates: readonly number[];
  /** The protocol fee basis where stored with a non-zero percentage; null: none is taken to be due. */
  readonly feeBasis: StableFeeBasis | null;

  constructor(spec: StableSpec, generation: S.StableGeneration, withRates: boolean) {
    super(spec);
    if (this.tokens.length < 2 || this.tokens.length > 5)
      throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has ${this.tokens.length} tokens`);
    if (this.tokens.includes(this.address))
      throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} lists its own BPT`);
    if (this.decimals.some((d) => !Number.isInteger(d) || d < 0 || d > 18))
      throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has token decimals outside 0..18`);
    // Only MetaStable pools apply token rates (their definition says so); the others' scaling
    // factor is the decimals alone.
    this.scalingFactors = spec.tokens.map((t) => scalingFactor(t.decimals, withRates ? t.priceRate : '1'));
    if (this.scalingFactors.some((sf) => sf <= 0n))
      throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has a zero token rate`);
    this.params = { generation, amp: parseAmp(spec), fee: parseFee(spec) };
    this.totalSupply = decimalToUnits(spec.totalShares, 18);
    this.rates = this.scalingFactors.map((sf, k) => floatRate(sf, this.decimals[k]!));
    this.feeBasis = feeBasisOf(spec);
  }

  protected stateAt(balances: bigint[]): StableState {
    const state: StableState = { balances, totalSupply: this.totalSupply };
    if (this.feeBasis) {
      state.lastInvariant = this.feeBasis.lastInvariant;
      state.lastAmp = this.feeBasis.lastAmp;
    }
    return state;
  }

  /**
   * What a join or exit prices on (StablePool _onJoinPool/_onExitPool): the upscaled balances less
   * the protocol's due fee, taken from the token of the largest upscaled balance (the first such).
   */
  private preJoinExit(state: StableState): { up: bigint[]; due: bigint; at: number } {
    const sf = this.scalingFactors;
    const up = state.balances.map((b, k) => mulDown(b, sf[k]!));
    if (!this.feeBasis || state.lastInvariant === undefined || state.lastAmp === undefined)
      return { up, due: 0n, at: 0 };
    let at = 0;
    for (let k = 1; k < up.length; k++) if (up[k]! > up[at]!) at = k;
    const final = S.tokenBalanceGivenInvariant(state.lastAmp, up, state.lastInvariant, at);
    const due = up[at]! > final ? mulDown(up[at]! - final, this.feeBasis.pct) : 0n;
    up[at] = sub(up[at]!, due);
    return { up, due, at };
  }

  /** After a join or exit: the Vault takes the due fee (rounded down), the pool keeps the new basis. */
  private afterJoinExit(state: StableState, pre: { due: bigint; at: number }, invariant: bigint): void {
    if (!this.feeBasis) return;
    const at = pre.at;
    state.balances[at] = state.balances[at]! - divDown(pre.due, this.scalingFactors[at]!);
    state.lastInvariant = invariant;
    state.lastAmp = this.params.amp;
  }

  protected poolSwap(state: StableState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    const b = state.balances;
    if (answeredBeforeMath(b, kind, i, j, amount)) return 0n;
    const sf = this.scalingFactors;
    const up = b.map((x, k) => mulDown(x, sf[k]!));
    return tokenSwap(this.params, up, i, j, sf[i]!, sf[j]!, kind, amount);
  }

  maxAmount(state: StableState, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    // StableMath has no ratio limits: the Vault's 112-bit balances bound the amount in; the amount
    // out stays below the balance out, short of where the amount in it needs overflows.
    const candidate = kind === 'givenIn' ? MAX_BALANCE - state.balances[i]! : state.balances[j]! - 1n;
    return this.largestAccepted(state, kind, i, j, candidate);
  }

  spotPrice(state: StableState, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    const up = floatBalances(state.balances.map((b, k) => mulDown(b, this.scalingFactors[k]!)));
    if (up.some((x) => !(x > 0))) return Infinity;
    const shape = S.stableShape(Number(this.params.amp) / 1000, up);
    const fee = Number(this.params.fee) / 1e18;
    // Upscaled i per upscaled j along the curve, the fee on the amount in.
    return withRates(shape.grad[j]! / shape.grad[i]! / (1 - fee), this.rates, i, j);
  }

  joinGivenIn(state: StableState, i: number, amountIn: bigint): bigint {
    this.checkToken(i);
    if (amountIn < 0n) throw new Revert('negative amount');
    const sf = this.scalingFactors;
    if (state.balances[i]! + this.takenIn(i, amountIn) > MAX_BALANCE) throw new Revert('balance above 2^112 (BAL#526)');
    const { up } = this.preJoinExit(state);
    const amounts = up.map((_, k) => (k === i ? mulDown(amountIn, sf[k]!) : 0n));
    const { generation, amp, fee } = this.params;
    const bptOut = S.bptOutGivenExactTokensIn(
      generation,
      amp,
      up,
      amounts,
      state.totalSupply,
      S.calculateInvariant(generation, amp, up, true),
      fee,
    );
    this.storeInvariantAfter(up, i, amounts[i]!);
    return bptOut;
  }

  exitGivenIn(state: StableState, i: number, bptIn: bigint): bigint {
    this.checkToken(i);
    if (bptIn < 0n) throw new Revert('negative amount');
    const sf = this.scalingFactors;
    const { up } = this.preJoinExit(state);
    const { generation, amp, fee } = this.params;
    const out = S.tokenOutGivenExactBptIn(
      amp,
      up,
      i,
      bptIn,
      state.totalSupply,
      S.calculateInvariant(generation, amp, up, true),
      fee,
    );
    this.storeInvariantAfter(up, i, -out);
    return divDown(out, sf[i]!);
  }

  applyJoin(state: StableState, i: number, amountIn: bigint, bptOut: bigint): void {
    if (this.feeBasis) {
      const pre = this.preJoinExit(state);
      const invariant = this.storeInvariantAfter(pre.up, i, mulDown(amountIn, this.scalingFactors[i]!));
      this.afterJoinExit(state, pre, invariant);
    }
    state.balances[i] = state.balances[i]! + this.takenIn(i, amountIn);
    state.totalSupply += bptOut;
  }

  applyExit(state: StableState, i: number, bptIn: bigint, amountOut: bigint): void {
    if (this.feeBasis) {
      const pre = this.preJoinExit(state);
      const { generation, amp, fee } = this.params;
      // The basis takes the upscaled amount out before it rounds down.
      const out = S.tokenOutGivenExactBptIn(
        amp,
        pre.up,
        i,
        bptIn,
        state.totalSupply,
        S.calculateInvariant(generation, amp, pre.up, true),
        fee,
      );
      this.afterJoinExit(state, pre, this.storeInvariantAfter(pre.up, i, -out));
    }
    state.balances[i] = state.balances[i]! - amountOut;
    state.totalSupply -= bptIn;
  }

  maxJoin(state: StableState, i: number): bigint {
    if (!this.isIndex(i)) return 0n;
    return largestValid(MAX_BALANCE - state.balances[i]!, (a) => accepts(() => this.joinGivenIn(state, i, a)));
  }

  maxExit(state: StableState, i: number): bigint {
    if (!this.isIndex(i)) return 0n;
    // Burning the whole supply leaves a zero invariant, which the math divides by.
    return largestValid(state.totalSupply - 1n, (b) => accepts(() => this.exitGivenIn(state, i, b)));
  }

  /**
   * After a join or exit the pool stores the invariant of the new balances (for the next due
   * protocol fees); where that computation overflows or does not converge, the join or exit
   * reverts, so the model runs it too.
   */
  private storeInvariantAfter(up: readonly bigint[], i: number, delta: bigint): bigint {
    const after = [...up];
    after[i] = after[i]! + delta;
    return S.calculateInvariant(this.params.generation, this.params.amp, after, true);
  }

  /**
   * What the Vault takes for a join of `amountIn`: the pool upscales it (rounding down) and
   * returns it downscaled rounding up, which a rate can make a unit smaller than asked.
   */
  private takenIn(i: number, amountIn: bigint): bigint {
    const sf = this.scalingFactors[i]!;
    return divUp(mulDown(amountIn, sf), sf);
  }
}

/** The stored protocol fee basis, or null without it or with a zero percentage (no fee due). */
function feeBasisOf(spec: StableSpec): StableFeeBasis | null {
  const { lastInvariant, lastInvariantAmp, vaultProtocolSwapFee } = spec;
  if (lastInvariant == null || lastInvariantAmp == null || vaultProtocolSwapFee == null) return null;
  const basis = {
    lastInvariant: decimalToUnits(lastInvariant, 18),
    lastAmp: decimalToUnits(lastInvariantAmp, 3),
    pct: decimalToUnits(vaultProtocolSwapFee, 18),
  };
  if (basis.pct <= 0n || basis.pct >= 10n ** 18n || basis.lastInvariant <= 0n || basis.lastAmp < S.AMP_PRECISION)
    return null;
  return basis;
}

/**
 * What tells one stable type's contract from another's, as its definition says it
 * (`poolTypes/stable/stableDef.ts`): the model asks these, never the type's name.
 */
export interface StableVariant {
  /** Token rates scale the balances (MetaStable); else the decimals alone. */
  readonly withRates: boolean;
  /** Its StableMath generation at this version. */
  readonly generation: (version: number) => S.StableGeneration;
}

/** The model of a stable type without its BPT among its tokens: its definition says which variant. */
export function stableModelFactory(variant: StableVariant): ModelFactory<StableSpec> {
  return (spec) => new StableModel(spec, variant.generation(spec.poolTypeVersion ?? 1), variant.withRates);
}
