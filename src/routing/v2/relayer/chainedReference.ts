/**
 * BatchRelayer chained references: a uint256 whose top 16 bits are 0xba10 (read once, then
 * cleared) or 0xba11 (read-only) stands for a value an earlier call of the same multicall stored
 * under the remaining bits. The library swaps it for the stored value before calling the Vault
 * (BaseRelayerLibraryCommon `_isChainedReference`, `_isTemporaryChainedReference`); both prefixes
 * of one key read the same storage slot.
 */

const TEMPORARY = 0xba10n << 240n;
const READ_ONLY = 0xba11n << 240n;
const KEY_MASK = (1n << 240n) - 1n;

/** A reference that the first call reading it consumes. */
export function temporaryReference(key: number): bigint {
  return TEMPORARY | checkedKey(key);
}

/** The same slot as `temporaryReference(key)`, left in place by the call that reads it. */
export function readOnlyReference(key: number): bigint {
  return READ_ONLY | checkedKey(key);
}

export function isChainedReference(value: bigint): boolean {
  return value >> 244n === 0xba1n;
}

function checkedKey(key: number): bigint {
  if (!Number.isSafeInteger(key) || key <= 0)
    throw new RangeError(`chained reference key must be a positive integer, got ${key}`);
  return BigInt(key) & KEY_MASK;
}
