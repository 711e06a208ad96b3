import { getAddress } from 'ethers';
import { erc20Approvals } from '../approvals';
import { LimitError } from '../limits';
import type { Approval } from '../types';
import { permit2Interface, UINT160_MAX } from './v3Abi';

/**
 * What a V3 order's sender must have in place: the V3 routers pull the sell token through Permit2,
 * so the token must allow Permit2 (`token.approve(permit2, amount)`) and Permit2 must allow the
 * router (`Permit2.approve(token, router, amount, expiration)`). Only what the chain's allowances
 * at the head do not already cover is listed; without them (no node to ask) both are.
 *
 * A Permit2 approval lasts `PERMIT2_EXPIRY_SECONDS` from now, whatever the order's deadline: a far
 * deadline (accepted up to the year 5138) would otherwise leave an allowance that never expires,
 * and one that expired at an earlier order's deadline would never cover the next order. An
 * allowance is listed again when it expires before this order's deadline (or, for a deadline
 * past that horizon, before the horizon: a new approval could not last longer).
 */

/** 30 days. */
export const PERMIT2_EXPIRY_SECONDS = 30 * 24 * 3600;

export interface Permit2Allowances {
  /** `token.allowance(sender, permit2)`. */
  readonly tokenToPermit2: bigint;
  /** `permit2.allowance(sender, token, router)`: amount and expiry (unix seconds). */
  readonly permit2ToRouter: { readonly amount: bigint; readonly expiration: number };
}

export function permit2Approvals(args: {
  readonly token: string;
  readonly router: string;
  readonly permit2: string;
  /** The most the router pulls. */
  readonly amount: bigint;
  /** The order's deadline: a Permit2 allowance must last until then. */
  readonly deadline: number;
  /** Unix seconds: the later of the clock and the served block's time. */
  readonly now: number;
  readonly current?: Permit2Allowances;
}): Approval[] {
  const { token, router, permit2, amount, deadline, now, current } = args;
  const expiration = now + PERMIT2_EXPIRY_SECONDS;
  const out = erc20Approvals(token, permit2, amount, current?.tokenToPermit2);
  const p = current?.permit2ToRouter;
  if (!p || p.amount < amount || p.expiration < Math.min(deadline, expiration)) {
    if (amount > UINT160_MAX)
      throw new LimitError(
        `the input limit ${amount} does not fit Permit2's 160-bit allowance; ask for a smaller amount`,
      );
    out.push({
      kind: 'permit2',
      token: getAddress(token),
      spender: getAddress(router),
      amount: amount.toString(),
      expiration,
      to: getAddress(permit2),
      data: permit2Interface.encodeFunctionData('approve', [getAddress(token), getAddress(router), amount, expiration]),
    });
  }
  return out;
}
