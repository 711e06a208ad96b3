import { decimalToUnits } from '../../decimal';
import { complement, divDown, divUp, mulDown, mulUp, ONE } from '../../swap/math/fixedPoint';
import * as S from '../stable/stableMath';
import { Revert, UnsupportedPoolError, type ModelFactory, type PoolState, type SwapKind } from '../../swap/poolModel';
import { answeredBeforeMath, floatBalances, parseAmp, tokenSwap, type StableParams } from '../stable/stableModel';
import { floatRate, MAX_BALANCE, parseFee, scalingFactor, V2VaultPool, withRates } from '../../protocols/v2/vaultPool';
import {
  dueProtocolFeeBpt,
  feeRulesOf,
  protocolFeeAfterJoinExit,
  type FeeBasis,
  type FeeRules,
  type FeeToken,
} from './composableStableFees';
import { declaredParam } from '../paramField';
import type { ComposableStableSpec } from './composableStableParams';

/**
 * Stable pools that hold their own pre-minted BPT as one of their tokens: 'StablePhantom' (the
 * 2021-12 StablePhantomPool) and 'ComposableStable' v1 to v6 (2022-09 to 2024-02). Token-for-token
 * swaps are BaseGeneralPool's, as in the plain stable pools; swaps that take or give the BPT are
 * single-token joins and exits priced on the virtual supply (the BPT total supply minus what the
 * Vault holds for the pool: what is in circulation). Each token's scaling factor carries its rate
 * (the pool's cached rate, which the store keeps as priceRate); the BPT's is 1.
 *
 * Where the generations differ:
 * - StablePhantom: the 2021 StableMath; a BPT swap is fee-charged like any other swap (the fee
 *   off the raw amount in, or added to the amount in), then priced with a zero fee. Its virtual
 *   supply also counts protocol fee BPT the pool owes but has not minted yet.
 * - ComposableStable (every version): the 2022 StableMath; a BPT swap charges the fee inside the
 *   join/exit formula, on the part of the amount beyond a proportional join or exit. The versions
 *   differ in how protocol fees are measured and paid (v1 rounds fee BPT twice and charges a
 *   join/exit's own fee by growth ratios; v2 uses the "feeless invariant"; v5 bounds the growth
 *   invariants and replaces per-token yield-fee exemptions by one flag: composableStableFees.ts),
 *   in proportional joins/exits (v2+) and in reentrancy guards (v3+); v6 only lengthens the pause
 *   windows.
 *
 * Protocol fees: before a BPT swap a ComposableStable pool mints the protocol's share of the swap
 * fees and yield earned since the last join or exit (measured against the invariant and amp it
 * stored then, with the token rates cached then, the cached protocol swap and yield fee
 * percentages and the yield-fee exemptions; see composableStableFees.ts for each version's rules),
 * which grows the supply the swap is priced on. Where the store holds that basis (the subgraph's
 * lastJoinExitAmp, lastPostJoinExitInvariant, protocolSwapFeeCache, protocolYieldFeeCache and each
 * token's oldPriceRate and isExemptFromYieldProtocolFee), the model mints the same BPT first, with
 * the contract's rounding, for every version v1 to v6: exact to the wei as far as those figures are
 * the pool's (the devnet's indexer reads them from the chain; the hosted subgraph computes
 * lastPostJoinExitInvariant itself). A token without an old rate is taken to have earned no yield
 * since the last join or exit; a missing yield fee percentage counts as zero. Where the basis is
 * absent (older stored pools), the model assumes no fee is due: exact with zero protocol fee
 * percentages, otherwise BPT swaps are priced on a slightly smaller supply than the pool's.
 *
 * After a BPT swap the pool also mints the protocol's share of the swap's own fee and stores the
 * post-swap invariant, the current amp and the current rates as the new basis; `apply` does the
 * same to the state (token-for-token swaps leave the basis alone, as the pool does). The engine's
 * split paths are pool-disjoint and a path uses a pool once, so quotes never price a second BPT
 * swap on an applied state; batch replays do, and there the post-swap invariant is the one of the
 * pool's upscaled balances as the model reconstructs them from the raw amounts (a given-out join's
 * upscaled amount in is recomputed), which is the pool's own unless both kinds fit the same raw
 * amounts.
 *
 * A StablePhantom pool has no fee basis: it charges the protocol's share of each swap's fee as it
 * goes, in BPT it owes and mints only when collected (`getDueProtocolFeeBptAmount()`), and that
 * owed BPT counts in the virtual supply its BPT swaps are priced on (`_dropBptItem`: the pre-minted
 * supply less the Vault's BPT plus the due BPT). The model prices on the stored due BPT
 * (`dueProtocolFeeBpt`, from the chain; zero where the store lacks it) and `apply` adds what the
 * swap accrues, at the cached protocol swap fee percentage (`getCachedProtocolSwapFeePercentage()`,
 * stored as protocolSwapFeeCache): for a BPT swap the fee share of the BPT amount, for a token swap
 * the share of the invariant growth times the virtual supply. Its token rates are the pool's
 * cached ones: a v1 swap upscales with them before it refreshes an expired cache, so only a later
 * swap sees the provider's new rate (the refresh is a pool event the follower rereads on).
 */

