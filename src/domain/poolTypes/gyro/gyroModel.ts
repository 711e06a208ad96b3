import { ONE } from './gyroFixedPoint';
import { Revert, UnsupportedPoolError, type PoolState, type SwapKind } from '../../swap/poolModel';
import { scaledSwap, gyroSwapScaling, type GyroSwapScaling } from './gyroCommon';
import { floatRate, MAX_BALANCE, V2VaultPool, withRates } from '../../protocols/v2/vaultPool';
import type { GyroSpec } from './gyroParams';

/**
 * What a Gyroscope pool model (2-CLP, 3-CLP, E-CLP) adds to the Vault's operations, once: the pools'
 * parameters and token count, the pause switch, the fee and scaling (`scaledSwap`) around
 * the curve, the largest amount in estimated from the curve's range, and the spot price from the
 * curve's marginal price. A pool type supplies its curve on upscaled units, the upscaled marginal
 * price and the upscaled in-limit.
 */
export abstract class GyroPoolModel<S extends PoolState> extends V2VaultPool<S> {
  readonly scaling: GyroSwapScaling;
  protected readonly swapEnabled: boolean;
  private readonly rates: readonly number[];

  protected constructor(spec: GyroSpec, tokenCount: number, withRates: boolean) {
    super(spec);
    if (this.tokens.length !== tokenCount)
      throw new UnsupportedPoolError(`${spec.poolType} pool ${spec.id} has ${this.tokens.length} tokens`);
    this.scaling = gyroSwapScaling(spec, withRates);
    this.swapEnabled = spec.swapEnabled !== false;
    this.rates = this.scaling.scalingFactors.map((sf, k) => floatRate(sf, this.decimals[k]!));
  }

  /** The pool's curve for this swap: upscaled amount given -> upscaled amount out (given in) or in before the fee (given out). */
  protected abstract curve(state: S, kind: SwapKind, i: number, j: number): (upscaled: bigint) => bigint;
  /** Upscaled token in per upscaled token out at the margin, before the fee; undefined where the math reverts. */
  protected abstract marginalPrice(state: S, i: number, j: number): number | undefined;
  /** Upscaled amount in past which the swap leaves the curve's range; undefined when unknown. */
  protected abstract upscaledInLimit(state: S, i: number, j: number): bigint | undefined;
  /** Appended to the "no swap" message (the E-CLP names its own revert code). */
  protected readonly noSwapCode: string = '';

  protected stateAt(balances: bigint[]): S {
    return { balances } as S;
  }

  override canSwap(i: number, j: number): boolean {
    return this.swapEnabled && super.canSwap(i, j);
  }

  protected override refusal(i: number, j: number): Revert {
    return new Revert(
      this.swapEnabled ? `no swap from token ${i} to ${j} in this pool${this.noSwapCode}` : 'pool is paused (BAL#211)',
    );
  }

  protected poolSwap(state: S, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    if (amount === 0n) return 0n;
    if (kind === 'givenIn' && state.balances[i]! + amount > MAX_BALANCE)
      throw new Revert('balance above 2^112 (BAL#526)');
    return scaledSwap(this.scaling, kind, i, j, amount, this.curve(state, kind, i, j));
  }

  maxAmount(state: S, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    if (kind === 'givenOut') return this.largestAccepted(state, kind, i, j, state.balances[j]!);
    const cap = MAX_BALANCE - state.balances[i]!;
    const estimate = this.inEstimate(state, i, j);
    return this.largestAccepted(state, kind, i, j, estimate !== undefined && estimate < cap ? estimate : cap);
  }

  spotPrice(state: S, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    const price = this.marginalPrice(state, i, j);
    if (price === undefined || !(price > 0)) return Infinity;
    const fee = Number(this.scaling.fee) / 1e18;
    return withRates(price / (1 - fee), this.rates, i, j);
  }

  /** The raw amount in (fee included, rounded up) whose upscaled part reaches the curve's limit. */
  private inEstimate(state: S, i: number, j: number): bigint | undefined {
    let upscaledIn: bigint | undefined;
    try {
      upscaledIn = this.upscaledInLimit(state, i, j);
    } catch {
      return undefined;
    }
    if (upscaledIn === undefined || upscaledIn <= 0n) return undefined;
    const rawAfterFee = (upscaledIn * ONE) / this.scaling.scalingFactors[i]! + 1n;
    return (rawAfterFee * ONE) / (ONE - this.scaling.fee) + 1n;
  }
}
