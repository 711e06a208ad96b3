import { Interface } from 'ethers';
import { callBatch, RPC_UPSTREAM, type JsonRpcOptions } from '../rpc/jsonRpc';
import { UpstreamError } from '../upstream';
import { LogsRefusedError } from './chainStateReader';

/**
 * Pool state that changes without a Vault log (pause, recovery mode, swap fee, amp ramps, linear
 * targets, rate caches, weight schedules, swap enabling) announces itself with the pool's own
 * events (Balancer V2 pool contracts). One `eth_getLogs` with those topics, no address filter,
 * names the pools to re-read, mapped from the emitting address to the catalogue's pool ids.
 */
const POOL_EVENTS = new Interface([
  'event PausedStateChanged(bool paused)',
  'event RecoveryModeStateChanged(bool enabled)',
  'event SwapFeePercentageChanged(uint256 swapFeePercentage)',
  'event AmpUpdateStarted(uint256 startValue, uint256 endValue, uint256 startTime, uint256 endTime)',
  'event AmpUpdateStopped(uint256 currentValue)',
  'event TargetsSet(address indexed token, uint256 lowerTarget, uint256 upperTarget)',
  // Composable stable pools key the rate cache by token index; the older stable phantom pools by
  // token address; meta stable pools call it a price rate cache.
  'event TokenRateCacheUpdated(uint256 indexed tokenIndex, uint256 rate)',
  'event TokenRateCacheUpdated(address indexed token, uint256 rate)',
  'event PriceRateCacheUpdated(address indexed token, uint256 rate)',
  'event GradualWeightUpdateScheduled(uint256 startTime, uint256 endTime, uint256[] startWeights, uint256[] endWeights)',
  'event SwapEnabledSet(bool swapEnabled)',
]);

export const POOL_STATE_TOPICS: readonly string[] = [];
POOL_EVENTS.forEachEvent((e) => (POOL_STATE_TOPICS as string[]).push(e.topicHash));

/**
 * Ids of the pools (by `idsByAddress`, lower-case pool address to pool ids) that emitted one of
 * the state events in blocks `from`..`to`. A refused query is a `LogsRefusedError`.
 */
export async function readPoolsWithStateEvents(
  rpc: JsonRpcOptions,
  idsByAddress: ReadonlyMap<string, readonly string[]>,
  from: number,
  to: number,
): Promise<Set<string>> {
  const hex = (n: number) => `0x${n.toString(16)}`;
  const [outcome] = await callBatch(rpc, [
    { method: 'eth_getLogs', params: [{ fromBlock: hex(from), toBlock: hex(to), topics: [POOL_STATE_TOPICS] }] },
  ]);
  if (!outcome?.ok)
    throw new LogsRefusedError(
      RPC_UPSTREAM,
      `eth_getLogs (pool events) ${from}..${to} failed: ${outcome?.error ?? 'no answer'}`,
    );
  if (!Array.isArray(outcome.result)) throw new UpstreamError(RPC_UPSTREAM, 'eth_getLogs answered without a list');
  const ids = new Set<string>();
  for (const log of outcome.result as { address?: unknown }[]) {
    if (typeof log?.address !== 'string') continue;
    for (const id of idsByAddress.get(log.address.toLowerCase()) ?? []) ids.add(id);
  }
  return ids;
}
