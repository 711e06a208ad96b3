import { toQuantity } from 'ethers';
import type { BlockRef } from '../../domain/chainState';
import { UpstreamError } from '../upstream';
import { callBatch, RPC_UPSTREAM, type JsonRpcOptions, type RpcOutcome } from '../rpc/jsonRpc';

/**
 * The head block from the chain's node, and the block at a height the follower already holds: the
 * one read the follower makes at every poll. A node that fails it, or answers without a block's
 * number, hash, parent and time, is an `UpstreamError`.
 */

interface RawBlock {
  readonly number?: unknown;
  readonly hash?: unknown;
  readonly parentHash?: unknown;
  readonly timestamp?: unknown;
}

function toBlock(outcome: RpcOutcome | undefined, what: string): BlockRef | null {
  if (!outcome?.ok)
    throw new UpstreamError(RPC_UPSTREAM, `eth_getBlockByNumber(${what}) failed: ${outcome?.error ?? 'no answer'}`);
  if (outcome.result === null) return null;
  const b = outcome.result as RawBlock;
  if (
    typeof b?.number !== 'string' ||
    typeof b.hash !== 'string' ||
    typeof b.parentHash !== 'string' ||
    typeof b.timestamp !== 'string'
  )
    throw new UpstreamError(
      RPC_UPSTREAM,
      `eth_getBlockByNumber(${what}) answered without number, hash, parentHash and timestamp`,
    );
  return {
    number: Number(BigInt(b.number)),
    hash: b.hash.toLowerCase(),
    parentHash: b.parentHash.toLowerCase(),
    timestamp: Number(BigInt(b.timestamp)),
  };
}

/**
 * The head block, and the block now at the height of `known` (null when the chain is shorter):
 * whether it still has the hash the state was read at tells a reorg apart. A head that is `known`
 * itself, or its child, vouches for it, so only a head further on (or one whose parent is not
 * `known`) costs a second request: an idle poll carries one block, not two.
 */
export async function readHead(
  rpc: JsonRpcOptions,
  known?: BlockRef,
): Promise<{ head: BlockRef; atKnown: BlockRef | null | undefined }> {
  const [latest] = await callBatch(rpc, [{ method: 'eth_getBlockByNumber', params: ['latest', false] }]);
  const head = toBlock(latest, 'latest');
  if (!head) throw new UpstreamError(RPC_UPSTREAM, 'eth_getBlockByNumber(latest) answered null');
  if (known === undefined) return { head, atKnown: undefined };
  if (head.hash === known.hash || (head.number === known.number + 1 && head.parentHash === known.hash))
    return { head, atKnown: known };
  const [again] = await callBatch(rpc, [{ method: 'eth_getBlockByNumber', params: [toQuantity(known.number), false] }]);
  return { head, atKnown: toBlock(again, toQuantity(known.number)) };
}
