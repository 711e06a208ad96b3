import type { Permit2AllowanceReader } from '../../sources/rpc/permit2Allowances';
import { erc20Approvals } from '../approvals';
import type { Approval, SorOrderResponse } from '../types';

/**
 * A V2 order's ERC-20 approvals, as the sender's allowances at the order's block leave them: none
 * where the allowance covers the amount, `approve(0)` first where it is non-zero and short
 * (`erc20Approvals`). Without a node to ask, the order's approvals stand as encoded.
 */
export async function withMissingApprovals(
  order: SorOrderResponse,
  sender: string,
  reader: Permit2AllowanceReader | undefined,
  /** Hex block number, or 'latest'. */
  block: string,
): Promise<SorOrderResponse> {
  if (!reader || !order.approvals.some((a) => a.kind === 'erc20')) return order;
  const approvals = await Promise.all(
    order.approvals.map(async (a): Promise<Approval[]> => {
      if (a.kind !== 'erc20') return [a];
      const current = await reader.erc20Allowance({ token: a.token, owner: sender, spender: a.spender, block });
      return erc20Approvals(a.token, a.spender, BigInt(a.amount), current);
    }),
  );
  return { ...order, approvals: approvals.flat() };
}
