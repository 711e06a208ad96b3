import { decimalToUnits } from '../domain/decimal';

/**
 * Gas of one swap step in a token's raw units: gas price x gas per swap x the native asset's price
 * in that token. The same model as the SOR's (85,000 gas a swap), so both engines weigh an extra
 * hop alike. A token without a price costs nothing, as the old API did.
 */
export const SWAP_GAS = 85_000n;

export function gasPerSwapIn(
  gasPrice: bigint,
  /** Native asset price in the token (human units, decimal string), per token address. */
  nativePriceInToken: Readonly<Record<string, string>>,
  wrappedNative: string,
  decimalsOf: (token: string) => number | undefined,
): (token: string) => bigint {
  return (token) => {
    if (gasPrice === 0n) return 0n;
    const decimals = decimalsOf(token);
    if (decimals === undefined) return 0n;
    const price = token === wrappedNative ? '1' : nativePriceInToken[token];
    if (price === undefined || price === '0') return 0n;
    let fixed: bigint;
    try {
      fixed = decimalToUnits(price, 18);
    } catch {
      return 0n;
    }
    return (gasPrice * SWAP_GAS * fixed * 10n ** BigInt(decimals)) / 10n ** 36n;
  };
}
