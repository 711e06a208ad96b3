import { AbiCoder, Interface } from 'ethers';
import { sendJson, startHttpFake, type HttpFake } from './httpFake';

/**
 * A node that answers the two allowance views a V3 order reads: `token.allowance(owner, spender)`
 * and Permit2's `allowance(user, token, spender)`, from tables the test sets, and records the
 * block each call was asked at.
 */

const VIEWS = new Interface([
  'function allowance(address owner, address spender) view returns (uint256)',
  'function allowance(address user, address token, address spender) view returns (uint160, uint48, uint48)',
]);

export interface Permit2Fake extends HttpFake {
  /** `${token}:${owner}:${spender}` (lower case) -> allowance. */
  readonly erc20: Map<string, bigint>;
  /** `${user}:${token}:${spender}` (lower case) -> amount and expiration. */
  readonly permit2: Map<string, { amount: bigint; expiration: number }>;
  readonly blocks: string[];
}

export async function startPermit2Fake(permit2Address: string): Promise<Permit2Fake> {
  const erc20 = new Map<string, bigint>();
  const permit2 = new Map<string, { amount: bigint; expiration: number }>();
  const blocks: string[] = [];
  const coder = AbiCoder.defaultAbiCoder();
  const answer = (call: { id: unknown; params: [{ to: string; data: string }, string] }) => {
    const [{ to, data }, block] = call.params;
    blocks.push(block);
    const parsed = VIEWS.parseTransaction({ data });
    const args = (parsed?.args ?? []).map((a) => String(a).toLowerCase());
    if (to.toLowerCase() === permit2Address.toLowerCase()) {
      const p = permit2.get(args.join(':')) ?? { amount: 0n, expiration: 0 };
      return {
        jsonrpc: '2.0',
        id: call.id,
        result: coder.encode(['uint160', 'uint48', 'uint48'], [p.amount, p.expiration, 0]),
      };
    }
    const a = erc20.get([to.toLowerCase(), ...args].join(':')) ?? 0n;
    return { jsonrpc: '2.0', id: call.id, result: coder.encode(['uint256'], [a]) };
  };
  const fake = await startHttpFake((req, res) => {
    const body = JSON.parse(req.body) as unknown;
    const calls = (Array.isArray(body) ? body : [body]) as Parameters<typeof answer>[0][];
    const answers = calls.map(answer);
    sendJson(res, 200, Array.isArray(body) ? answers : answers[0]);
  });
  return { ...fake, erc20, permit2, blocks };
}
