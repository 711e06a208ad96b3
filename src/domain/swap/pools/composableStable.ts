import { decimalToUnits } from '../../decimal';
import { complement, divDown, divUp, mulDown, mulUp, ONE } from '../math/fixedPoint';
import * as S from '../math/stableMath';
import { PoolMathError, UnsupportedPoolError, type ModelFactory, type PoolModel, type PoolSpec, type PoolState, type SwapKind } from '../poolModel';
import { largestValid } from './limits';
import { floatBalances, MAX_BALANCE, parseAmp, parseFee, poolMath, rateOf, tokenSwap, type StableParams } from './stable';
import { scalingFactor } from './weighted';

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
 *   differ in how protocol fees are measured and paid (v2 charges them on join/exit invariant
 *   growth differently, v5 bounds the yield-fee invariants and drops per-token exemptions), in
 *   proportional joins/exits (v2+) and in reentrancy guards (v3+), none of which changes what a
 *   swap pays when no protocol fee is due; v6 only lengthens the pause windows.
 *
 * Protocol fees: before a BPT swap a ComposableStable pool mints the protocol's share of the swap
 * fees and yield earned since the last join or exit (measured against the invariant and token rates
 * it stored then), which grows the supply the swap is priced on; a StablePhantom pool counts the
 * fee BPT it owes in its virtual supply. Neither figure is in the store, so the model assumes none
 * is due: exact with zero protocol fee percentages (as on the devnet), otherwise BPT swaps are
 * priced on a slightly smaller supply than the pool's.
 */

export interface ComposableStableState extends PoolState {
  /** BPT total supply (pre-minted, constant across swaps). */
  totalSupply: bigint;
}

export type Family = 'phantom' | 'composable';

export class ComposableStableModel implements PoolModel<ComposableStableState> {
  readonly id: string;
  readonly address: string;
  readonly poolType: string;
  readonly tokens: readonly string[];
  readonly decimals: readonly number[];
  readonly params: StableParams;
  readonly family: Family;
  readonly bptIndex: number;
  readonly scalingFactors: readonly bigint[];
  private readonly balances: readonly bigint[];
  private readonly totalSupply: bigint;
  private readonly rates: readonly number[];

