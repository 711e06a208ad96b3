import { AbiCoder, id, Interface, toQuantity } from 'ethers';
import type { PoolChainState } from '../../domain/chainState';
import type { ProtocolVersion, StoredPool } from '../../domain/pool';
import type {
  AbiValue,
  AbiWord,
  CallTarget,
  ChainCall,
  ChainEvent,
  ChainReads,
  Getter,
  LastLogRead,
} from '../../domain/poolTypes/chainReads';
import { poolTypeDef, registryVersion } from '../../domain/poolTypes/registry';
import { v2VaultCalls, type V2VaultDraft } from '../../domain/protocols/v2/vaultReads';
import { finishV3VaultState, v3VaultCalls, type V3VaultDraft } from '../../domain/protocols/v3/vaultReads';
import { UpstreamError } from '../upstream';
import { codeOf } from '../rpc/codeAnswer';
import { MalformedAnswerError, RPC_UPSTREAM, type RpcCall, type RpcOutcome } from '../rpc/jsonRpc';
import { callPinned, type PinnedRpcOptions } from '../rpc/multicall';
import { encodedWords, wordsDecoder, type WordDecoder } from './abiWords';
import { eventTopic } from './eventTopic';

/**
 * Reads pool state from the chain's node in JSON-RPC batches, every `eth_call` pinned to one block
 * number, so a read is the chain at that block and nothing else: the V2 Vault reads of each pool
 * (`domain/protocols/v2/vaultReads.ts`) and the getters its pool type declares (`chain` in its
 * definition, `domain/poolTypes/chainReads.ts`), in two rounds (the second asks what the first's
 * answers name: providers, a fees collector, the log a schedule started with). The head block is
 * read in `headReads.ts`, the logs that name pools whose state moved in `logReads.ts`. This file
 * knows no pool type: it batches, pins, encodes and decodes. A node that fails a whole request, or
 * any call for another reason than a revert (a block it does not have yet, a per-call rate limit),
 * is an `UpstreamError`, and an answer that is not a real one (missing, null, empty, cut short,
 * another call's) a `MalformedAnswerError`: a read is the whole block or nothing. Only a getter
 * that reverts (a pool type without it) leaves its field out, and only the Vault's unknown-pool
 * revert a pool.
 */

/**
 * What a reader keeps across blocks, owned by whoever follows the chain (one per follower, never a
 * module variable): each pool's encoded first round, the encodings and decoders of the getters,
 * each pool type's memo (`ChainReads.newMemo`) and the event topics of the registered types.
 */
export interface ChainReadCache {
  readonly planned: Map<string, { readonly shape: string; readonly calls: readonly PlannedCall[] }>;
  readonly selectors: Map<string, string>;
  /** Each getter's selector by the getter itself (a module constant), so a plan builds no signature. */
  readonly getterSelectors: WeakMap<Getter, string>;
  readonly decoders: Map<string, WordDecoder>;
  readonly memos: Map<ChainReads, unknown>;
  topics?: { readonly version: number; readonly topics: readonly string[] };
}

export function newChainReadCache(): ChainReadCache {
  return {
    planned: new Map(),
    selectors: new Map(),
    getterSelectors: new WeakMap(),
    decoders: new Map(),
    memos: new Map(),
  };
}

/** What a Vault's reads fill (the V3 Vault's draft holds the V2 Vault's fields and more). */
type VaultDraft = V2VaultDraft & V3VaultDraft & { timeUnknown?: true };

/**
 * A Vault's reads: the calls it makes for every pool of its protocol, whatever the type (the first
 * call's revert means the Vault does not know the pool). One per protocol (`V2_VAULT_READS`, `V3_VAULT_READS`).
 */
export interface VaultReads {
  readonly protocol: ProtocolVersion;
  calls(pool: StoredPool): readonly ChainCall<VaultDraft>[];
  /** Whether the first call's answer is the Vault's own "no such pool" revert. */
  isPoolUnknown(outcome: RpcOutcome | undefined): boolean;
}

/** The V2 Vault reads (`domain/protocols/v2/vaultReads.ts`), by pool id. */
export const V2_VAULT_READS: VaultReads = {
  protocol: 2,
  calls: (pool) => v2VaultCalls(pool.id),
  isPoolUnknown: (outcome) => isPoolUnknown(outcome),
};

