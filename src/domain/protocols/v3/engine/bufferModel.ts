import { largestValid } from '../../../swap/limits';
import { isRevert, type PoolModel, type PoolState, type SwapKind } from '../../../swap/poolModel';
import type { BufferState } from '../buffer/bufferState';
import type { Erc4626Token } from '../buffer/erc4626';
import { bufferWrapOrUnwrap, type BufferPricing, type BufferResult } from '../buffer/wrapOrUnwrap';
import { DEPLOYED_VAULT_LIMITS, type V3VaultLimits } from '../vault/limits';
import { v3SwapKindOf } from './swapKind';

/**
 * A V3 Vault buffer as the routing engine sees it: a two-token "pool" `[wrapped, underlying]`
 * whose swaps are the Vault's wrap and unwrap (`buffer/wrapOrUnwrap.ts`). Its id and address are
 * the ERC-4626 token's, which is what a BatchRouter buffer step names as its `pool`; the path
 * graph counts that address among its pool tokens, so a boosted path (underlying -> buffer ->
 * pool -> buffer -> underlying, and one hop beyond) stays within its hop rule.
 */

export const BUFFER_POOL_TYPE = 'Buffer';

const MAX_AMOUNT = 2n ** 128n - 1n;

export interface BufferModelState extends PoolState {
  buffer: BufferState;
  /** The ERC-4626 token as the route has left it (a wrap the buffer could not serve calls it). */
  token: Erc4626Token;
}

export interface BufferModelInput {
  readonly buffer: BufferState;
  /** What the ERC-4626 token answers at the quote's block. */
  readonly token: Erc4626Token;
  /** Decimals of the wrapped token and of its underlying. */
  readonly decimals: readonly [number, number];
  readonly pricing?: BufferPricing;
  readonly limits?: V3VaultLimits;
}

export class BufferModel implements PoolModel<BufferModelState> {
  readonly id: string;
  readonly address: string;
  readonly poolType = BUFFER_POOL_TYPE;
  readonly tokens: readonly string[];
  readonly decimals: readonly number[];
  private readonly buffer: BufferState;
  private readonly token: Erc4626Token;
  private readonly options: { readonly limits: V3VaultLimits; readonly pricing: BufferPricing };
  private readonly priced = new WeakMap<BufferModelState, BufferResult>();

  constructor(input: BufferModelInput) {
    this.buffer = input.buffer;
    this.token = input.token;
    this.address = input.buffer.wrappedToken.toLowerCase();
    this.id = this.address;
    this.tokens = [this.address, input.buffer.underlyingToken.toLowerCase()];
    this.decimals = input.decimals;
    this.options = { limits: input.limits ?? DEPLOYED_VAULT_LIMITS, pricing: input.pricing ?? 'guarded' };
  }

  initialState(): BufferModelState {
    return { balances: balancesOf(this.buffer), buffer: this.buffer, token: this.token };
  }

  cloneState(state: BufferModelState): BufferModelState {
    return { balances: [...state.balances], buffer: state.buffer, token: state.token };
  }

  canSwap(i: number, j: number): boolean {
    return ((i === 0 && j === 1) || (i === 1 && j === 0)) && !this.buffer.buffersPaused;
  }

  swap(state: BufferModelState, kind: SwapKind, i: number, j: number, amount: bigint): bigint {
    const result = this.run(state, kind, i, j, amount);
    this.priced.set(state, result);
    return result.amountCalculatedRaw;
  }

  apply(state: BufferModelState, i: number, j: number, amountIn: bigint, amountOut: bigint): void {
    const matches = (r: BufferResult) => r.amountInRaw === amountIn && r.amountOutRaw === amountOut;
    let result = this.priced.get(state);
    if (!result || !matches(result) || result.direction !== (i === 1 ? 'wrap' : 'unwrap')) {
      result = this.run(state, 'givenOut', i, j, amountOut);
      if (!matches(result)) result = this.run(state, 'givenIn', i, j, amountIn);
      if (!matches(result))
        throw new Error(`buffer ${this.address}: no wrap of ${amountIn} for ${amountOut} to record`);
    }
    state.buffer = result.bufferAfter;
    state.token = result.tokenAfter;
    state.balances.splice(0, state.balances.length, ...balancesOf(state.buffer));
    this.priced.delete(state);
  }

  maxAmount(state: BufferModelState, kind: SwapKind, i: number, j: number): bigint {
    if (!this.canSwap(i, j)) return 0n;
    return largestValid(MAX_AMOUNT, (amount) => {
      try {
        this.run(state, kind, i, j, amount);
        return true;
      } catch (e) {
        if (isRevert(e)) return false;
        throw e;
      }
    });
  }

  spotPrice(state: BufferModelState, i: number, j: number): number {
    if (!this.canSwap(i, j)) return Infinity;
    const [wrappedDecimals, underlyingDecimals] = this.decimals as [number, number];
    const oneWrapped = 10n ** BigInt(wrappedDecimals);
    const oneUnderlying = 10n ** BigInt(underlyingDecimals);
    // Underlying per wrapped for a wrap; wrapped per underlying for an unwrap.
    return i === 1
      ? Number(state.token.previewMint(oneWrapped)) / Number(oneUnderlying)
      : Number(state.token.previewWithdraw(oneUnderlying)) / Number(oneWrapped);
  }

  private run(state: BufferModelState, kind: SwapKind, i: number, j: number, amount: bigint): BufferResult {
    if (!this.canSwap(i, j)) throw new Error(`buffer ${this.address}: no swap from token ${i} to ${j}`);
    return bufferWrapOrUnwrap(
      state.buffer,
      state.token,
      { kind: v3SwapKindOf(kind), tokenIn: this.tokens[i]!, amountGivenRaw: amount },
      this.options,
    );
  }
}

function balancesOf(buffer: BufferState): bigint[] {
  return [buffer.wrappedBalanceRaw, buffer.underlyingBalanceRaw];
}

export function isBufferModel(model: PoolModel): boolean {
  return model.poolType === BUFFER_POOL_TYPE;
}
