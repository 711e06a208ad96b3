import { getAddress } from 'ethers';
import { erc20ApproveInterface } from './v2/relayer/relayerAbi';
import type { Approval } from './types';
import { vaultInterface } from './v2/vaultAbi';

/** The steps `/order` lists before its transaction: ready calls, each sent by the sender. */

export function relayerApproval(vault: string, relayer: string, sender: string): Approval {
  return {
    kind: 'relayer',
    relayer: getAddress(relayer),
    vault: getAddress(vault),
    sender: getAddress(sender),
    to: getAddress(vault),
    data: vaultInterface.encodeFunctionData('setRelayerApproval', [getAddress(sender), getAddress(relayer), true]),
  };
}

/**
 * The approvals that let `spender` pull `amount` of `token`, given its allowance at the head
 * (`current`; undefined when no node was asked: the approve alone). None when `current` covers
 * it; else `approve(amount)`, after `approve(0)` when `current` is not zero: USDT and tokens like
 * it revert an approve from one non-zero allowance to another.
 */
export function erc20Approvals(token: string, spender: string, amount: bigint, current?: bigint): Approval[] {
  if (current === undefined || current === 0n) return [erc20Approval(token, spender, amount)];
  if (current >= amount) return [];
  return [erc20Approval(token, spender, 0n), erc20Approval(token, spender, amount)];
}

/** The Vault pulls ERC-20s with `transferFrom`, for Vault and relayer routes alike. */
export function erc20Approval(token: string, spender: string, amount: bigint): Approval {
  return {
    kind: 'erc20',
    token: getAddress(token),
    spender: getAddress(spender),
    amount: amount.toString(),
    to: getAddress(token),
    data: erc20ApproveInterface.encodeFunctionData('approve', [getAddress(spender), amount]),
  };
}
