import { decimalToUnits } from '../../decimal';
import { divDown, divUp, mulDown, ONE } from '../../swap/math/fixedPoint';
import * as L from './linearMath';
import { Revert, UnsupportedPoolError, type ModelFactory, type PoolState, type SwapKind } from '../../swap/poolModel';
import { MAX_BALANCE, V2VaultPool, withRates } from '../../protocols/v2/vaultPool';
import type { LinearSpec } from './linearParams';

/**
 * Linear pools (AaveLinear, ERC4626Linear, EulerLinear, GearboxLinear, YearnLinear, ... every
 * `*Linear`): the swap arithmetic of LinearPool.onSwap, which every generation and wrapper shares;
 * only the wrapped token's rate source differs, and the store keeps that rate as the wrapped
 * token's priceRate. The pool holds its own pre-minted BPT; BPT <-> main/wrapped swaps are how
 * liquidity enters and leaves.
 *
 * Virtual supply (what the math calls the BPT supply) is the BPT total supply minus the Vault's BPT
 * balance. The stored totalShares is that virtual supply, so the state keeps the constant total
 * supply (totalShares + BPT balance) and derives the virtual supply from the BPT balance as it
 * moves. The first generation computes it as 2^112 - 1 minus the balance, which is the same number
 * as long as no BPT was burned (recovery-mode exits only exist from the second generation on).
 */

type Role = 'main' | 'wrapped' | 'bpt';

export interface LinearState extends PoolState {
  /** BPT total supply (pre-minted, constant across swaps). */
  totalSupply: bigint;
}

function scaleOf(decimals: number): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 18)
    throw new UnsupportedPoolError(`token decimals ${decimals} are not supported`);
  return ONE * 10n ** BigInt(18 - decimals);
}

export class LinearModel extends V2VaultPool<LinearState> {
  readonly params: L.LinearParams;
  readonly bptIndex: number;
  readonly mainIndex: number;
  readonly wrappedIndex: number;
  /** Upscaling factors in the pool's token order (the wrapped one includes its rate). */
  readonly scalingFactors: readonly bigint[];
  private readonly roles: readonly Role[];
  private readonly totalSupply: bigint;
  /** Human units -> upscaled units factor of each token as a float (the wrapped token's rate; 1 for main and BPT). */
  private readonly rates: readonly number[];

  constructor(spec: LinearSpec) {
    super(spec);
    if (this.tokens.length !== 3)
      throw new UnsupportedPoolError(`linear pool ${spec.id} has ${this.tokens.length} tokens, not 3`);
    this.bptIndex = this.tokens.indexOf(this.address);
    const main = spec.mainIndex;
    const wrapped = spec.wrappedIndex;
    if (
      this.bptIndex < 0 ||
      main == null ||
      wrapped == null ||
      new Set([this.bptIndex, main, wrapped]).size !== 3 ||
      main > 2 ||
      wrapped > 2 ||
      main < 0 ||
      wrapped < 0
    ) {
      throw new UnsupportedPoolError(`linear pool ${spec.id} lacks a consistent BPT/main/wrapped index`);
    }
    if (spec.upperTarget == null) throw new UnsupportedPoolError(`linear pool ${spec.id} has no upperTarget`);
    this.mainIndex = main;
    this.wrappedIndex = wrapped;
    const roles: Role[] = ['bpt', 'bpt', 'bpt'];
    roles[main] = 'main';
    roles[wrapped] = 'wrapped';
    this.roles = roles;
    const factors = [ONE, ONE, ONE];
    factors[main] = scaleOf(this.decimals[main]!);
    const rate = decimalToUnits(spec.tokens[wrapped]!.priceRate ?? '1', 18);
    if (rate <= 0n) throw new UnsupportedPoolError(`linear pool ${spec.id} has a non-positive wrapped token rate`);
    factors[wrapped] = mulDown(scaleOf(this.decimals[wrapped]!), rate);
    this.scalingFactors = factors;
    this.params = {
      fee: decimalToUnits(spec.swapFee, 18),
      // Targets are kept in upscaled (18-decimal) main token units.
      lowerTarget: decimalToUnits(spec.lowerTarget ?? '0', 18),
      upperTarget: decimalToUnits(spec.upperTarget, 18),
    };
    this.totalSupply = decimalToUnits(spec.totalShares, 18) + this.balances[this.bptIndex]!;
    // Float rates divide by the whole base (not by 1e18 then the decimals' power): spot prices
    // drive the split search, so their last bit stays as the search was tuned with.
    this.rates = factors.map((sf, k) => Number(sf) / Number(k === this.bptIndex ? ONE : scaleOf(this.decimals[k]!)));
  }

  protected stateAt(balances: bigint[]): LinearState {
    return { balances, totalSupply: this.totalSupply };
  }

  protected override refusal(i: number, j: number): Revert {
    return new Revert(`no swap from token ${i} to ${j} in a linear pool`);
  }

