import { decimalToUnits } from '../../decimal';
import { assignTradeFee, solveTradeInvariant, yieldExponent } from './elementMath';
import {
  Revert,
  UnsupportedPoolError,
  type ModelContext,
  type ModelFactory,
  type PoolState,
  type SwapKind,
} from '../../swap/poolModel';
import { MAX_BALANCE, V2VaultPool } from '../../protocols/v2/vaultPool';
import type { ElementSpec } from './elementParams';

/**
 * Element pools (ConvergentCurvePool): a principal token (the bond) against its base token, priced
 * by time to maturity. A model is built for one `ModelContext.timestamp`: the curve's exponent is
 * fixed at that moment, so a quote is what the pool pays in a block with that timestamp.
 *
 * The pool converts amounts to 18 decimals by multiplying or truncating (not Balancer's scaling
 * factors), and converts results back by truncating, for the amount in of a given-out swap too.
 */

export interface ElementState extends PoolState {
  /** LP (BPT) total supply, which the curve adds to the principal token's reserve. */
  totalSupply: bigint;
}

function toFixed(amount: bigint, decimals: number): bigint {
  return decimals <= 18 ? amount * 10n ** BigInt(18 - decimals) : amount / 10n ** BigInt(decimals - 18);
}

function fromFixed(amount: bigint, decimals: number): bigint {
  return decimals <= 18 ? amount / 10n ** BigInt(18 - decimals) : amount * 10n ** BigInt(decimals - 18);
}

export class ElementModel extends V2VaultPool<ElementState> {
  readonly bondIndex: number;
  readonly percentFee: bigint;
  /** a = 1 - t at the context's timestamp. */
  readonly exponent: bigint;
  private readonly totalSupply: bigint;

  constructor(spec: ElementSpec, ctx: ModelContext) {
    super(spec);
    const bond = spec.principalToken?.toLowerCase();
    const base = spec.baseToken?.toLowerCase();
    this.bondIndex = bond ? this.tokens.indexOf(bond) : -1;
    if (this.tokens.length !== 2 || this.bondIndex < 0 || !base || this.tokens[1 - this.bondIndex] !== base) {
      throw new UnsupportedPoolError(`element pool ${spec.id} does not hold its principal and base token`);
    }
    if (!spec.expiryTime || !spec.unitSeconds || spec.unitSeconds <= 0)
      throw new UnsupportedPoolError(`element pool ${spec.id} lacks expiryTime/unitSeconds`);
    try {
      this.exponent = yieldExponent(
        BigInt(spec.expiryTime),
        BigInt(spec.unitSeconds),
        BigInt(Math.floor(ctx.timestamp)),
      );
    } catch {
      throw new UnsupportedPoolError(
        `element pool ${spec.id} reverts every swap at ${ctx.timestamp} (time to expiry not below unitSeconds)`,
      );
    }
    this.percentFee = decimalToUnits(spec.swapFee, 18);
    this.totalSupply = decimalToUnits(spec.totalShares, 18);
  }

  protected stateAt(balances: bigint[]): ElementState {
    return { balances, totalSupply: this.totalSupply };
  }

  protected override refusal(i: number, j: number): Revert {
    return new Revert(`no swap from token ${i} to ${j} in an element pool`);
  }

  protected poolSwap(state: ElementState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    const outIsBond = j === this.bondIndex;
    // The principal token's reserve counts the LP supply too (the paper's reserve adjustment).
    let reserveIn = toFixed(state.balances[i]!, this.decimals[i]!);
    let reserveOut = toFixed(state.balances[j]!, this.decimals[j]!);
    if (outIsBond) reserveOut += state.totalSupply;
    else reserveIn += state.totalSupply;
    if (kind === 'givenIn') {
      const amountIn = toFixed(amount, this.decimals[i]!);
      const quote = solveTradeInvariant(this.exponent, amountIn, reserveIn, reserveOut, true);
      return fromFixed(assignTradeFee(this.percentFee, amountIn, quote, outIsBond, false), this.decimals[j]!);
    }
    const amountOut = toFixed(amount, this.decimals[j]!);
    const quote = solveTradeInvariant(this.exponent, amountOut, reserveOut, reserveIn, false);
    return fromFixed(assignTradeFee(this.percentFee, quote, amountOut, outIsBond, true), this.decimals[i]!);
  }

