import type { JsonRpcOptions } from '../../src/sources/rpc/jsonRpc';

/**
 * How the chain-state tests reach a local node: one attempt (a local node that fails is a failed
 * test, not a flaky network), batches of 100 like the follower's.
 */
export function nodeRpc(url: string, timeoutMs = 10_000): JsonRpcOptions {
  return { url, timeoutMs, retry: { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 }, batchSize: 100 };
}
