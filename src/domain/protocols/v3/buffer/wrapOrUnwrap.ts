import type { V3SwapKind } from '../poolMath';
import { v3Revert } from '../vault/errors';
import { DEPLOYED_VAULT_LIMITS, type V3VaultLimits } from '../vault/limits';
import type { BufferState } from './bufferState';
import type { Erc4626Token } from './erc4626';

/**
 * How the Vault prices through the token's previews. The deployed Vault ('guarded', task
 * 20241204-v3-vault) moves the amount given by 1 wei and the preview's answer by another, both
 * against the user, so a rate that rounds in the user's favour cannot drain the buffer:
 * `previewDeposit(in - 1) - 1`, `previewMint(out + 1) + 1`, `previewRedeem(in - 1) - 1`,
 * `previewWithdraw(out + 1) + 1`. Vaults deployed before it on test networks ('unguarded') used the
 * previews as they are.
 */
export type BufferPricing = 'guarded' | 'unguarded';

export interface BufferRequest {
  readonly kind: V3SwapKind;
  /** The ERC-4626 token or its underlying: which one goes in says wrap or unwrap. */
  readonly tokenIn: string;
  readonly amountGivenRaw: bigint;
}

export interface BufferResult {
  readonly direction: 'wrap' | 'unwrap';
  /** Amount out (exact in) or in (exact out), raw. */
  readonly amountCalculatedRaw: bigint;
  readonly amountInRaw: bigint;
  readonly amountOutRaw: bigint;
  /** True when the buffer held enough of the token out; false when the Vault calls the token. */
  readonly fromBuffer: boolean;
  /** The buffer after the operation, as the Vault stores it. */
  readonly bufferAfter: BufferState;
  /** The token after it: `token` itself unless the Vault called it (`fromBuffer` false). */
  readonly tokenAfter: Erc4626Token;
}

/**
 * `Vault.erc4626BufferWrapOrUnwrap`. The amounts are always the token's previews (with the
 * pricing's guards); the buffer decides who pays them out. When it holds enough of the token out,
 * the Vault swaps against it alone. When it does not, the Vault deposits (or redeems) the amount
 * plus half the buffer's imbalance through the token itself, so the token's own limits decide:
 * beyond `maxDeposit`, `maxMint`, `maxRedeem` or `maxWithdraw` the transaction reverts. The chain's
 * query skips that step (it answers amounts the real swap cannot pay); here it is checked, so a
 * path the token cannot serve is refused.
 */