  maxAmount(state: ElementState, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    const maxOut = this.largestAccepted(state, 'givenOut', i, j, this.outEstimate(state, i, j));
    if (kind === 'givenOut') return maxOut;
    const cap = MAX_BALANCE - state.balances[i]!;
    const estimate = this.inEstimate(state, i, j, maxOut);
    return this.largestAccepted(state, 'givenIn', i, j, estimate < cap ? estimate : cap);
  }

  spotPrice(state: ElementState, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    const { x, y } = this.floatReserves(state, i, j);
    const a = Number(this.exponent) / 1e18;
    const f = Number(this.percentFee) / 1e18;
    if (x <= 0 || y <= 0) return Infinity;
    // dx/dy on x^a + y^a = k, then the fee on the implied yield (out - in for a bond bought,
    // in - out for a bond sold) at the margin.
    const p = (x / y) ** (1 - a);
    const perIn = j === this.bondIndex ? (1 - f) / p + f : (1 + f) / p - f;
    return perIn > 0 ? 1 / perIn : Infinity;
  }

  /** Adjusted reserves in human units (float): x of the token in, y of the token out. */
  private floatReserves(state: ElementState, i: number, j: number): { x: number; y: number } {
    const supply = Number(state.totalSupply) / 1e18;
    const h = (k: number) => Number(state.balances[k]!) / 10 ** this.decimals[k]! + (k === this.bondIndex ? supply : 0);
    return { x: h(i), y: h(j) };
  }

  /**
   * A float estimate of the largest amount out: the pool's balance, or less when buying the
   * principal token would push its average price above one base token (the contract underflows).
   */
  private outEstimate(state: ElementState, i: number, j: number): bigint {
    const balance = state.balances[j]!;
    if (j !== this.bondIndex) return balance;
    const { x, y } = this.floatReserves(state, i, j);
    const a = Number(this.exponent) / 1e18;
    const k = x ** a + y ** a;
    const inFor = (o: number): number => (k - (y - o) ** a) ** (1 / a) - x;
    const top = Number(balance) / 10 ** this.decimals[j]!;
    if (!(inFor(top) > top)) return balance;
    let lo = 0;
    let hi = top;
    for (let n = 0; n < 80; n++) {
      const mid = (lo + hi) / 2;
      if (inFor(mid) <= mid) lo = mid;
      else hi = mid;
    }
    const raw = BigInt(Math.floor(lo * (1 - 1e-9) * 10 ** this.decimals[j]!));
    return raw < balance ? raw : balance;
  }

  /**
   * A float estimate of the largest amount in: given in, the pool takes its fee off the amount
   * out (not onto the amount in as given out), so the given-out answer for the largest amount out
   * is no inverse. Bisects the float curve for the largest amount in whose answer stays within
   * `maxOut` and keeps a non-negative implied yield, a hair inside.
   */
  private inEstimate(state: ElementState, i: number, j: number, maxOut: bigint): bigint {
    const { x, y } = this.floatReserves(state, i, j);
    const a = Number(this.exponent) / 1e18;
    const f = Number(this.percentFee) / 1e18;
    const k = x ** a + y ** a;
    const outBond = j === this.bondIndex;
    const limit = Number(maxOut) / 10 ** this.decimals[j]!;
    const ok = (amountIn: number): boolean => {
      const rest = k - (x + amountIn) ** a;
      if (!(rest > 0)) return false;
      const out0 = y - rest ** (1 / a);
      const yieldAmount = outBond ? out0 - amountIn : amountIn - out0;
      return yieldAmount >= 0 && out0 - f * yieldAmount <= limit;
    };
    let lo = 0;
    let hi = Math.max(limit, 1) * 4;
    // 1e40 stops the growth within 67 steps; the count bounds it should hi ever stop growing.
    for (let n = 0; n < 80 && ok(hi) && hi < 1e40; n++) hi *= 4;
    for (let n = 0; n < 80; n++) {
      const mid = (lo + hi) / 2;
      if (ok(mid)) lo = mid;
      else hi = mid;
    }
    const raw = lo * (1 - 1e-9) * 10 ** this.decimals[i]!;
    return raw >= 1 ? BigInt(Math.floor(raw)) : 0n;
  }
}

export const createElementModel: ModelFactory<ElementSpec> = (spec, ctx) => new ElementModel(spec, ctx);
