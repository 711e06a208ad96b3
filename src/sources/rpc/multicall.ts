import { codeOf } from './codeAnswer';
import { callBatch, MalformedAnswerError, type JsonRpcOptions, type RpcCall, type RpcOutcome } from './jsonRpc';

/**
 * `eth_call`s aggregated through Multicall3's `aggregate3((address,bool,bytes)[])`: a node
 * provider bills per call, and one aggregate carries hundreds of getters. Each inner call is sent
 * with `allowFailure: true`, so each keeps its own success flag: an inner revert comes back as the
 * revert it is (code 3, its revert data), an inner success as its return data, and the reader
 * checks each as it checks a plain `eth_call`'s answer. The aggregate's own answer is decoded
 * strictly (one result per call, the canonical ABI layout, nothing left over), or it is a
 * `MalformedAnswerError`. Each aggregate ends with Multicall3's `getBlockNumber()`, which must
 * answer the block the aggregate is pinned to: an answer from another block fails the read, for
 * every pool and not only those a log named.
 *
 * An aggregate the node refuses as a whole (a revert: no Multicall3 at that block; out of gas: the
 * node's gas cap per call is lower than assumed) is halved while it runs out of gas and sent as a
 * plain JSON-RPC batch otherwise, so the read still happens; any other failure of the aggregate
 * (the node lacks the block, a rate limit) is each inner call's failure, as it would have been. An
 * aggregate answered with no data at all is Multicall3 without code (a fork that lacks it) when
 * `eth_getCode` says so: its calls, and the chain's from then on, go plain. An inner failure with
 * no return data may be the gas the aggregate had left rather than the contract: it is sent again
 * as a plain call, whose answer is taken (out of gas alone too, it is the revert it seemed).
 */

/** `aggregate3((address,bool,bytes)[])` and `getBlockNumber()`. */
const AGGREGATE3 = '0x82ad56cb';
const GET_BLOCK_NUMBER = '0x42cbb15c';

export interface AggregateOptions {
  /** The chain's Multicall3. */
  readonly address: string;
  /**
   * Inner calls per aggregate. A pool getter costs some 5,000-30,000 gas, so 1,000 fit in the
   * 50,000,000 gas most nodes allow an `eth_call` (geth's default `RPCGasCap`); an aggregate that
   * runs out is halved.
   */
  readonly callsPerAggregate: number;
  /** Aggregates in flight at once (default: the JSON-RPC options' `concurrency`). */
  readonly inFlight?: number;
  /** What the reads learned of this chain's Multicall3, kept by whoever reads the chain (one per chain). */
  readonly health?: AggregateHealth;
}

/**
 * Set once an aggregate came back empty (`0x`) and the node said Multicall3 has no code at that
 * block (a fork without it, though the chain's row names it): every call is plain from then on.
 */
export interface AggregateHealth {
  codeless?: { readonly block: string };
}

/** JSON-RPC options plus the chain's Multicall3, when the reads go through it. */
export interface PinnedRpcOptions extends JsonRpcOptions {
  readonly aggregate?: AggregateOptions;
}

const word = (n: number) => n.toString(16).padStart(64, '0');
const ZEROS = '0'.repeat(64);
/** The high 28 bytes of a word that holds an offset or a length. */
const HIGH_ZEROS = '0'.repeat(56);
/** An address's word before its 20 bytes. */
const ADDRESS_PAD = '0'.repeat(24);
const WORD_TRUE = word(1);
/** Where a `Call3`'s calldata starts in its tuple: after the target, the flag and this offset. */
const WORD_BYTES_AT = word(0x60);
const padded = (hexChars: number) => Math.ceil(hexChars / 64) * 64;

/**
 * The `{ to, data }` of a plain `eth_call` pinned to a block tag, shaped as an aggregate can carry
 * it; whether both are hex is checked on the aggregate's whole calldata (`HEX`), in one pass
 * rather than two per call.
 */
function aggregatable(call: RpcCall): { readonly to: string; readonly data: string } | undefined {
  if (call.method !== 'eth_call' || call.params.length !== 2) return undefined;
  const [tx, block] = call.params as [unknown, unknown];
  if (typeof block !== 'string' || tx === null || typeof tx !== 'object') return undefined;
  const { to, data } = tx as { to?: unknown; data?: unknown };
  if (typeof to !== 'string' || typeof data !== 'string' || Object.keys(tx).length !== 2) return undefined;
  if (to.length !== 42 || !to.startsWith('0x') || data.length % 2 !== 0 || !data.startsWith('0x')) return undefined;
  return tx as { to: string; data: string };
}