export function bufferWrapOrUnwrap(
  buffer: BufferState,
  token: Erc4626Token,
  request: BufferRequest,
  options: { readonly limits?: V3VaultLimits; readonly pricing?: BufferPricing } = {},
): BufferResult {
  const limits = options.limits ?? DEPLOYED_VAULT_LIMITS;
  const guard = (options.pricing ?? 'guarded') === 'guarded' ? 1n : 0n;
  if (buffer.buffersPaused) throw v3Revert('VaultBuffersArePaused', 'the Vault has paused its buffers');
  const ensureWrapAmount = (amount: bigint): void => {
    if (amount < limits.minimumWrapAmount) {
      throw v3Revert('WrapAmountTooSmall', `${amount} below the Vault's minimum wrap amount`);
    }
  };
  const { kind, amountGivenRaw: given } = request;
  ensureWrapAmount(given);
  const tokenIn = request.tokenIn.toLowerCase();
  let direction: 'wrap' | 'unwrap';
  if (tokenIn === buffer.underlyingToken.toLowerCase()) direction = 'wrap';
  else if (tokenIn === buffer.wrappedToken.toLowerCase()) direction = 'unwrap';
  else throw v3Revert('WrongUnderlyingToken', `${request.tokenIn} is neither ${buffer.wrappedToken} nor its asset`);

  let amountInRaw: bigint;
  let amountOutRaw: bigint;
  let underlying = buffer.underlyingBalanceRaw;
  let wrapped = buffer.wrappedBalanceRaw;
  let fromBuffer: boolean;
  let tokenAfter = token;
  if (direction === 'wrap') {
    [amountInRaw, amountOutRaw] =
      kind === 'exactIn'
        ? [given, nonNegative(token.previewDeposit(given - guard) - guard)]
        : [token.previewMint(given + guard) + guard, given];
    fromBuffer = wrapped >= amountOutRaw;
    if (fromBuffer) {
      underlying += amountInRaw;
      wrapped -= amountOutRaw;
    } else {
      let underlyingToToken: bigint;
      let wrappedFromToken: bigint;
      if (kind === 'exactIn') {
        underlyingToToken = toUint(amountInRaw + underlyingImbalance(buffer, token));
        if (underlyingToToken > token.maxDeposit) {
          throw v3Revert('ERC4626ExceededMaxDeposit', `deposit of ${underlyingToToken} above ${token.maxDeposit}`);
        }
        wrappedFromToken = token.previewDeposit(underlyingToToken);
      } else {
        wrappedFromToken = toUint(amountOutRaw - wrappedImbalance(buffer, token));
        if (wrappedFromToken > token.maxMint) {
          throw v3Revert('ERC4626ExceededMaxMint', `mint of ${wrappedFromToken} above ${token.maxMint}`);
        }
        underlyingToToken = token.previewMint(wrappedFromToken);
      }
      underlying = toUint(underlying + amountInRaw - underlyingToToken);
      wrapped = toUint(wrapped + wrappedFromToken - amountOutRaw);
      tokenAfter = token.after({ kind: 'deposit', assets: underlyingToToken, shares: wrappedFromToken });
    }
  } else {
    [amountInRaw, amountOutRaw] =
      kind === 'exactIn'
        ? [given, nonNegative(token.previewRedeem(given - guard) - guard)]
        : [token.previewWithdraw(given + guard) + guard, given];
    fromBuffer = underlying >= amountOutRaw;
    if (fromBuffer) {
      underlying -= amountOutRaw;
      wrapped += amountInRaw;
    } else {
      let wrappedToToken: bigint;
      let underlyingFromToken: bigint;
      if (kind === 'exactIn') {
        wrappedToToken = toUint(amountInRaw + wrappedImbalance(buffer, token));
        if (wrappedToToken > token.maxRedeem) {
          throw v3Revert('ERC4626ExceededMaxRedeem', `redeem of ${wrappedToToken} above ${token.maxRedeem}`);
        }
        underlyingFromToken = token.previewRedeem(wrappedToToken);
      } else {
        underlyingFromToken = toUint(amountOutRaw - underlyingImbalance(buffer, token));
        if (underlyingFromToken > token.maxWithdraw) {
          throw v3Revert('ERC4626ExceededMaxWithdraw', `withdraw of ${underlyingFromToken} above ${token.maxWithdraw}`);
        }
        wrappedToToken = token.previewWithdraw(underlyingFromToken);
      }
      underlying = toUint(underlying + underlyingFromToken - amountOutRaw);
      wrapped = toUint(wrapped + amountInRaw - wrappedToToken);
      tokenAfter = token.after({ kind: 'redeem', shares: wrappedToToken, assets: underlyingFromToken });
    }
  }
  const amountCalculatedRaw = kind === 'exactIn' ? amountOutRaw : amountInRaw;
  ensureWrapAmount(amountCalculatedRaw);
  return {
    direction,
    amountCalculatedRaw,
    amountInRaw,
    amountOutRaw,
    fromBuffer,
    bufferAfter: { ...buffer, underlyingBalanceRaw: underlying, wrappedBalanceRaw: wrapped },
    tokenAfter,
  };
}

/**
 * `BufferHelpers.getBufferUnderlyingImbalance`: half the underlying the buffer holds beyond its
 * wrapped half's worth (negative when short), truncated toward zero as Solidity's int division.
 */
function underlyingImbalance(buffer: BufferState, token: Erc4626Token): bigint {
  const wrappedAsUnderlying = buffer.wrappedBalanceRaw > 0n ? token.previewMint(buffer.wrappedBalanceRaw) : 0n;
  return (buffer.underlyingBalanceRaw - wrappedAsUnderlying) / 2n;
}

/** `BufferHelpers.getBufferWrappedImbalance`, the same from the wrapped side. */
function wrappedImbalance(buffer: BufferState, token: Erc4626Token): bigint {
  const underlyingAsWrapped =
    buffer.underlyingBalanceRaw > 0n ? token.previewWithdraw(buffer.underlyingBalanceRaw) : 0n;
  return (buffer.wrappedBalanceRaw - underlyingAsWrapped) / 2n;
}

/** `SafeCast.toUint256` and checked subtraction: a negative amount reverts. */
function toUint(value: bigint): bigint {
  if (value < 0n) throw v3Revert('SafeCastOverflowedIntToUint', `negative amount ${value}`);
  return value;
}

/** A preview of 0 minus the guard's wei underflows in the Vault. */
function nonNegative(value: bigint): bigint {
  if (value < 0n) throw v3Revert('Panic(0x11)', 'the preview rounds to nothing');
  return value;
}
