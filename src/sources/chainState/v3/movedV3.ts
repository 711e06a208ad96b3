import { toQuantity } from 'ethers';
import { poolTypeDefs, protocolOfDef } from '../../../domain/poolTypes/registry';
import {
  V3_BUFFERS_PAUSED,
  V3_POOL_REGISTERED,
  V3_VAULT_BUFFER_EVENTS,
  V3_VAULT_POOL_EVENTS,
} from '../../../domain/protocols/v3/vaultReads';
import { callBatch, RPC_UPSTREAM, type JsonRpcOptions, type RpcOutcome } from '../../rpc/jsonRpc';
import { UpstreamError } from '../../upstream';
import { LogsRefusedError } from '../logReads';
import { nothingMoved, type BufferBalances, type MovedInBlocks } from '../movedInBlocks';
import { eventTopic } from '../eventTopic';

const POOL_TOPICS = new Set(V3_VAULT_POOL_EVENTS.map(eventTopic));
const BUFFER_TOPICS = new Set(V3_VAULT_BUFFER_EVENTS.map(eventTopic));
const REGISTERED_TOPIC = eventTopic(V3_POOL_REGISTERED);
const BUFFERS_PAUSED_TOPIC = eventTopic(V3_BUFFERS_PAUSED);
const VAULT_TOPICS = [...POOL_TOPICS, ...BUFFER_TOPICS, REGISTERED_TOPIC, BUFFERS_PAUSED_TOPIC];

/** The events V3 pool types' own contracts emit (an amp ramp ...), from the registry. */
function v3TypeTopics(): string[] {
  const events = poolTypeDefs()
    .filter((d) => protocolOfDef(d) === 3)
    .flatMap((d) => d.chain?.events ?? []);
  return [...new Set(events.map(eventTopic))];
}

/** The address in a topic (an indexed address is left-padded to 32 bytes), lower case. */
const topicAddress = (topic: unknown): string | undefined =>
  typeof topic === 'string' && topic.length === 66 ? `0x${topic.slice(26)}`.toLowerCase() : undefined;

interface Log {
  readonly address?: unknown;
  readonly topics?: unknown;
  readonly data?: unknown;
  readonly blockNumber?: unknown;
}

/**
 * The buffer's balances after the event: every buffer event's data ends with them packed in one
 * word (`bytes32 bufferBalances`: underlying in the low 128 bits, wrapped in the high 128), as
 * the Vault stores them. Null for data that does not hold that word.
 */
function bufferBalancesOf(log: Log): BufferBalances | null {
  const data = log.data;
  if (typeof data !== 'string' || !/^0x([0-9a-fA-F]{64}){3}$/.test(data)) return null;
  const packed = BigInt(`0x${data.slice(2 + 128)}`);
  const mask = (1n << 128n) - 1n;
  return { underlying: packed & mask, wrapped: packed >> 128n };
}

/** The events that move a pool's balances (swaps, adds, removes): the first three. */
const [SWAP_TOPIC, ...LIQUIDITY_TOPICS] = V3_VAULT_POOL_EVENTS.slice(0, 3).map(eventTopic);

/**
 * Whether an add or remove log moved any raw amount: the Vault lets anyone add or remove 0 BPT
 * proportionally and still logs it, with every amount 0. Data: `totalSupply`, then the offsets of
 * `amountsRaw[]` and `swapFeeAmountsRaw[]`; data that does not decode counts as no move.
 */
function liquidityMoved(data: unknown): boolean {
  if (typeof data !== 'string' || !/^0x([0-9a-fA-F]{64})+$/.test(data)) return false;
  const word = (i: number): bigint | undefined => {
    const w = data.slice(2 + 64 * i, 2 + 64 * (i + 1));
    return w.length === 64 ? BigInt(`0x${w}`) : undefined;
  };
  const offset = word(1);
  if (offset === undefined || offset % 32n !== 0n) return false;
  const at = Number(offset / 32n);
  const length = word(at);
  if (length === undefined || length > 8n) return false;
  for (let i = 1; i <= Number(length); i++) if ((word(at + i) ?? 0n) !== 0n) return true;
  return false;
}

/**
 * The block of a log that moved the pool's balances or supply, which `checkV3CashChanges`
 * (jobs/follow/followChecks.ts) holds the read to; -1 for the pool's other events and for adds and
 * removes of nothing (a pool anyone could otherwise make look "unchanged after a trade").
 */
function cashBlock(topic0: string, log: Log): number {
  if (topic0 === SWAP_TOPIC || (LIQUIDITY_TOPICS.includes(topic0) && liquidityMoved(log.data))) return blockOf(log);
  return -1;
}

const blockOf = (log: Log): number => (typeof log.blockNumber === 'string' ? Number(BigInt(log.blockNumber)) : -1);

function logsOf(outcome: RpcOutcome | undefined, from: number, to: number): Log[] {
  if (!outcome?.ok)
    throw new LogsRefusedError(RPC_UPSTREAM, `eth_getLogs ${from}..${to} failed: ${outcome?.error ?? 'no answer'}`);
  if (!Array.isArray(outcome.result)) throw new UpstreamError(RPC_UPSTREAM, 'eth_getLogs answered without a list');
  return outcome.result as Log[];
}

/**
 * What moved in the V3 Vault in blocks `from`..`to`: the pools its logs name (swaps, liquidity,
 * pause, recovery, static and aggregate fees, initialisation; topic 1 is the pool) and the pools'
 * own state events (a V3 type's `chain.events`, any address), the buffers its buffer logs name
 * (topic 1 is the wrapped token) and the pools registered (topic 1 the pool, topic 2 its
 * factory). Buffers paused or unpaused Vault-wide set `allBuffers`. A refused query is a
 * `LogsRefusedError`.
 */
export async function readMovedV3(
  rpc: JsonRpcOptions,
  vault: string,
  from: number,
  to: number,
): Promise<MovedInBlocks> {
  const range = { fromBlock: toQuantity(from), toBlock: toQuantity(to) };
  const typeTopics = v3TypeTopics();
  const [vaultLogs, typeLogs] = await callBatch(rpc, [
    { method: 'eth_getLogs', params: [{ address: vault, ...range, topics: [VAULT_TOPICS] }] },
    ...(typeTopics.length > 0 ? [{ method: 'eth_getLogs', params: [{ ...range, topics: [typeTopics] }] }] : []),
  ]);
  const moved: MovedInBlocks = nothingMoved();
  const name = (pool: string, block: number): void => {
    moved.pools.set(pool, Math.max(block, moved.pools.get(pool) ?? -1));
  };
  for (const log of logsOf(vaultLogs, from, to)) {
    const topics = Array.isArray(log.topics) ? (log.topics as unknown[]) : [];
    const topic0 = typeof topics[0] === 'string' ? topics[0].toLowerCase() : '';
    const subject = topicAddress(topics[1]);
    if (topic0 === BUFFERS_PAUSED_TOPIC) moved.allBuffers = true;
    if (subject === undefined) continue;
    if (POOL_TOPICS.has(topic0)) name(subject, cashBlock(topic0, log));
    else if (BUFFER_TOPICS.has(topic0)) {
      moved.buffers.add(subject);
      moved.bufferBalances.set(subject, bufferBalancesOf(log));
    } else if (topic0 === REGISTERED_TOPIC) {
      name(subject, -1);
      const factory = topicAddress(topics[2]);
      if (factory !== undefined) moved.registered.set(subject, factory);
    }
  }
  if (typeTopics.length > 0)
    for (const log of logsOf(typeLogs, from, to))
      if (typeof log.address === 'string') name(log.address.toLowerCase(), -1);
  return moved;
}
