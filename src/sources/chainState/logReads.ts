import { toQuantity } from 'ethers';
import { poolTypeDefs, protocolOfDef, registryVersion } from '../../domain/poolTypes/registry';
import {
  V2_POOL_SETTINGS_EVENTS,
  V2_VAULT_BALANCE_EVENTS,
  V2_VAULT_CASH_EVENTS,
} from '../../domain/protocols/v2/vaultReads';
import { UpstreamError } from '../upstream';
import { callBatch, MalformedAnswerError, RPC_UPSTREAM, type JsonRpcOptions, type RpcOutcome } from '../rpc/jsonRpc';
import { newChainReadCache, type ChainReadCache } from './chainStateReader';
import { eventTopic } from './eventTopic';

/**
 * The logs that name the V2 pools whose state moved in a range of blocks: the Vault's balance
 * events and the pools' own state events. Every log is checked to be one the query asked for. A
 * node that refuses a range is a `LogsRefusedError`, so the follower can ask a smaller one.
 */

/**
 * The node answered but refused this `eth_getLogs` (providers cap a query's block range or result
 * count): a smaller range may pass, unlike a node that does not answer at all.
 */
export class LogsRefusedError extends UpstreamError {
  override readonly name: string = 'LogsRefusedError';
}

interface RawLog {
  readonly address?: unknown;
  readonly topics?: unknown;
  readonly blockNumber?: unknown;
}

function logsOf(outcome: RpcOutcome | undefined, from: number, to: number): RawLog[] {
  if (!outcome?.ok)
    throw new LogsRefusedError(RPC_UPSTREAM, `eth_getLogs ${from}..${to} failed: ${outcome?.error ?? 'no answer'}`);
  if (!Array.isArray(outcome.result)) throw new MalformedAnswerError('eth_getLogs answered without a list');
  return outcome.result as RawLog[];
}

/**
 * A log as asked: from `address` when given, topic 0 among `topics`, in `from`..`to`; anything else
 * (a log of another range or event, one without its topics) is not an answer to the query.
 */
function checkedLog(
  log: RawLog,
  query: { from: number; to: number; address?: string; topics: readonly string[] },
): { address: string; topics: string[]; block: number } {
  const bad = (what: string) =>
    new MalformedAnswerError(`eth_getLogs ${query.from}..${query.to} answered a log ${what}`);
  if (log === null || typeof log !== 'object') throw bad('that is not an object');
  const { address, topics, blockNumber } = log;
  if (typeof address !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(address)) throw bad('without an address');
  if (query.address !== undefined && address.toLowerCase() !== query.address) throw bad(`from ${address}, not asked`);
  if (!Array.isArray(topics) || !topics.every((t) => typeof t === 'string' && /^0x[0-9a-fA-F]{64}$/.test(t)))
    throw bad('without its topics');
  if (!query.topics.includes(String(topics[0]).toLowerCase())) throw bad(`of event ${String(topics[0])}, not asked`);
  const block = typeof blockNumber === 'string' && /^0x[0-9a-fA-F]+$/.test(blockNumber) ? Number(blockNumber) : NaN;
  if (!(block >= query.from && block <= query.to)) throw bad(`of block ${String(blockNumber)}, outside the range`);
  return { address: address.toLowerCase(), topics: (topics as string[]).map((t) => t.toLowerCase()), block };
}

/** Topics of the V2 Vault's events that change a pool's balances; topic 1 is the pool id. */
export const VAULT_BALANCE_TOPICS: readonly string[] = V2_VAULT_BALANCE_EVENTS.map(eventTopic);

/**
 * Pool events that change what a pool's getters answer without any Vault log: those every V2 pool
 * emits (fee, pause, recovery) and those each registered pool type names (`ChainReads.events`: a
 * ramp, a rate cache, targets, a weight update ...), computed again when the registry moves.
 */
export function poolStateTopics(cache: ChainReadCache = newChainReadCache()): readonly string[] {
  const version = registryVersion();
  if (cache.topics?.version === version) return cache.topics.topics;
  const events = [
    ...V2_POOL_SETTINGS_EVENTS,
    ...poolTypeDefs()
      .filter((d) => protocolOfDef(d) === 2)
      .flatMap((d) => d.chain?.events ?? []),
  ];
  const topics = [...new Set(events.map(eventTopic))];
  cache.topics = { version, topics };
  return topics;
}

/** Topics of the V2 Vault's events that change a pool's cash (and so its `lastChangeBlock`). */
const CASH_TOPICS: readonly string[] = V2_VAULT_CASH_EVENTS.map(eventTopic);
const SWAP_TOPIC = eventTopic(V2_VAULT_BALANCE_EVENTS[0]!);

/**
 * What moved in blocks `from`..`to`, keyed by pool id (the Vault's balance logs: Swap,
 * PoolBalanceChanged, PoolBalanceManaged) or by the lower-case address of a contract that emitted
 * a pool state event (`poolStateTopics`), in one map (ids and addresses differ in length). The
 * value is the last block of a Swap or PoolBalanceChanged of that pool, which sets the Vault's
 * `lastChangeBlock` for it; -1 for an asset manager's move or a state event alone. `swapsOnly`: the
 * pool ids only `Swap` logs named. Every log is checked to be one the query asked for; a refused
 * query is a `LogsRefusedError`.
 */
export async function readMovedPools(
  rpc: JsonRpcOptions,
  vault: string,
  from: number,
  to: number,
  cache: ChainReadCache = newChainReadCache(),
): Promise<{ readonly pools: Map<string, number>; readonly swapsOnly: Set<string> }> {
  const stateTopics = poolStateTopics(cache);
  const range = { fromBlock: toQuantity(from), toBlock: toQuantity(to) };
  const [balances, states] = await callBatch(rpc, [
    { method: 'eth_getLogs', params: [{ address: vault, ...range, topics: [VAULT_BALANCE_TOPICS] }] },
    { method: 'eth_getLogs', params: [{ ...range, topics: [stateTopics] }] },
  ]);
  const moved = new Map<string, number>();
  const swapped = new Set<string>();
  const beyondSwaps = new Set<string>();
  const note = (key: string, block: number) => moved.set(key, Math.max(moved.get(key) ?? -1, block));
  for (const raw of logsOf(balances, from, to)) {
    const log = checkedLog(raw, { from, to, address: vault.toLowerCase(), topics: VAULT_BALANCE_TOPICS });
    const poolId = log.topics[1];
    if (poolId === undefined)
      throw new MalformedAnswerError(`eth_getLogs ${from}..${to} answered a Vault log without its pool id`);
    note(poolId, CASH_TOPICS.includes(log.topics[0]!) ? log.block : -1);
    (log.topics[0] === SWAP_TOPIC ? swapped : beyondSwaps).add(poolId);
  }
  for (const raw of logsOf(states, from, to)) note(checkedLog(raw, { from, to, topics: stateTopics }).address, -1);
  return { pools: moved, swapsOnly: new Set([...swapped].filter((id) => !beyondSwaps.has(id))) };
}