const HEX = /^0x[0-9a-fA-F]*$/;

/** `aggregate3` calldata: every call with `allowFailure: true`. */
export function encodeAggregate3(calls: readonly { readonly to: string; readonly data: string }[]): string {
  // One string per call and one join: a full read encodes some 100,000 calls.
  const heads = new Array<string>(calls.length);
  const tails = new Array<string>(calls.length);
  let offset = calls.length * 32;
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i]!;
    heads[i] = word(offset);
    const bytes = (c.data.length - 2) / 2;
    const pad = (32 - (bytes % 32)) % 32;
    tails[i] =
      ADDRESS_PAD +
      c.to.slice(2).toLowerCase() +
      WORD_TRUE +
      WORD_BYTES_AT +
      word(bytes) +
      c.data.slice(2) +
      ZEROS.slice(0, pad * 2);
    offset += 128 + bytes + pad;
  }
  return `${AGGREGATE3}${word(0x20)}${word(calls.length)}${heads.join('')}${tails.join('')}`;
}

const hexDigit = (c: number) => (c <= 57 ? c - 48 : (c | 32) - 87);

/**
 * `aggregate3`'s answer, `(bool success, bytes returnData)[]`, as one outcome per call, or a
 * `MalformedAnswerError` for anything but the canonical encoding of exactly `count` results.
 */
export function decodeAggregate3(result: unknown, count: number, what: string): RpcOutcome[] {
  const bad = (why: string) => new MalformedAnswerError(`${what} answered ${why}`);
  if (typeof result !== 'string' || (result.length - 2) % 64 !== 0 || !/^0x[0-9a-fA-F]*$/.test(result))
    throw bad(
      result === null
        ? 'null'
        : typeof result === 'string'
          ? `${result.length} characters that are not ABI words`
          : typeof result,
    );
  const words = (result.length - 2) / 64;
  const bytes = words * 32;
  // A word that holds an offset or a length: small (below 2^32), or the answer is not one. Read in
  // place: an aggregate of a full read holds some 10,000 words.
  const small = (at: number): number => {
    if (at >= words) throw bad(`${bytes} bytes, cut short`);
    const p = 2 + at * 64;
    if (!result.startsWith(HIGH_ZEROS, p)) throw bad('an offset or length out of range');
    let v = 0;
    for (let j = p + 56; j < p + 64; j++) v = v * 16 + hexDigit(result.charCodeAt(j));
    return v;
  };
  if (small(0) !== 0x20) throw bad('without the results array where it belongs');
  const n = small(1);
  if (n !== count) throw bad(`${n} results for ${count} calls`);
  const out = new Array<RpcOutcome>(n);
  // Element offsets count from the word after the length; each element's tail follows the last.
  let expected = n * 32;
  for (let i = 0; i < n; i++) {
    const offset = small(2 + i);
    if (offset !== expected) throw bad(`result ${i} at offset ${offset}, not where the encoding puts it`);
    const at = 2 + offset / 32;
    const flag = small(at);
    if (flag !== 0 && flag !== 1) throw bad(`result ${i} with a success flag that is not a bool`);
    if (small(at + 1) !== 0x40) throw bad(`result ${i} without its return data where it belongs`);
    const length = small(at + 2);
    const start = 2 + (at + 3) * 64;
    const pad = padded(length * 2) - length * 2;
    if (start + length * 2 + pad > result.length) throw bad(`${bytes} bytes, cut short`);
    const data = `0x${result.slice(start, start + length * 2)}`;
    if (pad > 0 && !result.startsWith(ZEROS.slice(0, pad), start + length * 2))
      throw bad(`result ${i} with padding that is not zero`);
    out[i] =
      flag === 1
        ? { ok: true, result: data, hexData: true }
        : { ok: false, error: 'execution reverted (inside aggregate3)', code: 3, data };
    expected += 96 + (length * 2 + pad) / 2;
  }
  if (2 * 32 + expected !== bytes) throw bad(`${bytes - 64 - expected} bytes past its results`);
  return out;
}

/**
 * A failure of the aggregate as a whole that a smaller aggregate may not meet: out of gas (also a
 * calldata too large for the gas cap) or the node's own execution timeout (geth's
 * `--rpc.evmtimeout`, "execution aborted").
 */
const tooLarge = (o: RpcOutcome) => !o.ok && /gas|execution aborted/i.test(o.error);
const reverted = (o: RpcOutcome) => !o.ok && (o.code === 3 || /revert/i.test(o.error));
/**
 * An inner failure with no return data: a getter the contract lacks, or a call that ran out of the
 * gas the aggregate had left for it, which the aggregate cannot tell apart.
 */
