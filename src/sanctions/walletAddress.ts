import { getAddress } from 'ethers';

/**
 * Reads the `address` query parameter: an EVM address, any case. Mixed case must carry a valid
 * EIP-55 checksum (a wrong one is almost always a typo). Returns the checksummed form or the reason
 * it was refused.
 */
export type ParsedAddress =
  { readonly ok: true; readonly address: string } | { readonly ok: false; readonly error: string };

const HEX_ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export function parseWalletAddress(raw: unknown): ParsedAddress {
  if (raw === undefined || raw === '')
    return { ok: false, error: 'address: missing; call /check-wallet?address=0x<40 hex digits>' };
  if (typeof raw !== 'string') return { ok: false, error: 'address: give exactly one address parameter' };
  if (!HEX_ADDRESS.test(raw))
    return { ok: false, error: `address: '${raw.slice(0, 64)}' is not an EVM address (0x followed by 40 hex digits)` };
  try {
    return { ok: true, address: getAddress(raw) };
  } catch {
    return {
      ok: false,
      error: `address: '${raw}' has a wrong EIP-55 checksum; send it all lower-case or correctly checksummed`,
    };
  }
}
