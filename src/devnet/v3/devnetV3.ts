import { getCreateAddress } from 'ethers';
import { devAccount, V3_ADMIN_INDEX } from '../accounts';
import type { DevnetV3Addresses } from '../devnet';
import { V3_WRAPPED_BEFORE_LBP_FACTORIES, V3_WRAPPED_TOKENS } from './universe';

/**
 * Where the Balancer V3 side of a devnet lands (its types are in ../devnet.ts). Everything of it
 * comes from its own account (accounts.ts `V3_ADMIN_INDEX`), after the V2 stack, so no V2 address
 * moves; its contracts sit at that account's fixed nonces, its pools where the factories create them.
 */

/** Contracts the V3 admin creates first, in this order (its nonces 0..). */
const STACK_ORDER = [
  'permit2',
  'vaultAdmin',
  'vaultExtension',
  'protocolFeeController',
  'vault',
  'router',
  'batchRouter',
  'bufferRouter',
  'vaultExplorer',
  'weightedPoolFactory',
  'stablePoolFactory',
] as const satisfies readonly (keyof DevnetV3Addresses)[];

/**
 * Contracts added later, created right after the first ERC-4626 tokens and their rate providers
 * (the later ERC-4626 tokens follow them), so no earlier address moves.
 */
const APPENDED_ORDER = [
  'lbPoolFactory',
  'fixedPriceLbPoolFactory',
] as const satisfies readonly (keyof DevnetV3Addresses)[];

/** The admin's nonce for the i-th ERC-4626 token (its rate provider takes the next). */
function wrappedNonce(i: number): number {
  const before = V3_WRAPPED_BEFORE_LBP_FACTORIES;
  return i < before
    ? STACK_ORDER.length + 2 * i
    : STACK_ORDER.length + 2 * before + APPENDED_ORDER.length + 2 * (i - before);
}

export function expectedV3Addresses(admin: string = devAccount(V3_ADMIN_INDEX).address): DevnetV3Addresses {
  const at = (nonce: number) => getCreateAddress({ from: admin, nonce }).toLowerCase();
  const appendedFrom = STACK_ORDER.length + 2 * V3_WRAPPED_BEFORE_LBP_FACTORIES;
  return Object.fromEntries([
    ...STACK_ORDER.map((name, nonce) => [name, at(nonce)]),
    ...APPENDED_ORDER.map((name, i) => [name, at(appendedFrom + i)]),
  ]) as unknown as DevnetV3Addresses;
}

/**
 * Each ERC-4626 token and then its rate provider: the first ones right after the stack, the
 * others after the LBP factories.
 */
export function expectedV3WrappedAddresses(
  admin: string = devAccount(V3_ADMIN_INDEX).address,
): { symbol: string; wrapped: string; rateProvider: string }[] {
  const at = (nonce: number) => getCreateAddress({ from: admin, nonce }).toLowerCase();
  return V3_WRAPPED_TOKENS.map((w, i) => ({
    symbol: w.symbol,
    wrapped: at(wrappedNonce(i)),
    rateProvider: at(wrappedNonce(i) + 1),
  }));
}