/** The V3 Vault's `PoolNotRegistered(address)` error selector. */
const POOL_NOT_REGISTERED = id('PoolNotRegistered(address)').slice(0, 10);

/** The V3 Vault reads (`domain/protocols/v3/vaultReads.ts`), by pool address. */
export const V3_VAULT_READS: VaultReads = {
  protocol: 3,
  calls: (pool) =>
    v3VaultCalls(
      pool.address,
      pool.v3?.hook,
      pool.tokens.map((t) => t.address.toLowerCase()),
    ),
  isPoolUnknown: (outcome) =>
    outcome !== undefined &&
    !outcome.ok &&
    isRevertAnswer(outcome) &&
    outcome.data?.startsWith(POOL_NOT_REGISTERED) === true,
};

/** A pool's draft while its answers come in: the Vault's and its type's own. */
interface PoolDraft {
  readonly vault: VaultDraft;
  readonly own: unknown;
}

/** One encoded `eth_call` and what its answer sets in the pool's draft. */
interface PlannedCall {
  readonly to: string;
  readonly data: string;
  readonly fn: string;
  readonly outputs: readonly AbiWord[];
  /** The getter returns one struct holding an array (`Getter.struct`). */
  readonly struct?: true;
  readonly decoder: WordDecoder;
  readonly apply: (draft: PoolDraft, values: readonly AbiValue[]) => void;
}

const abi = AbiCoder.defaultAbiCoder();

function signatureOf(name: string, types: readonly string[]): string {
  return `${name}(${types.join(',')})`;
}

function selectorOf(cache: ChainReadCache, signature: string): string {
  let selector = cache.selectors.get(signature);
  if (selector === undefined) cache.selectors.set(signature, (selector = id(signature).slice(0, 10)));
  return selector;
}

function decoderOf(cache: ChainReadCache, outputs: readonly AbiWord[], struct = false): WordDecoder {
  const key = `${struct ? 'struct:' : ''}${outputs.join(',')}`;
  let decoder = cache.decoders.get(key);
  if (!decoder) cache.decoders.set(key, (decoder = wordsDecoder(outputs, struct)));
  return decoder;
}

function targetOf(to: CallTarget, vault: string, pool: StoredPool): string {
  return 'pool' in to ? pool.address : 'vault' in to ? vault : to.address;
}

function encoded<D>(
  cache: ChainReadCache,
  call: ChainCall<D>,
  vault: string,
  pool: StoredPool,
  apply: (draft: PoolDraft, values: readonly AbiValue[]) => void,
): PlannedCall {
  const g = call.getter;
  let selector = cache.getterSelectors.get(g);
  if (selector === undefined)
    cache.getterSelectors.set(g, (selector = selectorOf(cache, signatureOf(g.name, g.inputs))));
  const args =
    g.inputs.length > 0 ? (encodedWords(g.inputs, call.args) ?? abi.encode(g.inputs, call.args).slice(2)) : '';
  return {
    to: targetOf(call.to, vault, pool),
    data: selector + args,
    fn: g.name,
    outputs: g.outputs,
    ...(g.struct ? { struct: true as const } : {}),
    decoder: decoderOf(cache, g.outputs, g.struct),
    apply,
  };
}

/**
 * The pool type's chain reads, when the registry carries its type (for the pool's protocol) and the
 * type reads anything.
 */
function readsOf(pool: StoredPool): ChainReads | undefined {
  return poolTypeDef(pool.poolType, pool.protocolVersion ?? 2)?.chain;
}

/**
 * What to ask about one pool in the first round: its Vault reads, then what its pool type
 * declares.
 */
function firstRound(cache: ChainReadCache, vault: string, pool: StoredPool, vaultReads: VaultReads): PlannedCall[] {
  const vaultCalls = vaultReads.calls(pool).map((c) => encoded(cache, c, vault, pool, (d, v) => c.apply(d.vault, v)));
  const reads = readsOf(pool);
  const own = (reads?.first(pool) ?? []).map((c) => encoded(cache, c, vault, pool, (d, v) => c.apply(d.own, v)));
  return [...vaultCalls, ...own];
}

