import type { V3HookKind } from '../domain/protocols/v3/stored/storedV3';

/**
 * The V3 hooks contracts the service knows, per chain: which modelled hook (`domain/protocols/v3/
 * hooks/<kind>/`) each address is. The subgraph names a pool's hooks contract but not what it is;
 * a pool whose hook is not listed here is stored with an unknown hook and left out of routes, with
 * the reason in its routing status. The addresses are those Balancer's own API lists for these
 * hook types (its chain configs' `hooks`: STABLE_SURGE, MEV_TAX, AKRON, EXIT_FEE, DIRECTIONAL_FEE);
 * MEV capture pools are quoted at their static fee (`mevCapture/mevCaptureHook.ts`).
 */
const KNOWN: Readonly<Record<number, Readonly<Record<string, V3HookKind>>>> = {
  1: {
    '0xb18fa0cb5de8cecb8899aae6e38b1b7ed77885da': 'stableSurge',
    '0xbdbadc891bb95dee80ebc491699228ef0f7d6ff1': 'stableSurge',
    '0x1bca39b01f451b0a05d7030e6e6981a73b716b1c': 'mevCapture',
  },
  10: {
    '0xf39ca6ede9bf7820a952b52f3c94af526bab9015': 'stableSurge',
    '0x3630d26e51c03026f4f063d69d65f8e234eeaf5b': 'mevCapture',
  },
  8453: {
    '0xb2007b8b7e0260042517f635cfd8e6dd2dd7f007': 'stableSurge',
    '0xdb8d758bcb971e482b2c45f7f8a7740283a1bd3a': 'stableSurge',
    '0x7a2535f5fb47b8e44c02ef5d9990588313fe8f05': 'mevCapture',
    '0xa45570815dbe7bf7010c41f1f74479be322d02bd': 'akron',
  },
  42161: {
    '0x0fa0f9990d7969a7ae6f9961d663e4a201ed6417': 'stableSurge',
    '0x7c1b7a97bfacd39975de53e989a16c7bc4c78275': 'stableSurge',
    '0x5b42ec6d40f7b7965be5308c70e2603c0281c1e9': 'mevCapture',
    '0xd221affabdd3c1281ea14c5781dec6b0fca8937e': 'akron',
  },
  43114: {
    '0x86705ee19c0509ff68f1118c55ee2ebde383d122': 'stableSurge',
    '0x6ead84af26e997d27998fc9f8614e8a19bb93938': 'mevCapture',
  },
  11155111: {
    '0x8756a6527e8dc94cf07a468d2e4df8e9946bce3d': 'exitFee',
  },
};

/** The known hooks of a chain, by lower-case address (empty for a chain with none listed). */
export function knownV3Hooks(chainId: number): ReadonlyMap<string, V3HookKind> {
  return new Map(Object.entries(KNOWN[chainId] ?? {}));
}