  protected poolSwap(state: LinearState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    if (kind === 'givenIn')
      return divDown(
        this.calc(state, 'givenIn', i, j, mulDown(amount, this.scalingFactors[i]!)),
        this.scalingFactors[j]!,
      );
    if (amount > state.balances[j]!) throw new Revert('amount out above the pool balance (BAL#001)');
    const inUp = this.calc(state, 'givenOut', i, j, mulDown(amount, this.scalingFactors[j]!));
    return divUp(inUp, this.scalingFactors[i]!);
  }

  maxAmount(state: LinearState, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    const maxOut = this.maxOut(state, i, j);
    if (kind === 'givenOut') return maxOut;
    const cap = MAX_BALANCE - state.balances[i]!;
    let candidate = cap;
    const needed = this.tryQuote(state, 'givenOut', i, j, maxOut);
    if (needed !== undefined && needed < cap) candidate = needed;
    return this.largestAccepted(state, 'givenIn', i, j, candidate);
  }

  spotPrice(state: LinearState, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    const up = state.balances.map((b, k) => mulDown(b, this.scalingFactors[k]!));
    const fee = Number(this.params.fee) / 1e18;
    const main = up[this.mainIndex]!;
    const supply = state.totalSupply - state.balances[this.bptIndex]!;
    const value = (k: number, entering: boolean): number => {
      const role = this.roles[k];
      if (role === 'wrapped') return 1;
      if (role === 'bpt') {
        if (supply <= 0n) return 1;
        const inv = L.toNominal(main, this.params) + up[this.wrappedIndex]!;
        return Number(inv) / Number(supply);
      }
      // Slope of the nominal main balance on the side the swap moves it to.
      const below = entering ? main < this.params.lowerTarget : main <= this.params.lowerTarget;
      const above = entering ? main >= this.params.upperTarget : main > this.params.upperTarget;
      return below ? 1 + fee : above ? 1 - fee : 1;
    };
    // Upscaled amount in per upscaled amount out, then into human units of each token.
    const upscaledPrice = value(j, false) / value(i, true);
    return withRates(upscaledPrice, this.rates, i, j);
  }

  /** LinearPool._onSwapGivenIn / _onSwapGivenOut on upscaled balances and amount. */
  private calc(state: LinearState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    const p = this.params;
    const main = mulDown(state.balances[this.mainIndex]!, this.scalingFactors[this.mainIndex]!);
    const wrapped = mulDown(state.balances[this.wrappedIndex]!, this.scalingFactors[this.wrappedIndex]!);
    const supply = state.totalSupply - state.balances[this.bptIndex]!;
    if (supply < 0n) throw new Revert('BPT balance above the total supply (BAL#001)');
    const pair = `${this.roles[i]}>${this.roles[j]}`;
    if (kind === 'givenIn') {
      switch (pair) {
        case 'main>wrapped':
          return L.wrappedOutPerMainIn(amount, main, p);
        case 'main>bpt':
          return L.bptOutPerMainIn(amount, main, wrapped, supply, p);
        case 'wrapped>main':
          return L.mainOutPerWrappedIn(amount, main, p);
        case 'wrapped>bpt':
          return L.bptOutPerWrappedIn(amount, main, wrapped, supply, p);
        case 'bpt>main':
          return L.mainOutPerBptIn(amount, main, wrapped, supply, p);
        case 'bpt>wrapped':
          return L.wrappedOutPerBptIn(amount, main, wrapped, supply, p);
      }
    } else {
      switch (pair) {
        case 'main>wrapped':
          return L.mainInPerWrappedOut(amount, main, p);
        case 'main>bpt':
          return L.mainInPerBptOut(amount, main, wrapped, supply, p);
        case 'wrapped>main':
          return L.wrappedInPerMainOut(amount, main, p);
        case 'wrapped>bpt':
          return L.wrappedInPerBptOut(amount, main, wrapped, supply, p);
        case 'bpt>main':
          return L.bptInPerMainOut(amount, main, wrapped, supply, p);
        case 'bpt>wrapped':
          return L.bptInPerWrappedOut(amount, main, wrapped, supply, p);
      }
    }
    throw new Revert(`no swap ${pair} in a linear pool`);
  }

  private tryQuote(state: LinearState, kind: SwapKind, i: number, j: number, amount: bigint): bigint | undefined {
    try {
      return this.swap(state, kind, i, j, amount);
    } catch (e) {
      if (e instanceof Revert) return undefined;
      throw e;
    }
  }

  /** Largest amount out the pool pays for `i -> j` without reverting. */
  private maxOut(state: LinearState, i: number, j: number): bigint {
    let candidate = state.balances[j]!;
    if (j === this.mainIndex && this.params.lowerTarget > 0n && this.params.fee > 0n) {
      // Far below the lower target the nominal balance would go negative (the contract underflows):
      // keep the main balance at lowerTarget * fee / (1 + fee) or more.
      const floorUp = divUp(mulDown(this.params.lowerTarget, this.params.fee), ONE + this.params.fee);
      const floorRaw = divUp(floorUp, this.scalingFactors[j]!) + 1n;
      candidate = candidate > floorRaw ? candidate - floorRaw : 0n;
    }
    return this.largestAccepted(state, 'givenOut', i, j, candidate);
  }
}

export const createLinearModel: ModelFactory<LinearSpec> = (spec) => new LinearModel(spec);
