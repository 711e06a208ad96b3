import { getAddress, Interface } from 'ethers';
import { UpstreamError } from '../upstream';
import { callBatch, RPC_UPSTREAM, type JsonRpcOptions, type RpcOutcome } from './jsonRpc';

/**
 * What an order's sender has already allowed, read from the chain's node at one block: for V3, in
 * one batch, the sell token's allowance to Permit2 and Permit2's allowance of that token to the V3
 * router; for V2, the sell token's allowance to the Vault. So `/order` lists only the approvals
 * still missing.
 */

export interface SenderAllowances {
  readonly tokenToPermit2: bigint;
  readonly permit2ToRouter: { readonly amount: bigint; readonly expiration: number };
}

export interface Permit2AllowanceReader {
  read(args: {
    readonly token: string;
    readonly sender: string;
    readonly router: string;
    readonly permit2: string;
    /** Hex block number, or 'latest'. */
    readonly block: string;
  }): Promise<SenderAllowances>;
  /** `token.allowance(owner, spender)` at `block` (hex, or 'latest'). */
  erc20Allowance(args: {
    readonly token: string;
    readonly owner: string;
    readonly spender: string;
    readonly block: string;
  }): Promise<bigint>;
}

const VIEWS = new Interface([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function allowance(address user, address token, address spender) view returns (uint160 amount, uint48 expiration, uint48 nonce)',
]);
const ERC20_ALLOWANCE = 'allowance(address,address)';
const PERMIT2_ALLOWANCE = 'allowance(address,address,address)';

function resultOf(o: RpcOutcome | undefined, what: string): string {
  if (!o?.ok || typeof o.result !== 'string' || o.result === '0x')
    throw new UpstreamError(RPC_UPSTREAM, `${what} failed: ${o && !o.ok ? o.error : 'empty answer'}`);
  return o.result;
}

export class RpcPermit2Allowances implements Permit2AllowanceReader {
  constructor(private readonly rpc: JsonRpcOptions) {}

  async erc20Allowance(args: Parameters<Permit2AllowanceReader['erc20Allowance']>[0]): Promise<bigint> {
    const [token, owner, spender] = [args.token, args.owner, args.spender].map((a) => getAddress(a)) as [
      string,
      string,
      string,
    ];
    const [answer] = await callBatch(this.rpc, [
      {
        method: 'eth_call',
        params: [{ to: token, data: VIEWS.encodeFunctionData(ERC20_ALLOWANCE, [owner, spender]) }, args.block],
      },
    ]);
    return VIEWS.decodeFunctionResult(ERC20_ALLOWANCE, resultOf(answer, `${token}.allowance`))[0] as bigint;
  }

  async read(args: Parameters<Permit2AllowanceReader['read']>[0]): Promise<SenderAllowances> {
    const [token, sender, router, permit2] = [args.token, args.sender, args.router, args.permit2].map((a) =>
      getAddress(a),
    ) as [string, string, string, string];
    const [toPermit2, toRouter] = await callBatch(this.rpc, [
      {
        method: 'eth_call',
        params: [{ to: token, data: VIEWS.encodeFunctionData(ERC20_ALLOWANCE, [sender, permit2]) }, args.block],
      },
      {
        method: 'eth_call',
        params: [
          { to: permit2, data: VIEWS.encodeFunctionData(PERMIT2_ALLOWANCE, [sender, token, router]) },
          args.block,
        ],
      },
    ]);
    const tokenToPermit2 = VIEWS.decodeFunctionResult(
      ERC20_ALLOWANCE,
      resultOf(toPermit2, `${token}.allowance`),
    )[0] as bigint;
    const p = VIEWS.decodeFunctionResult(PERMIT2_ALLOWANCE, resultOf(toRouter, `Permit2 ${permit2}.allowance`));
    return { tokenToPermit2, permit2ToRouter: { amount: p[0] as bigint, expiration: Number(p[1] as bigint) } };
  }
}
