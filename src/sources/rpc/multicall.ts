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
 * (the node lacks the block, a rate limit) is each inner call's failure, as it would have been.
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
}

/** JSON-RPC options plus the chain's Multicall3, when the reads go through it. */
export interface PinnedRpcOptions extends JsonRpcOptions {
  readonly aggregate?: AggregateOptions;
}

const word = (n: number) => n.toString(16).padStart(64, '0');
const padded = (hexChars: number) => Math.ceil(hexChars / 64) * 64;

/** A plain `eth_call` of `{ to, data }` pinned to a block tag, which an aggregate can carry. */
function aggregatable(call: RpcCall): { to: string; data: string; block: string } | undefined {
  if (call.method !== 'eth_call' || call.params.length !== 2) return undefined;
  const [tx, block] = call.params as [unknown, unknown];
  if (typeof block !== 'string' || tx === null || typeof tx !== 'object') return undefined;
  const keys = Object.keys(tx);
  const { to, data } = tx as { to?: unknown; data?: unknown };
  if (keys.length !== 2 || typeof to !== 'string' || typeof data !== 'string') return undefined;
  // Hex in whole bytes (a grouped pattern backtracks over a long calldata: a length check instead).
  if (!/^0x[0-9a-fA-F]{40}$/.test(to) || data.length % 2 !== 0 || !/^0x[0-9a-fA-F]*$/.test(data)) return undefined;
  return { to, data, block };
}

/** `aggregate3` calldata: every call with `allowFailure: true`. */
export function encodeAggregate3(calls: readonly { readonly to: string; readonly data: string }[]): string {
  const heads: string[] = [];
  const tails: string[] = [];
  let offset = calls.length * 32;
  for (const c of calls) {
    heads.push(word(offset));
    const data = c.data.slice(2);
    const tail =
      c.to.slice(2).toLowerCase().padStart(64, '0') +
      word(1) +
      word(0x60) +
      word(data.length / 2) +
      data.padEnd(padded(data.length), '0');
    tails.push(tail);
    offset += tail.length / 2;
  }
  return `${AGGREGATE3}${word(0x20)}${word(calls.length)}${heads.join('')}${tails.join('')}`;
}

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
  const hex = result.slice(2);
  const words = hex.length / 64;
  // A word that holds an offset or a length: small, or the answer is not one.
  const small = (at: number): number => {
    if (at >= words) throw bad(`${hex.length / 2} bytes, cut short`);
    const w = hex.slice(at * 64, at * 64 + 64);
    if (!/^0{48}/.test(w)) throw bad('an offset or length out of range');
    return parseInt(w.slice(48), 16);
  };
  if (small(0) !== 0x20) throw bad('without the results array where it belongs');
  const n = small(1);
  if (n !== count) throw bad(`${n} results for ${count} calls`);
  const out: RpcOutcome[] = [];
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
    const start = (at + 3) * 64;
    if (start + padded(length * 2) > hex.length) throw bad(`${hex.length / 2} bytes, cut short`);
    const data = `0x${hex.slice(start, start + length * 2)}`;
    if (!/^0*$/.test(hex.slice(start + length * 2, start + padded(length * 2))))
      throw bad(`result ${i} with padding that is not zero`);
    out.push(
      flag === 1
        ? { ok: true, result: data }
        : { ok: false, error: 'execution reverted (inside aggregate3)', code: 3, data },
    );
    expected += 96 + padded(length * 2) / 2;
  }
  if (2 * 32 + expected !== hex.length / 2) throw bad(`${hex.length / 2 - 64 - expected} bytes past its results`);
  return out;
}

/** A failure of the aggregate as a whole that a smaller aggregate, or plain calls, may not meet. */
const outOfGas = (o: RpcOutcome) => !o.ok && /gas/i.test(o.error);
const reverted = (o: RpcOutcome) => !o.ok && (o.code === 3 || /revert/i.test(o.error));

interface Chunk {
  readonly block: string;
  /** Indices into the caller's calls. */
  readonly indices: readonly number[];
}

/**
 * Sends `calls` with every plain `eth_call` aggregated through `opts.aggregate` (those pinned to
 * one block tag together, `callsPerAggregate` at a time), the rest as they are, all in JSON-RPC
 * batches; outcomes come back in the order of `calls`. Without `opts.aggregate` this is `callBatch`.
 */