const unexplained = (o: RpcOutcome) => !o.ok && o.data === '0x';

/**
 * What an aggregate's request may take beyond the plain timeout, per inner call the node has been
 * asked and not yet answered (this aggregate's and those in flight before it): a node that runs
 * one call at a time (hardhat, a loaded devnet) answers the last aggregate in flight after all
 * the others' work.
 */
const MS_PER_CALL_IN_FLIGHT = 4;

interface Chunk {
  readonly block: string;
  /** Indices into the caller's calls. */
  readonly indices: readonly number[];
}

/**
 * Sends `calls` with every plain `eth_call` aggregated through `opts.aggregate` (those pinned to
 * one block tag together, `callsPerAggregate` at a time, `inFlight` aggregates at once), the rest
 * as they are, in JSON-RPC batches; outcomes come back in the order of `calls`. Without
 * `opts.aggregate`, or once its Multicall3 was found without code (`AggregateHealth`), this is
 * `callBatch`.
 */
export async function callPinned(opts: PinnedRpcOptions, calls: readonly RpcCall[]): Promise<RpcOutcome[]> {
  const aggregate = opts.aggregate;
  if (!aggregate || aggregate.health?.codeless) return callBatch(opts, calls);
  const out: RpcOutcome[] = new Array<RpcOutcome>(calls.length);
  const plain: number[] = [];
  const carried = new Array<{ readonly to: string; readonly data: string }>(calls.length);
  const byBlock = new Map<string, number[]>();
  for (let i = 0; i < calls.length; i++) {
    const c = calls[i]!;
    const a = aggregatable(c);
    if (!a) {
      plain.push(i);
      continue;
    }
    carried[i] = a;
    const block = c.params[1] as string;
    let list = byBlock.get(block);
    if (!list) byBlock.set(block, (list = []));
    list.push(i);
  }
  const chunks: Chunk[] = [];
  for (const [block, indices] of byBlock)
    for (let s = 0; s < indices.length; s += aggregate.callsPerAggregate)
      chunks.push({ block, indices: indices.slice(s, s + aggregate.callsPerAggregate) });
  const [answered, later] = await Promise.all([
    plain.length > 0
      ? callBatch(
          opts,
          plain.map((i) => calls[i]!),
        )
      : Promise.resolve([]),
    chunks.length > 0 ? sendAggregates(opts, aggregate, carried, chunks, out) : Promise.resolve(NOTHING_LATER),
  ]);
  plain.forEach((i, k) => (out[i] = answered[k]!));
  // What the aggregates could not answer, or answered with a failure that may be their own gas:
  // as plain calls, whose answers are the ones taken.
  const again = [...later.fallback, ...later.resent];
  if (again.length > 0) {
    const answers = await callBatch(
      opts,
      again.map((i) => calls[i]!),
    );
    again.forEach((i, k) => (out[i] = answers[k]!));
    // One that runs out of gas alone too needs more than the node lets any call have: the
    // contract's doing, not the aggregate's, and a revert as the aggregate took it (the pool's own
    // calls to it would fail as well).
    for (const i of later.resent) {
      const o = out[i]!;
      if (!o.ok && !reverted(o) && /out of gas/i.test(o.error)) out[i] = { ...o, code: 3, data: '0x' };
    }
  }
  return out;
}

/** What the aggregates leave to plain calls: those they could not carry, and failures sent again. */
interface Later {
  readonly fallback: number[];
  readonly resent: number[];
}
const NOTHING_LATER: Later = { fallback: [], resent: [] };

/**
 * Sends `chunks` as aggregates, `inFlight` at once, each decoded as its answer comes (so the
 * decoding of one overlaps the wait for the others) into `out`; gives back the indices to send as
 * plain calls instead: those no aggregate could carry, and inner failures without data.
 */
