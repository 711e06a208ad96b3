/**
 * An EVM address as this service keeps and compares it: `0x` and 40 lower-case hex digits. The
 * brand makes the compiler tell a parsed address from any string, so a mixed-case value from a
 * request or an upstream cannot reach a lookup keyed on lower case. Made by `parseAddress` (or
 * the `isAddress` guard) at the edges; the store hands back what was parsed on the way in
 * (docs/ARCHITECTURE.md, "Addresses").
 */
declare const ADDRESS_BRAND: unique symbol;
export type Address = string & { readonly [ADDRESS_BRAND]: true };

export class AddressError extends Error {
  override readonly name: string = 'AddressError';
}

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** True for a string that already is an `Address` (lower case), without copying it. */
export function isAddress(value: unknown): value is Address {
  return typeof value === 'string' && HEX_ADDRESS.test(value) && value === value.toLowerCase();
}

/**
 * Any-case hex address -> `Address`. Throws `AddressError` naming `what` and the value refused.
 * Checksums are not verified: the old API and the subgraphs accept and send any case.
 */
export function parseAddress(value: unknown, what = 'address'): Address {
  if (typeof value !== 'string' || !HEX_ADDRESS.test(value)) {
    throw new AddressError(
      `${what}: expected a 20-byte hex address (0x + 40 hex digits), got ${JSON.stringify(value) ?? String(value)}`,
    );
  }
  return value.toLowerCase() as Address;
}