export interface ComposableStableState extends PoolState {
  /** BPT total supply (pre-minted; grows only by protocol fee BPT minted around BPT swaps). */
  totalSupply: bigint;
  /** The protocol fee basis, where the store holds it (null: no protocol fee is assumed due). */
  fees: FeeState | null;
  /** StablePhantom: the protocol fee BPT owed and not minted, which counts as circulating (else 0). */
  phantomDue: bigint;
}

export interface FeeState {
  readonly basis: FeeBasis;
  /** Old rates, in the math's token order (without the BPT); null where a token has no provider. */
  readonly oldRates: readonly (bigint | null)[];
  /** Memo of the fee BPT due at `dueAt` balances (swap() does not change the state). */
  dueAt?: readonly bigint[];
  due?: bigint;
}

export type Family = 'phantom' | 'composable';

export class ComposableStableModel extends V2VaultPool<ComposableStableState> {
  readonly params: StableParams;
  readonly family: Family;
  readonly bptIndex: number;
  readonly scalingFactors: readonly bigint[];
  private readonly totalSupply: bigint;
  private readonly rates: readonly number[];
  readonly feeRules: FeeRules;
  /** Current cached rates (18 decimals) and exemptions, in the math's token order. */
  private readonly currentRates: readonly bigint[];
  private readonly exempt: readonly boolean[];
  private readonly fees: FeeState | null;
  /** StablePhantom: due protocol fee BPT as stored, and the cached protocol swap fee percentage. */
  private readonly phantomDue: bigint;
  private readonly phantomPct: bigint;

