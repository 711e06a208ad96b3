import { getAddress } from 'ethers';
import { erc20ApproveInterface } from './relayer/relayerAbi';
import type { Approval } from './types';
import { vaultInterface } from './vaultAbi';

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