async function sendAggregates(
  opts: JsonRpcOptions,
  aggregate: AggregateOptions,
  carried: readonly { readonly to: string; readonly data: string }[],
  chunks: readonly Chunk[],
  out: RpcOutcome[],
): Promise<Later> {
  const queue = [...chunks];
  const plain: number[] = [];
  const resent: number[] = [];
  const health = aggregate.health ?? {};
  let callsInFlight = 0;
  let failed = false;
  // One look at Multicall3's code however many aggregates come back empty at once.
  let codeCheck: Promise<void> | undefined;

  const halve = (chunk: Chunk) => {
    const half = Math.ceil(chunk.indices.length / 2);
    queue.push({ block: chunk.block, indices: chunk.indices.slice(0, half) });
    queue.push({ block: chunk.block, indices: chunk.indices.slice(half) });
  };

  const send = async (chunk: Chunk): Promise<void> => {
    if (health.codeless) return void plain.push(...chunk.indices);
    const what = `aggregate3 of ${chunk.indices.length} calls at block ${chunk.block}`;
    const inner = chunk.indices.map((i) => carried[i]!);
    inner.push({ to: aggregate.address, data: GET_BLOCK_NUMBER });
    const data = encodeAggregate3(inner);
    // A call that is not hex cannot ride in an aggregate: the chunk goes plain, as that call would.
    if (!HEX.test(data)) return void plain.push(...chunk.indices);
    const call: RpcCall = {
      method: 'eth_call',
      params: [{ to: aggregate.address, data }, chunk.block],
      // Hex throughout (just checked): nothing to escape.
      paramsJson: `[{"to":${JSON.stringify(aggregate.address)},"data":"${data}"},${JSON.stringify(chunk.block)}]`,
    };
    callsInFlight += inner.length;
    let answer: RpcOutcome;
    try {
      const timeoutMs = opts.timeoutMs + callsInFlight * MS_PER_CALL_IN_FLIGHT;
      [answer] = (await callBatch({ ...opts, timeoutMs, batchSize: 1, concurrency: 1 }, [call])) as [RpcOutcome];
    } finally {
      callsInFlight -= inner.length;
    }
    if (!answer.ok) {
      if (tooLarge(answer) && chunk.indices.length > 1) halve(chunk);
      // No Multicall3 at that block (a revert), or one getter alone is too much for it.
      else if (tooLarge(answer) || reverted(answer)) plain.push(...chunk.indices);
      // The node's failure (no such block, a limit) or no answer: each inner call's, as it would be.
      else for (const i of chunk.indices) out[i] = answer;
      return;
    }
    // An address without code answers any call with nothing: no Multicall3 there, or a node that
    // answered nothing, which its code tells apart.
    if (answer.result === '0x') {
      if (!health.codeless) await (codeCheck ??= checkCodeless(opts, aggregate.address, chunk.block, what, health));
      return void plain.push(...chunk.indices);
    }
    const results = decodeAggregate3(answer.result, chunk.indices.length + 1, what);
    const pin = results[results.length - 1]!;
    // Multicall3's own getter failed: the aggregate ran out of gas before its end, so an inner
    // failure may be that rather than the contract's revert. Smaller aggregates, or plain calls.
    if (!pin.ok) {
      if (chunk.indices.length > 1) halve(chunk);
      else plain.push(...chunk.indices);
      return;
    }
    const ranAt = typeof pin.result === 'string' && /^0x[0-9a-fA-F]{64}$/.test(pin.result) ? BigInt(pin.result) : -1n;
    if (/^0x[0-9a-fA-F]+$/.test(chunk.block) && ranAt !== BigInt(chunk.block))
      throw new MalformedAnswerError(
        `${what} ran at block ${ranAt < 0n ? 'unknown' : ranAt.toString()}: an answer from another block`,
      );
    chunk.indices.forEach((i, j) => {
      const r = results[j]!;
      if (unexplained(r)) resent.push(i);
      else out[i] = r;
    });
  };

  const worker = async () => {
    try {
      while (!failed && queue.length > 0) await send(queue.shift()!);
    } catch (e) {
      // The read fails: the other workers send nothing more.
      failed = true;
      throw e;
    }
  };
  const workers = Math.max(1, aggregate.inFlight ?? opts.concurrency ?? 1);
  await Promise.all(Array.from({ length: Math.min(workers, queue.length) }, worker));
  return { fallback: plain, resent };
}

/**
 * An aggregate answered with no data: Multicall3 without code at `block` (a fork or a chain that
 * lacks it, though its row names it) is noted in `health`, and the chain's calls go plain from
 * then on; with code there, the empty answer is not a real one.
 */
async function checkCodeless(
  opts: JsonRpcOptions,
  address: string,
  block: string,
  what: string,
  health: AggregateHealth,
): Promise<void> {
  const [answer] = await callBatch(opts, [{ method: 'eth_getCode', params: [address, block] }]);
  if (codeOf(answer, address, block) !== '0x')
    throw new MalformedAnswerError(`${what} answered empty data (0x), though Multicall3 has code there`);
  health.codeless ??= { block };
}