  /** `generation` defaults to the family's StableMath (2021 for StablePhantom, 2022 otherwise). */
  constructor(
    spec: ComposableStableSpec,
    family: Family,
    generation: S.StableGeneration = family === 'phantom' ? '2021' : '2022',
  ) {
    super(spec);
    this.family = family;
    this.bptIndex = this.tokens.indexOf(this.address);
    if (this.bptIndex < 0) throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} does not list its own BPT`);
    if (this.tokens.length < 3 || this.tokens.length > 6)
      throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has ${this.tokens.length} tokens`);
    if (this.decimals.some((d) => !Number.isInteger(d) || d < 0 || d > 18))
      throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has token decimals outside 0..18`);
    if (this.decimals[this.bptIndex] !== 18)
      throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has a BPT without 18 decimals`);
    // The BPT has no rate provider: its scaling factor is 1 whatever rate the store lists for it.
    this.scalingFactors = spec.tokens.map((t, k) =>
      k === this.bptIndex ? ONE : scalingFactor(t.decimals, t.priceRate),
    );
    if (this.scalingFactors.some((sf) => sf <= 0n))
      throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has a zero token rate`);
    this.params = { generation, amp: parseAmp(spec), fee: parseFee(spec) };
    // The stored totalShares is the virtual supply; the total supply is that plus the Vault's BPT.
    this.totalSupply = decimalToUnits(spec.totalShares, 18) + this.balances[this.bptIndex]!;
    this.rates = this.scalingFactors.map((sf, k) => floatRate(sf, this.decimals[k]!));
    this.feeRules = feeRulesOf(spec.poolTypeVersion ?? 1);
    const others = spec.tokens.filter((_, k) => k !== this.bptIndex);
    this.currentRates = others.map((t) => parseOptional(t.priceRate, 18) ?? ONE);
    this.exempt = others.map((t) => t.isExemptFromYieldProtocolFee === true);
    this.fees = family === 'composable' ? feeStateOf(spec, others) : null;
    const phantom = family === 'phantom';
    this.phantomDue = phantom ? (parseOptional(spec.dueProtocolFeeBpt, 18) ?? 0n) : 0n;
    const pct = phantom ? (parseOptional(spec.protocolSwapFeeCache, 18) ?? 0n) : 0n;
    this.phantomPct = pct < ONE ? pct : 0n;
  }

  protected stateAt(balances: bigint[]): ComposableStableState {
    return {
      balances,
      totalSupply: this.totalSupply,
      fees: this.fees && { basis: this.fees.basis, oldRates: this.fees.oldRates },
      phantomDue: this.phantomDue,
    };
  }

  override cloneState(state: ComposableStableState): ComposableStableState {
    // The fee state's memo belongs to the balances of one state: copied, not shared.
    return {
      balances: [...state.balances],
      totalSupply: state.totalSupply,
      fees: state.fees && { ...state.fees },
      phantomDue: state.phantomDue,
    };
  }

  /**
   * Protocol fee BPT the pool mints before a BPT swap at the state's balances (0 without a fee
   * basis). Throws Revert where the contract's fee arithmetic reverts.
   */
  dueProtocolFees(state: ComposableStableState): bigint {
    const fees = state.fees;
    if (!fees || this.family !== 'composable') return 0n;
    const b = state.balances;
    if (
      fees.dueAt &&
      fees.due !== undefined &&
      fees.dueAt.length === b.length &&
      fees.dueAt.every((v, k) => v === b[k])
    )
      return fees.due;
    const due = dueProtocolFeeBpt(
      this.feeRules,
      this.upscaled(state),
      this.feeTokens(fees),
      fees.basis,
      this.virtualSupply(state),
    );
    fees.dueAt = [...b];
    fees.due = due;
    return due;
  }

  /** The supply a BPT swap is priced on: circulating BPT plus the protocol fee BPT minted first. */
  preSwapSupply(state: ComposableStableState): bigint {
    return this.virtualSupply(state) + this.dueProtocolFees(state);
  }

  private feeTokens(fees: FeeState): FeeToken[] {
    return this.currentRates.map((currentRate, k) => ({
      oldRate: fees.oldRates[k] ?? null,
      currentRate,
      exempt: this.exempt[k]!,
    }));
  }

  protected poolSwap(state: ComposableStableState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    if (answeredBeforeMath(state.balances, kind, i, j, amount)) return 0n;
    return this.onSwap(state, kind, i, j, amount);
  }

  override apply(state: ComposableStableState, i: number, j: number, amountIn: bigint, amountOut: bigint): void {
    if (this.family === 'phantom' && this.phantomPct > 0n)
      state.phantomDue += this.phantomAccrual(state, i, j, amountIn, amountOut);
    const fees = state.fees;
    if (fees && this.family === 'composable' && (i === this.bptIndex || j === this.bptIndex)) {
      // Before the swap: fees due are minted. After: the swap's own protocol fee, and a new basis.
      const join = j === this.bptIndex;
      const k = this.skip(join ? i : j);
      const before = this.upscaled(state);
      const preSupply = this.preSwapSupply(state);
      const { amp } = this.params;
      const preInvariant = S.calculateInvariant('2022', amp, before, true);
      const after = [...before];
      const delta = this.upscaledDelta(state, join, i, j, amountIn, amountOut);
      after[k] = join ? after[k]! + delta : after[k]! - delta;
      const postSupply = join ? preSupply + amountOut : preSupply - amountIn;
      const postInvariant = S.calculateInvariant('2022', amp, after, true);
      const minted = protocolFeeAfterJoinExit(
        this.feeRules,
        preInvariant,
        postInvariant,
        preSupply,
        postSupply,
        fees.basis.swapPct,
      );
      state.totalSupply = state.totalSupply + (preSupply - this.virtualSupply(state)) + minted;
      state.fees = {
        basis: { ...fees.basis, lastAmp: amp, lastInvariant: postInvariant },
        oldRates: fees.oldRates.map((r, m) => (r === null ? null : this.currentRates[m]!)),
      };
    }
    super.apply(state, i, j, amountIn, amountOut);
  }

  /**
   * The protocol fee BPT a StablePhantom swap adds to what the pool owes (`_trackDueProtocolFeeByBpt`,
   * `_trackDueProtocolFeeByInvariantIncrement`), measured on the state before it. Which kind the
   * swap was is read from the raw amounts (given in where that reproduces them).
   */
  private phantomAccrual(
    state: ComposableStableState,
    i: number,
    j: number,
    amountIn: bigint,
    amountOut: bigint,
  ): bigint {
    const { generation, amp, fee } = this.params;
    const c = complement(fee);
    const pct = this.phantomPct;
    const feeOn = (bpt: bigint) => mulDown(divUp(bpt, c) - bpt, pct);
    let givenIn: boolean;
    try {
      givenIn = this.swap(state, 'givenIn', i, j, amountIn) === amountOut;
    } catch (e) {
      if (!(e instanceof Revert)) throw e;
      givenIn = false;
    }
    const sf = this.scalingFactors;
    const up = this.upscaled(state);
    const supply = this.virtualSupply(state);
    // BPT out: the amount out either way (the BPT's scaling factor is 1).
    if (j === this.bptIndex) return feeOn(amountOut);
    if (i === this.bptIndex) {
      if (givenIn) return feeOn(amountIn - mulUp(amountIn, fee));
      const invariant = S.calculateInvariant(generation, amp, up, true);
      const amounts = up.map((_, m) => (m === this.skip(j) ? mulDown(amountOut, sf[j]!) : 0n));
      return feeOn(S.bptInGivenExactTokensOut(generation, amp, up, amounts, supply, invariant, 0n));
    }
    const a = this.skip(i);
    const b = this.skip(j);
    const invariant = S.calculateInvariant(generation, amp, up, true);
    let upIn: bigint;
    let upOut: bigint;
    if (givenIn) {
      upIn = mulDown(amountIn - mulUp(amountIn, fee), sf[i]!);
      upOut = S.outGivenIn(amp, up, a, b, upIn, invariant);
    } else {
      upOut = mulDown(amountOut, sf[j]!);
      upIn = S.inGivenOut(amp, up, a, b, upOut, invariant);
    }
    const after = [...up];
    after[a] = after[a]! + divUp(upIn, c);
    after[b] = after[b]! - upOut;
    const ratio = divDown(S.calculateInvariant(generation, amp, after, false), invariant);
    return ratio > ONE ? mulDown(pct, mulDown(ratio - ONE, supply)) : 0n;
  }

  /**
   * The upscaled token amount a BPT swap moved, as the pool added it to (join) or took it from
   * (exit) its balances: given in, the raw amount in upscaled (join) or the math's amount out
   * (exit); given out, the math's amount in (join) or the raw amount out upscaled (exit). Which
   * kind it was is read from the raw amounts (given in where that reproduces them).
   */
  private upscaledDelta(
    state: ComposableStableState,
    join: boolean,
    i: number,
    j: number,
    amountIn: bigint,
    amountOut: bigint,
  ): bigint {
    const sf = this.scalingFactors;
    const tryQuote = (kind: 'givenIn', amount: bigint): bigint | null => {
      try {
        return this.swap(state, kind, i, j, amount);
      } catch (e) {
        if (e instanceof Revert) return null;
        throw e;
      }
    };
    if (join) {
      if (tryQuote('givenIn', amountIn) === amountOut) return mulDown(amountIn, sf[i]!);
      return this.joinAmountIn(state, i, amountOut);
    }
    const out = tryQuote('givenIn', amountIn) === amountOut ? this.exitAmountOut(state, j, amountIn) : null;
    return out ?? mulDown(amountOut, sf[j]!);
  }

  private joinAmountIn(state: ComposableStableState, i: number, bptOut: bigint): bigint {
    const { amp, fee } = this.params;
    const up = this.upscaled(state);
    return S.tokenInGivenExactBptOut(
      amp,
      up,
      this.skip(i),
      bptOut,
      this.preSwapSupply(state),
      S.calculateInvariant('2022', amp, up, true),
      fee,
    );
  }

  private exitAmountOut(state: ComposableStableState, j: number, bptIn: bigint): bigint {
    const { amp, fee } = this.params;
    const up = this.upscaled(state);
    return S.tokenOutGivenExactBptIn(
      amp,
      up,
      this.skip(j),
      bptIn,
      this.preSwapSupply(state),
      S.calculateInvariant('2022', amp, up, true),
      fee,
    );
  }

  maxAmount(state: ComposableStableState, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    let candidate: bigint;
    if (kind === 'givenIn') {
      // Bounded by the Vault's 112-bit balances; BPT in by the supply it redeems (after the fee
      // in a phantom pool, which takes it off the BPT first).
      candidate = MAX_BALANCE - state.balances[i]!;
      if (i === this.bptIndex) {
        const supply = this.family === 'phantom' ? this.virtualSupply(state) : this.preSwapSupplyOr(state);
        candidate = minBig(
          candidate,
          this.family === 'phantom' ? divUp(supply, complement(this.params.fee)) : supply - 1n,
        );
      }
    } else {
      candidate = state.balances[j]! - 1n;
      if (j === this.bptIndex) {
        // BPT out grows the invariant without bound: start where it would take the Vault's whole
        // 112 bits of the token in, at the BPT's value in that token.
        const value = this.bptValueIn(state, i);
        if (value > 0)
          candidate = minBig(candidate, BigInt(Math.floor(Number(MAX_BALANCE - state.balances[i]!) / value)));
      }
    }
    return this.largestAccepted(state, kind, i, j, candidate);
  }

  spotPrice(state: ComposableStableState, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    const x = floatBalances(this.upscaled(state));
    if (x.some((v) => !(v > 0))) return Infinity;
    const shape = S.stableShape(Number(this.params.amp) / 1000, x);
    const fee = Number(this.params.fee) / 1e18;
    const supply = Number(this.preSwapSupplyOr(state)) / 1e18;
    const total = x.reduce((a, v) => a + v, 0);
    // Marginal BPT per upscaled unit of token k joining (or leaving), before fees.
    const bptPerToken = (k: number) => (supply / shape.invariant) * (shape.grad[k]! / shape.dfdD);
    // Fee share of a single-token join/exit at the margin: the fee applies to the non-proportional
    // part (1 - weight) in composable pools, to the whole amount in phantom pools.
    const feeShare = (k: number) => (this.family === 'phantom' ? fee : fee * (1 - x[k]! / total));
    let upscaledPrice: number;
    if (j === this.bptIndex) {
      const k = this.skip(i);
      upscaledPrice = 1 / (bptPerToken(k) * (1 - feeShare(k)));
    } else if (i === this.bptIndex) {
      const k = this.skip(j);
      upscaledPrice = bptPerToken(k) / (1 - feeShare(k));
    } else {
      upscaledPrice = shape.grad[this.skip(j)]! / shape.grad[this.skip(i)]! / (1 - fee);
    }
    return withRates(upscaledPrice, this.rates, i, j);
  }

  /** The circulating BPT the pool prices joins and exits on (a phantom pool's owed fee BPT counts). */
  virtualSupply(state: ComposableStableState): bigint {
    return state.totalSupply - state.balances[this.bptIndex]! + state.phantomDue;
  }

  private onSwap(state: ComposableStableState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    const noBpt = this.upscaled(state);
    const sf = this.scalingFactors;
    if (i !== this.bptIndex && j !== this.bptIndex)
      return tokenSwap(this.params, noBpt, this.skip(i), this.skip(j), sf[i]!, sf[j]!, kind, amount);
    if (this.virtualSupply(state) <= 0n) throw new Revert('no BPT in circulation (BAL#004)');
    // Protocol fee BPT is minted first (composable pools; zero without a fee basis).
    const supply = this.family === 'phantom' ? this.virtualSupply(state) : this.preSwapSupply(state);
    const { generation, amp, fee } = this.params;
    const invariant = S.calculateInvariant(generation, amp, noBpt, true);
    const single = (k: number, value: bigint) => noBpt.map((_, m) => (m === k ? value : 0n));
    if (this.family === 'phantom') {
      // The fee is charged like a swap's, outside the join/exit formula (which runs fee-less).
      if (kind === 'givenIn') {
        const given = mulDown(amount - mulUp(amount, fee), sf[i]!);
        const out =
          j === this.bptIndex
            ? S.bptOutGivenExactTokensIn(generation, amp, noBpt, single(this.skip(i), given), supply, invariant, 0n)
            : S.tokenOutGivenExactBptIn(amp, noBpt, this.skip(j), given, supply, invariant, 0n);
        return divDown(out, sf[j]!);
      }
      const given = mulDown(amount, sf[j]!);
      const needed =
        j === this.bptIndex
          ? S.tokenInGivenExactBptOut(amp, noBpt, this.skip(i), given, supply, invariant, 0n)
          : S.bptInGivenExactTokensOut(generation, amp, noBpt, single(this.skip(j), given), supply, invariant, 0n);
      return divUp(divUp(needed, sf[i]!), complement(fee));
    }
    const join = j === this.bptIndex;
    let result: bigint;
    let tokenDelta: bigint;
    if (kind === 'givenIn') {
      const given = mulDown(amount, sf[i]!);
      const out = join
        ? S.bptOutGivenExactTokensIn(generation, amp, noBpt, single(this.skip(i), given), supply, invariant, fee)
        : S.tokenOutGivenExactBptIn(amp, noBpt, this.skip(j), given, supply, invariant, fee);
      result = divDown(out, sf[j]!);
      tokenDelta = join ? given : out;
    } else {
      const given = mulDown(amount, sf[j]!);
      const needed = join
        ? S.tokenInGivenExactBptOut(amp, noBpt, this.skip(i), given, supply, invariant, fee)
        : S.bptInGivenExactTokensOut(generation, amp, noBpt, single(this.skip(j), given), supply, invariant, fee);
      result = divUp(needed, sf[i]!);
      tokenDelta = join ? needed : given;
    }
    // The pool then measures the invariant after the join or exit (for protocol fees), which
    // reverts where it overflows or does not converge: far beyond any pool's depth, but a quote
    // there must revert too.
    const after = [...noBpt];
    const k = this.skip(join ? i : j);
    after[k] = join ? after[k]! + tokenDelta : after[k]! - tokenDelta;
    S.calculateInvariant(generation, amp, after, true);
    return result;
  }

  /** preSwapSupply for searches and prices: the virtual supply where the fee arithmetic reverts. */
  private preSwapSupplyOr(state: ComposableStableState): bigint {
    try {
      return this.preSwapSupply(state);
    } catch (e) {
      if (e instanceof Revert) return this.virtualSupply(state);
      throw e;
    }
  }

  /** Upscaled balances without the BPT: what StableMath sees. */
  private upscaled(state: ComposableStableState): bigint[] {
    const out: bigint[] = [];
    for (let k = 0; k < state.balances.length; k++)
      if (k !== this.bptIndex) out.push(mulDown(state.balances[k]!, this.scalingFactors[k]!));
    return out;
  }

  /** Index among the tokens without the BPT (the math's indices). */
  private skip(k: number): number {
    return k < this.bptIndex ? k : k - 1;
  }

  /** Raw units of token `i` one BPT is worth at the margin (for a search's starting point). */
  private bptValueIn(state: ComposableStableState, i: number): number {
    const x = floatBalances(this.upscaled(state));
    if (x.some((v) => !(v > 0))) return 0;
    const shape = S.stableShape(Number(this.params.amp) / 1000, x);
    const supply = Number(this.preSwapSupplyOr(state)) / 1e18;
    const upscaledPerBpt = shape.invariant / supply / (shape.grad[this.skip(i)]! / shape.dfdD);
    return ((upscaledPerBpt / this.rates[i]!) * 10 ** this.decimals[i]!) / 1e18;
  }
}

const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** An optional decimal string in units, or null where absent or not a plain non-negative number. */
function parseOptional(v: string | null | undefined, decimals: number): bigint | null {
  if (v === null || v === undefined || v === '') return null;
  try {
    const units = decimalToUnits(v, decimals);
    return units >= 0n ? units : null;
  } catch {
    return null;
  }
}

/**
 * The protocol fee basis of a stored ComposableStable pool, or null when the store lacks the last
 * join/exit data or the swap fee percentage (old stored pools): then no fee is assumed due.
 */
function feeStateOf(
  spec: ComposableStableSpec,
  others: readonly ComposableStableSpec['tokens'][number][],
): FeeState | null {
  const lastAmp = parseOptional(spec.lastJoinExitAmp, 3);
  const lastInvariant = parseOptional(spec.lastPostJoinExitInvariant, 18);
  const swapPct = parseOptional(spec.protocolSwapFeeCache, 18);
  if (lastAmp === null || lastInvariant === null || swapPct === null || lastAmp < S.AMP_PRECISION) return null;
  const yieldPct = parseOptional(declaredParam(spec, 'protocolYieldFeeCache'), 18) ?? 0n;
  if (swapPct >= ONE || yieldPct >= ONE) return null;
  const oldRates = others.map((t) => {
    const r = parseOptional(t.oldPriceRate, 18);
    return r !== null && r > 0n ? r : null;
  });
  return { basis: { lastAmp, lastInvariant, swapPct, yieldPct }, oldRates };
}

/** ComposableStable v1-v6 (its definition's versions; see the notes above). */
export const createComposableStableModel: ModelFactory<ComposableStableSpec> = (spec) =>
  new ComposableStableModel(spec, 'composable');

/** StablePhantom v1: ComposableStable's swap arithmetic with its own fee and rate rules. */
export const createStablePhantomModel: ModelFactory<ComposableStableSpec> = (spec) =>
  new ComposableStableModel(spec, 'phantom');
