import { v3Revert } from './errors';

/**
 * The Vault's immutable minimums, set by its deployment (task 20241204-v3-vault: 1e6 and 1e4, the
 * same on every chain). A devnet Vault deployed with other values passes its own.
 */
export interface V3VaultLimits {
  /** `_MINIMUM_TRADE_AMOUNT`, scaled18: the least a swap may move in or out, and a non-zero add or remove amount. */
  readonly minimumTradeAmount: bigint;
  /** `_MINIMUM_WRAP_AMOUNT`, raw: the least a buffer may wrap or unwrap. */
  readonly minimumWrapAmount: bigint;
}

export const DEPLOYED_VAULT_LIMITS: V3VaultLimits = { minimumTradeAmount: 1_000_000n, minimumWrapAmount: 10_000n };

/** `_ensureValidSwapAmount`: zero is not a valid swap amount either. */
export function ensureValidSwapAmount(amountScaled18: bigint, limits: V3VaultLimits): void {
  if (amountScaled18 < limits.minimumTradeAmount) {
    throw v3Revert('TradeAmountTooSmall', `swap amount ${amountScaled18} below the Vault's minimum`);
  }
}

/** `_ensureValidTradeAmount`: liquidity amounts may be zero (a token left out), otherwise at least the minimum. */
export function ensureValidTradeAmount(amountScaled18: bigint, limits: V3VaultLimits): void {
  if (amountScaled18 !== 0n) ensureValidSwapAmount(amountScaled18, limits);
}