/**
 * What the first round asks about a pool depends only on these fields of its stored shape (its
 * type and version pick the reads, its tokens the per-token calls, the type may name more), which
 * the chain state laid over it (balances, fee, rates) never changes; and on the registry.
 */
function shapeOf(vault: string, pool: StoredPool): string {
  const tokens = pool.tokens.map((t) => t.address).join(',');
  const own = readsOf(pool)?.shape?.(pool) ?? '';
  // A V3 pool's known hook adds its own calls (`domain/protocols/v3/hooks/hookReads.ts`).
  const hook = pool.v3?.hook ? `${pool.v3.hook.address}:${pool.v3.hook.kind}` : '';
  return `${registryVersion()}|${vault}|${pool.address}|${pool.poolType}|${pool.poolTypeVersion}|${own}|${hook}|${tokens}`;
}

/**
 * Each pool's first round, encoded once rather than at every block that moves it (the read model
 * hands the follower a new pool object each time its chain state changes, so this is keyed by id
 * and checked against the shape). It holds one entry per pool id ever read by the cache's owner:
 * the followed catalogue, a few thousand pools, plus the few the subgraph dropped since.
 */
function plannedCalls(
  cache: ChainReadCache,
  vault: string,
  pool: StoredPool,
  vaultReads: VaultReads,
): readonly PlannedCall[] {
  const shape = shapeOf(vault, pool);
  const known = cache.planned.get(pool.id);
  if (known?.shape === shape) return known.calls;
  const calls = firstRound(cache, vault, pool, vaultReads);
  cache.planned.set(pool.id, { shape, calls });
  return calls;
}

/** How many calls a read of these pools makes in its first round (docs/operations.md, "RPC load"). */
export function callsFor(
  vault: string,
  pools: readonly StoredPool[],
  cache = newChainReadCache(),
  vaultReads: VaultReads = V2_VAULT_READS,
): number {
  return pools.reduce((n, p) => n + plannedCalls(cache, vault, p, vaultReads).length, 0);
}

/**
 * A revert is the contract's answer (the getter is missing, the Vault does not know the pool);
 * anything else a node says about one call (header not found, rate limited) is the node's failure.
 */
export function isRevertAnswer(outcome: { readonly error: string; readonly code?: number }): boolean {
  return outcome.code === 3 || /revert/i.test(outcome.error);
}

/** `Error(string)`'s selector: a revert with a reason carries it before the encoded string. */
const ERROR_STRING = new Interface(['function Error(string)']);

/**
 * The Vault's answer for a pool it does not know: `getPoolTokens` reverts with BAL#500
 * (INVALID_POOL_ID), in the node's message or in the revert data. Any other failure of that call,
 * a revert without that reason included, says nothing about the pool.
 */
