import { Contract, ContractTransactionResponse, MaxUint256, Signer } from 'ethers';
import { PERMIT2_ABI } from '../../routing/v3/v3Abi';

/**
 * How a user lets a Balancer V3 router move a token: the token approves Permit2 once, then Permit2
 * approves the router (amount up to 2^160 - 1, until an expiry); the router pulls through Permit2.
 */

const MAX_UINT160 = (1n << 160n) - 1n;
const MAX_UINT48 = (1n << 48n) - 1n;
const ERC20 = [
  'function approve(address spender, uint256 amount) returns (bool)',
  'function allowance(address owner, address spender) view returns (uint256)',
];

export class Permit2ApprovalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Permit2ApprovalError';
  }
}

async function mined(tx: Promise<ContractTransactionResponse>, what: string): Promise<void> {
  const receipt = await (await tx).wait();
  if (!receipt || receipt.status !== 1) throw new Permit2ApprovalError(`${what}: transaction failed`);
}

/** Both approvals, each only when missing (unlimited amount, no expiry in practice). */
export async function approveThroughPermit2(
  owner: Signer,
  permit2: string,
  token: string,
  spender: string,
): Promise<void> {
  const from = await owner.getAddress();
  const erc20 = new Contract(token, ERC20, owner);
  if (((await erc20.getFunction('allowance')(from, permit2)) as bigint) < MaxUint256 / 2n)
    await mined(erc20.getFunction('approve')(permit2, MaxUint256), `approving Permit2 for ${token}`);
  const p2 = new Contract(permit2, PERMIT2_ABI, owner);
  const [amount] = (await p2.getFunction('allowance')(from, token, spender)) as [bigint, bigint, bigint];
  if (amount < MAX_UINT160 / 2n)
    await mined(
      p2.getFunction('approve')(token, spender, MAX_UINT160, MAX_UINT48),
      `Permit2 approving ${spender} for ${token}`,
    );
}
