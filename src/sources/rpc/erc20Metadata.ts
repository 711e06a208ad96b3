import { decodeBytes32String, getAddress, Interface } from 'ethers';
import { callBatch, JsonRpcOptions, RpcCall, RpcOutcome } from './jsonRpc';

/**
 * ERC-20 metadata read from the chain with `eth_call` (symbol, name, decimals), for tokens the
 * subgraph knows only by address. Old tokens (MKR, SAI ...) return `bytes32` instead of `string`
 * for symbol and name; both encodings are understood. A call that reverts leaves that field null.
 */
export interface TokenMetadata {
  readonly address: string;
  readonly symbol: string | null;
  readonly name: string | null;
  readonly decimals: number | null;
}

const ERC20 = new Interface([
  'function symbol() view returns (string)',
  'function name() view returns (string)',
  'function decimals() view returns (uint8)',
]);
const ERC20_BYTES32 = new Interface([
  'function symbol() view returns (bytes32)',
  'function name() view returns (bytes32)',
]);

const FIELDS = ['symbol', 'name', 'decimals'] as const;

function ethCall(to: string, data: string): RpcCall {
  return { method: 'eth_call', params: [{ to, data }, 'latest'] };
}

function decodeText(fn: 'symbol' | 'name', outcome: RpcOutcome | undefined): string | null {
  if (!outcome?.ok || typeof outcome.result !== 'string' || outcome.result === '0x') return null;
  try {
    return String(ERC20.decodeFunctionResult(fn, outcome.result)[0]);
  } catch {
    try {
      return decodeBytes32String(String(ERC20_BYTES32.decodeFunctionResult(fn, outcome.result)[0]));
    } catch {
      return null;
    }
  }
}

function decodeDecimals(outcome: RpcOutcome | undefined): number | null {
  if (!outcome?.ok || typeof outcome.result !== 'string' || outcome.result === '0x') return null;
  try {
    const d = ERC20.decodeFunctionResult('decimals', outcome.result)[0] as bigint;
    return Number(d);
  } catch {
    return null;
  }
}

/** Metadata for each address (lower-case keys); throws `UpstreamError` only when the node fails. */
export async function fetchErc20Metadata(
  rpc: JsonRpcOptions,
  addresses: readonly string[],
): Promise<Map<string, TokenMetadata>> {
  const calls = addresses.flatMap((a) => FIELDS.map((f) => ethCall(getAddress(a), ERC20.encodeFunctionData(f))));
  const outcomes = await callBatch(rpc, calls);
  const out = new Map<string, TokenMetadata>();
  addresses.forEach((a, i) => {
    const [symbol, name, decimals] = [outcomes[i * 3], outcomes[i * 3 + 1], outcomes[i * 3 + 2]];
    out.set(a.toLowerCase(), {
      address: a.toLowerCase(),
      symbol: decodeText('symbol', symbol),
      name: decodeText('name', name),
      decimals: decodeDecimals(decimals),
    });
  });
  return out;
}