export function isPoolUnknown(outcome: RpcOutcome | undefined): boolean {
  if (!outcome || outcome.ok || !isRevertAnswer(outcome)) return false;
  if (/BAL#500\b/.test(outcome.error)) return true;
  if (!outcome.data?.startsWith(ERROR_STRING.getFunction('Error')!.selector)) return false;
  try {
    return String(ERROR_STRING.decodeFunctionData('Error', outcome.data)[0]) === 'BAL#500';
  } catch {
    return false;
  }
}

/**
 * One call's answer, decoded into its getter's values; undefined for a revert (the contract's
 * answer: a getter it lacks). Anything else that is not a full answer fails the read: no answer, a
 * node's error, a result that is not hex, is empty (`0x`, which a contract with the getter never
 * returns) or does not decode as the getter's outputs (cut short, or another call's answer).
 */
export function decodedAnswer(
  cache: ChainReadCache,
  read: Pick<PlannedCall, 'fn' | 'outputs' | 'struct'> & { readonly decoder?: WordDecoder },
  outcome: RpcOutcome | undefined,
  blockNumber: number,
): AbiValue[] | undefined {
  if (!outcome || (!outcome.ok && outcome.missing))
    throw new MalformedAnswerError(`eth_call ${read.fn} at block ${blockNumber}: no answer for this call`);
  if (!outcome.ok) {
    if (isRevertAnswer(outcome)) return undefined;
    throw new UpstreamError(RPC_UPSTREAM, `eth_call ${read.fn} at block ${blockNumber} failed: ${outcome.error}`);
  }
  const bad = (what: string) =>
    new MalformedAnswerError(`eth_call ${read.fn} at block ${blockNumber} answered ${what}`);
  if (
    typeof outcome.result !== 'string' ||
    (!outcome.hexData && (outcome.result.length % 2 !== 0 || !/^0x[0-9a-fA-F]*$/.test(outcome.result)))
  )
    throw bad(
      `${outcome.result === null ? 'null' : typeof outcome.result === 'string' ? 'text that is not hex data' : typeof outcome.result}, not return data`,
    );
  if (outcome.result === '0x') throw bad('empty return data (0x)');
  const values = (read.decoder ?? decoderOf(cache, read.outputs, read.struct))(outcome.result, true);
  if (values === undefined) throw bad(`${(outcome.result.length - 2) / 2} bytes that do not decode as its outputs`);
  return values;
}

/**
 * How the reader reaches a node: JSON-RPC options (batched HTTP, `rpc/jsonRpc.ts`; with the
 * chain's Multicall3, the `eth_call`s aggregated: `rpc/multicall.ts`), or a function that answers
 * a list of calls in order (the devnet indexer's in-process chain).
 */
export type ChainTransport = PinnedRpcOptions | ((calls: readonly RpcCall[]) => Promise<RpcOutcome[]>);

function send(rpc: ChainTransport, calls: readonly RpcCall[]): Promise<RpcOutcome[]> {
  return typeof rpc === 'function' ? rpc(calls) : callPinned(rpc, calls);
}

const ethCall = (to: string, data: string, blockNumber: number): RpcCall => ({
  method: 'eth_call',
  params: [{ to, data }, toQuantity(blockNumber)],
});

/**
 * The state of each pool at `blockNumber`, keyed by pool id, read through `vaultReads` (the V2
 * Vault's unless named). A pool whose first Vault call the Vault refuses (reverts: not registered there),
 * or a V3 pool whose Vault reads are incomplete, is left out; a call the node fails otherwise throws
 * `UpstreamError`, so the caller publishes nothing of this block. A V2 pool with a state in
 * `swappedSince` (only swaps moved it since that state, and its type says a swap moves nothing else:
 * `ChainReads.swapsMoveBalancesOnly`) is read by the Vault's `getPoolTokens` alone and keeps the
 * rest of that state.
 */
export async function readPoolStates(
  rpc: ChainTransport,
  vault: string,
  pools: readonly StoredPool[],
  blockNumber: number,
  cache: ChainReadCache = newChainReadCache(),
  vaultReads: VaultReads = V2_VAULT_READS,
  swappedSince?: ReadonlyMap<string, PoolChainState>,
): Promise<Map<string, PoolChainState>> {
  const keep = (p: StoredPool) => (vaultReads.protocol === 2 ? swappedSince?.get(p.id) : undefined);
  const plans = pools.map((p) => {
    const calls = plannedCalls(cache, vault, p, vaultReads);
    return { pool: p, calls: keep(p) ? calls.slice(0, 1) : calls };
  });
  // A call several pools make (the Vault's fees collector) is asked once; only calls to another
  // contract than the pool can be one.
  const tag = toQuantity(blockNumber);
  const asked: RpcCall[] = [];
  const answerOf: number[] = [];
  const shared = new Map<string, number>();
  for (const { pool, calls } of plans)
    for (const c of calls) {
      const key = c.to === pool.address ? undefined : `${c.to}|${c.data}`;
      const known = key === undefined ? undefined : shared.get(key);
      if (known !== undefined) {
        answerOf.push(known);
        continue;
      }
      if (key !== undefined) shared.set(key, asked.length);
      answerOf.push(asked.length);
      asked.push({ method: 'eth_call', params: [{ to: c.to, data: c.data }, tag] });
    }
  const answers = await send(rpc, asked);
  const outcomes = answerOf.map((k) => answers[k]);
  const drafts: { pool: StoredPool; reads: ChainReads | undefined; draft: PoolDraft }[] = [];
  const out = new Map<string, PoolChainState>();
  let at = 0;
  for (const { pool, calls } of plans) {
    const reads = readsOf(pool);
    const draft: PoolDraft = { vault: { tokens: [] }, own: reads?.draft() };
    // The first call is the Vault's (getPoolTokens, getPoolTokenInfo): only its "unknown pool"
    // revert leaves the pool out (its other answers then say nothing); any other revert of it is no
    // answer about the pool.
    const vaultAnswer = outcomes[at];
    if (vaultReads.isPoolUnknown(vaultAnswer)) {
      at += calls.length;
      continue;
    }
    if (vaultAnswer && !vaultAnswer.ok && isRevertAnswer(vaultAnswer))
      throw new MalformedAnswerError(
        `eth_call ${calls[0]?.fn ?? 'of the Vault'} of pool ${pool.id} at block ${blockNumber} reverted without the Vault's unknown-pool reason: ${vaultAnswer.error}`,
      );
    for (let i = 0; i < calls.length; i++) {
      const call = calls[i]!;
      const values = decodedAnswer(cache, call, outcomes[at + i], blockNumber);
      if (values) call.apply(draft, values);
    }
    if (draft.vault.malformed) throw new MalformedAnswerError(draft.vault.malformed);
    if (draft.vault.lastChangeBlock !== undefined && draft.vault.lastChangeBlock > blockNumber)
      throw new MalformedAnswerError(
        `getPoolTokens of pool ${pool.id} at block ${blockNumber} says its balances last changed at block ${draft.vault.lastChangeBlock}: an answer from another block`,
      );
    at += calls.length;
    const kept = keep(pool);
    if (kept)
      out.set(pool.id, {
        ...kept,
        tokens: draft.vault.tokens,
        ...(draft.vault.lastChangeBlock !== undefined ? { lastChangeBlock: draft.vault.lastChangeBlock } : {}),
      });
    else drafts.push({ pool, reads, draft });
  }
  await secondRound(rpc, cache, vault, drafts, blockNumber);
  for (const { pool, reads, draft } of drafts) {
    const { v3: v3Draft, malformed: _malformed, ...vaultFields } = draft.vault;
    const v3 = v3Draft === undefined ? undefined : finishV3VaultState(draft.vault);
    // Every getter of the V3 Vault reads is the Vault's own: one that did not answer is no real answer.
    if (v3Draft !== undefined && v3 === undefined)
      throw new MalformedAnswerError(`the V3 Vault reads of pool ${pool.id} at block ${blockNumber} are incomplete`);
    out.set(pool.id, {
      poolId: pool.id,
      ...vaultFields,
      ...(v3 ? { v3 } : {}),
      ...(reads ? { own: { reads, state: reads.finish(draft.own, vaultFields) } } : {}),
    });
  }
  return out;
}

function memoOf(cache: ChainReadCache, reads: ChainReads): unknown {
  if (!cache.memos.has(reads)) cache.memos.set(reads, reads.newMemo?.());
  return cache.memos.get(reads);
}

const isLogRead = <D>(r: ChainCall<D> | LastLogRead<D>): r is LastLogRead<D> => 'lastLog' in r;

/**
 * The second round: what each pool type asks once the first round's answers are in (a rate
 * provider's own rate, a fees collector's percentage, the last log a schedule started with). A
 * call several pools make (one fees collector) is asked once.
 */
async function secondRound(
  rpc: ChainTransport,
  cache: ChainReadCache,
  vault: string,
  drafts: readonly { pool: StoredPool; reads: ChainReads | undefined; draft: PoolDraft }[],
  blockNumber: number,
): Promise<void> {
  const calls: RpcCall[] = [];
  const applies: ((outcome: RpcOutcome | undefined) => void)[][] = [];
  const byKey = new Map<string, number>();
  const add = (call: RpcCall, key: string | undefined, apply: (outcome: RpcOutcome | undefined) => void) => {
    const known = key === undefined ? undefined : byKey.get(key);
    if (known !== undefined) return void applies[known]!.push(apply);
    if (key !== undefined) byKey.set(key, calls.length);
    calls.push(call);
    applies.push([apply]);
  };
  for (const { pool, reads, draft } of drafts) {
    if (!reads?.second) continue;
    for (const item of reads.second(pool, draft.own, draft.vault, memoOf(cache, reads))) {
      if (isLogRead(item)) {
        add(lastLogCall(pool, item.lastLog, blockNumber), undefined, (o) => lastLogApply(cache, item, draft, o));
        continue;
      }
      const call = encoded(cache, item, vault, pool, (d, v) => item.apply(d.own, v));
      // A node's failure or an answer that is not the getter's values fails the read, as in the
      // first round; a revert (or a contract without code) leaves the field out.
      add(ethCall(call.to, call.data, blockNumber), `${call.to}|${call.data}`, (o) => {
        const values = decodedAnswer(cache, call, o, blockNumber);
        if (values) call.apply(draft, values);
      });
    }
  }
  if (calls.length === 0) return;
  const outcomes = await send(rpc, calls);
  await codelessAsReverts(rpc, calls, outcomes, blockNumber);
  applies.forEach((list, i) => list.forEach((apply) => apply(outcomes[i])));
}

/**
 * A second-round call answered with empty data (`0x`) is a contract the pool names (a rate
 * provider) that has no code at that block, or a node that answered nothing: `eth_getCode` tells
 * them apart. A call to an address without code counts as a revert (the pool's own calls to it
 * would revert too); an empty answer from a contract with code fails the read, as in the first round.
 */
async function codelessAsReverts(
  rpc: ChainTransport,
  calls: readonly RpcCall[],
  outcomes: RpcOutcome[],
  blockNumber: number,
): Promise<void> {
  const empty = calls.flatMap((c, i) => {
    const o = outcomes[i];
    return c.method === 'eth_call' && o?.ok && o.result === '0x' ? [i] : [];
  });
  if (empty.length === 0) return;
  const target = (i: number) => (calls[i]!.params[0] as { to: string }).to.toLowerCase();
  const targets = [...new Set(empty.map(target))];
  const codes = await send(
    rpc,
    targets.map((t) => ({ method: 'eth_getCode', params: [t, toQuantity(blockNumber)] })),
  );
  const codeless = new Set<string>();
  targets.forEach((t, k) => {
    if (codeOf(codes[k], t, String(blockNumber)) === '0x') codeless.add(t);
  });
  for (const i of empty)
    if (codeless.has(target(i))) outcomes[i] = { ok: false, error: `no contract code at ${target(i)}`, code: 3 };
}

/** The pool's logs with the event's topic, over its whole history up to the block. */
function lastLogCall(pool: StoredPool, event: ChainEvent, blockNumber: number): RpcCall {
  return {
    method: 'eth_getLogs',
    params: [
      { address: pool.address, fromBlock: '0x0', toBlock: toQuantity(blockNumber), topics: [eventTopic(event)] },
    ],
  };
}

/**
 * The last of those logs for its read. A node that refuses or fails that query (providers cap log
 * ranges) does not fail the block: the pool's values stay as read at the head and the pool is
 * read again at every new block (`timeUnknown`), so its quotes are off by one block's movement at
 * most rather than the follower stalling on it; likewise a log that does not decode or does not
 * describe the state read.
 */
function lastLogApply(
  cache: ChainReadCache,
  read: LastLogRead<unknown>,
  draft: PoolDraft,
  o: RpcOutcome | undefined,
): void {
  if (!o?.ok) {
    draft.vault.timeUnknown = true;
    return;
  }
  if (!Array.isArray(o.result)) throw new MalformedAnswerError('eth_getLogs of a pool answered without a list');
  const logs: unknown[] = o.result;
  const last = logs[logs.length - 1];
  if (
    typeof last !== 'object' ||
    last === null ||
    !('data' in last) ||
    typeof last.data !== 'string' ||
    !('topics' in last) ||
    !Array.isArray(last.topics)
  )
    return;
  const values = decoderOf(cache, read.lastLog.data ?? [])(last.data);
  if (!values || !read.apply(draft.own, values)) draft.vault.timeUnknown = true;
}