  /** `generation` defaults to the family's StableMath (2021 for StablePhantom, 2022 otherwise). */
  constructor(spec: PoolSpec, family: Family, generation: S.StableGeneration = family === 'phantom' ? '2021' : '2022') {
    this.id = spec.id.toLowerCase();
    this.address = spec.address.toLowerCase();
    this.poolType = spec.poolType;
    this.family = family;
    this.tokens = spec.tokens.map((t) => t.address.toLowerCase());
    this.decimals = spec.tokens.map((t) => t.decimals);
    this.bptIndex = this.tokens.indexOf(this.address);
    if (this.bptIndex < 0) throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} does not list its own BPT`);
    if (this.tokens.length < 3 || this.tokens.length > 6) throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has ${this.tokens.length} tokens`);
    if (this.decimals.some((d) => !Number.isInteger(d) || d < 0 || d > 18)) throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has token decimals outside 0..18`);
    if (this.decimals[this.bptIndex] !== 18) throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has a BPT without 18 decimals`);
    // The BPT has no rate provider: its scaling factor is 1 whatever rate the store lists for it.
    this.scalingFactors = spec.tokens.map((t, k) => (k === this.bptIndex ? ONE : scalingFactor(t.decimals, t.priceRate)));
    if (this.scalingFactors.some((sf) => sf <= 0n)) throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has a zero token rate`);
    this.params = { generation, amp: parseAmp(spec), fee: parseFee(spec) };
    this.balances = spec.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
    // The stored totalShares is the virtual supply; the total supply is that plus the Vault's BPT.
    this.totalSupply = decimalToUnits(spec.totalShares, 18) + this.balances[this.bptIndex]!;
    this.rates = this.scalingFactors.map((sf, k) => rateOf(sf, this.decimals[k]!));
  }

  initialState(): ComposableStableState {
    return { balances: [...this.balances], totalSupply: this.totalSupply };
  }

  cloneState(state: ComposableStableState): ComposableStableState {
    return { balances: [...state.balances], totalSupply: state.totalSupply };
  }

  canSwap(i: number, j: number): boolean {
    return i !== j && this.isIndex(i) && this.isIndex(j);
  }

  swap(state: ComposableStableState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    if (!this.canSwap(i, j)) throw new PoolMathError(`no swap from token ${i} to ${j} in this pool`);
    if (amount < 0n) throw new PoolMathError('negative amount');
    // The Vault refuses zero amounts; searches probing zero get zero.
    if (amount === 0n) return 0n;
    const b = state.balances;
    if (kind === 'givenOut' && amount >= b[j]!) throw new PoolMathError('amount out not below the pool balance (BAL#001)');
    if (kind === 'givenIn' && b[i]! + amount > MAX_BALANCE) throw new PoolMathError('balance above 2^112 (BAL#526)');
    const result = poolMath(() => this.onSwap(state, kind, i, j, amount));
    if (kind === 'givenIn' && result > b[j]!) throw new PoolMathError('amount out above the pool balance (BAL#001)');
    if (kind === 'givenOut' && b[i]! + result > MAX_BALANCE) throw new PoolMathError('balance above 2^112 (BAL#526)');
    return result;
  }

  apply(state: ComposableStableState, i: number, j: number, amountIn: bigint, amountOut: bigint): void {
    state.balances[i] = state.balances[i]! + amountIn;
    state.balances[j] = state.balances[j]! - amountOut;
  }

  maxAmount(state: ComposableStableState, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    let candidate: bigint;
    if (kind === 'givenIn') {
      // Bounded by the Vault's 112-bit balances; BPT in by the supply it redeems (after the fee
      // in a phantom pool, which takes it off the BPT first).
      candidate = MAX_BALANCE - state.balances[i]!;
      if (i === this.bptIndex) {
        const supply = this.virtualSupply(state);
        candidate = minBig(candidate, this.family === 'phantom' ? divUp(supply, complement(this.params.fee)) : supply - 1n);
      }
    } else {
      candidate = state.balances[j]! - 1n;
      if (j === this.bptIndex) {
        // BPT out grows the invariant without bound: start where it would take the Vault's whole
        // 112 bits of the token in, at the BPT's value in that token.
        const value = this.bptValueIn(state, i);
        if (value > 0) candidate = minBig(candidate, BigInt(Math.floor(Number(MAX_BALANCE - state.balances[i]!) / value)));
      }
    }
    return largestValid(candidate, (a) => this.accepts(state, kind, i, j, a));
  }

  spotPrice(state: ComposableStableState, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    const x = floatBalances(this.upscaled(state));
    if (x.some((v) => !(v > 0))) return Infinity;
    const shape = S.stableShape(Number(this.params.amp) / 1000, x);
    const fee = Number(this.params.fee) / 1e18;
    const supply = Number(this.virtualSupply(state)) / 1e18;
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
      upscaledPrice = (shape.grad[this.skip(j)]! / shape.grad[this.skip(i)]!) / (1 - fee);
    }
    return upscaledPrice * (this.rates[j]! / this.rates[i]!);
  }

  /** The circulating BPT the pool prices joins and exits on. */
  virtualSupply(state: ComposableStableState): bigint {
    return state.totalSupply - state.balances[this.bptIndex]!;
  }

  private onSwap(state: ComposableStableState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    const noBpt = this.upscaled(state);
    const sf = this.scalingFactors;
    if (i !== this.bptIndex && j !== this.bptIndex) return tokenSwap(this.params, noBpt, this.skip(i), this.skip(j), sf[i]!, sf[j]!, kind, amount);
    const supply = this.virtualSupply(state);
    if (supply <= 0n) throw new PoolMathError('no BPT in circulation (BAL#004)');
    const { generation, amp, fee } = this.params;
    const invariant = S.calculateInvariant(generation, amp, noBpt, true);
    const single = (k: number, value: bigint) => noBpt.map((_, m) => (m === k ? value : 0n));
    if (this.family === 'phantom') {
      // The fee is charged like a swap's, outside the join/exit formula (which runs fee-less).
      if (kind === 'givenIn') {
        const given = mulDown(amount - mulUp(amount, fee), sf[i]!);
        const out = j === this.bptIndex
          ? S.bptOutGivenExactTokensIn(generation, amp, noBpt, single(this.skip(i), given), supply, invariant, 0n)
          : S.tokenOutGivenExactBptIn(amp, noBpt, this.skip(j), given, supply, invariant, 0n);
        return divDown(out, sf[j]!);
      }
      const given = mulDown(amount, sf[j]!);
      const needed = j === this.bptIndex
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

  /** Upscaled balances without the BPT: what StableMath sees. */
  private upscaled(state: ComposableStableState): bigint[] {
    const out: bigint[] = [];
    for (let k = 0; k < state.balances.length; k++) if (k !== this.bptIndex) out.push(mulDown(state.balances[k]!, this.scalingFactors[k]!));
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
    const supply = Number(this.virtualSupply(state)) / 1e18;
    const upscaledPerBpt = shape.invariant / supply / (shape.grad[this.skip(i)]! / shape.dfdD);
    return (upscaledPerBpt / this.rates[i]!) * 10 ** this.decimals[i]! / 1e18;
  }

  private isIndex(i: number): boolean {
    return Number.isInteger(i) && i >= 0 && i < this.tokens.length;
  }

  private accepts(state: ComposableStableState, kind: SwapKind, i: number, j: number, amount: bigint): boolean {
    try {
      this.swap(state, kind, i, j, amount);
      return true;
    } catch (e) {
      if (e instanceof PoolMathError) return false;
      throw e;
    }
  }
}

const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);

/** ComposableStable versions whose swap arithmetic this model carries (see the notes above). */
const COMPOSABLE_VERSIONS = new Set([1, 2, 3, 4, 5, 6]);

export const createComposableStableModel: ModelFactory = (spec) => {
  const version = spec.poolTypeVersion ?? 1;
  if (spec.poolType === 'StablePhantom' && version === 1) return new ComposableStableModel(spec, 'phantom');
  if (spec.poolType === 'ComposableStable' && COMPOSABLE_VERSIONS.has(version)) return new ComposableStableModel(spec, 'composable');
  throw new UnsupportedPoolError(`${spec.poolType} v${version} is not carried by the composable stable model`);
};