export async function callPinned(opts: PinnedRpcOptions, calls: readonly RpcCall[]): Promise<RpcOutcome[]> {
  const aggregate = opts.aggregate;
  if (!aggregate) return callBatch(opts, calls);
  const out: RpcOutcome[] = new Array<RpcOutcome>(calls.length);
  const plain: number[] = [];
  const byBlock = new Map<string, number[]>();
  calls.forEach((c, i) => {
    const a = aggregatable(c);
    if (!a) return void plain.push(i);
    let list = byBlock.get(a.block);
    if (!list) byBlock.set(a.block, (list = []));
    list.push(i);
  });
  const chunks: Chunk[] = [];
  for (const [block, indices] of byBlock)
    for (let s = 0; s < indices.length; s += aggregate.callsPerAggregate)
      chunks.push({ block, indices: indices.slice(s, s + aggregate.callsPerAggregate) });
  await sendChunks(opts, aggregate, calls, chunks, plain, out);
  return out;
}

async function sendChunks(
  opts: JsonRpcOptions,
  aggregate: AggregateOptions,
  calls: readonly RpcCall[],
  chunks: readonly Chunk[],
  plain: readonly number[],
  out: RpcOutcome[],
): Promise<void> {
  const aggregates: RpcCall[] = chunks.map((chunk) => ({
    method: 'eth_call',
    params: [
      {
        to: aggregate.address,
        data: encodeAggregate3([
          ...chunk.indices.map((i) => aggregatable(calls[i]!)!),
          { to: aggregate.address, data: GET_BLOCK_NUMBER },
        ]),
      },
      chunk.block,
    ],
  }));
  // One aggregate per HTTP request, `concurrency` in flight: each carries a batch's worth of work
  // for the node, so several in one request would wait on each other and on one timeout.
  const [answered, answers] = await Promise.all([
    plain.length > 0
      ? callBatch(
          opts,
          plain.map((i) => calls[i]!),
        )
      : Promise.resolve([]),
    aggregates.length > 0 ? callBatch({ ...opts, batchSize: 1 }, aggregates) : Promise.resolve([]),
  ]);
  plain.forEach((i, k) => (out[i] = answered[k]!));
  const again: Chunk[] = [];
  const fallback: number[] = [];
  chunks.forEach((chunk, k) => {
    const answer = answers[k]!;
    const what = `aggregate3 of ${chunk.indices.length} calls at block ${chunk.block}`;
    if (!answer.ok) {
      if (outOfGas(answer) && chunk.indices.length > 1) {
        const half = Math.ceil(chunk.indices.length / 2);
        again.push({ block: chunk.block, indices: chunk.indices.slice(0, half) });
        again.push({ block: chunk.block, indices: chunk.indices.slice(half) });
      } else if (outOfGas(answer) || reverted(answer)) fallback.push(...chunk.indices);
      // The node's failure (no such block, a limit) or no answer: each inner call's, as it would be.
      else for (const i of chunk.indices) out[i] = answer;
      return;
    }
    const results = decodeAggregate3(answer.result, chunk.indices.length + 1, what);
    const pin = results[results.length - 1]!;
    // Multicall3's own getter failed: the aggregate ran out of gas before its end, so an inner
    // failure may be that rather than the contract's revert. Smaller aggregates, or plain calls.
    if (!pin.ok) {
      if (chunk.indices.length > 1) {
        const half = Math.ceil(chunk.indices.length / 2);
        again.push({ block: chunk.block, indices: chunk.indices.slice(0, half) });
        again.push({ block: chunk.block, indices: chunk.indices.slice(half) });
      } else fallback.push(...chunk.indices);
      return;
    }
    const ranAt = typeof pin.result === 'string' && /^0x[0-9a-fA-F]{64}$/.test(pin.result) ? BigInt(pin.result) : -1n;
    if (/^0x[0-9a-fA-F]+$/.test(chunk.block) && ranAt !== BigInt(chunk.block))
      throw new MalformedAnswerError(
        `${what} ran at block ${ranAt < 0n ? 'unknown' : ranAt.toString()}: an answer from another block`,
      );
    chunk.indices.forEach((i, j) => (out[i] = results[j]!));
  });
  if (again.length > 0 || fallback.length > 0) {
    const plainAgain = fallback.map((i) => calls[i]!);
    const answered = plainAgain.length > 0 ? callBatch(opts, plainAgain) : Promise.resolve([]);
    await Promise.all([
      again.length > 0 ? sendChunks(opts, aggregate, calls, again, [], out) : Promise.resolve(),
      answered.then((list) => fallback.forEach((i, k) => (out[i] = list[k]!))),
    ]);
  }
}
