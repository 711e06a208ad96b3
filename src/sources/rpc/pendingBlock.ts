import { callBatch, type JsonRpcOptions } from './jsonRpc';

/**
 * The timestamp the node would stamp a block it made now: its `pending` block's, on a chain that
 * makes blocks on demand (a devnet stamps it with its clock, a second past the head at least).
 * Undefined when the node does not say (no pending block, an error): the caller falls back to its
 * own estimate of the chain's clock.
 */
export async function pendingBlockTime(rpc: JsonRpcOptions): Promise<number | undefined> {
  try {
    const [answer] = await callBatch(rpc, [{ method: 'eth_getBlockByNumber', params: ['pending', false] }]);
    const ts = answer?.ok ? (answer.result as { timestamp?: unknown } | null)?.timestamp : undefined;
    return typeof ts === 'string' && /^0x[0-9a-f]+$/i.test(ts) ? Number(BigInt(ts)) : undefined;
  } catch {
    return undefined;
  }
}
