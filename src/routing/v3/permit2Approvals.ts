import { getAddress } from 'ethers';
import { erc20Approval } from '../approvals';
import { LimitError } from '../limits';
import type { Approval } from '../types';
import { permit2Interface, UINT160_MAX } from './v3Abi';

/**
 * What a V3 order's sender must have in place: the V3 routers pull the sell token through Permit2,
 * so the token must allow Permit2 (`token.approve(permit2, amount)`) and Permit2 must allow the
 * router (`Permit2.approve(token, router, amount, expiration)`). Only what the chain's allowances
 * at the head do not already cover is listed; without them (no node to ask) both are.
 */

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
  readonly current?: Permit2Allowances;
}): Approval[] {
  const { token, router, permit2, amount, deadline, current } = args;
  const out: Approval[] = [];
  if (!current || current.tokenToPermit2 < amount) out.push(erc20Approval(token, permit2, amount));
  const p = current?.permit2ToRouter;
  if (!p || p.amount < amount || p.expiration < deadline) {
    if (amount > UINT160_MAX)
      throw new LimitError(
        `the input limit ${amount} does not fit Permit2's 160-bit allowance; ask for a smaller amount`,
      );
    out.push({
      kind: 'permit2',
      token: getAddress(token),
      spender: getAddress(router),
      amount: amount.toString(),
      expiration: deadline,
      to: getAddress(permit2),
      data: permit2Interface.encodeFunctionData('approve', [getAddress(token), getAddress(router), amount, deadline]),
    });
  }
  return out;
}
