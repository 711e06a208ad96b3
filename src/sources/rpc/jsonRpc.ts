import { requestJson, RetryPolicy, UpstreamError } from '../upstream';

/**
 * JSON-RPC 2.0 over HTTP to an EVM node, in batches. A call the node answers with an `error`
 * (e.g. a reverted `eth_call`) is a per-call failure the caller decides about; a batch the node
 * does not answer properly is an `UpstreamError` for "RPC".
 */
export const RPC_UPSTREAM = 'RPC';

/**
 * The node answered, but not with a real answer to what was asked: a batch whose ids are not the
 * ones sent (missing, repeated or never asked: a shifted batch), a result that is empty, cut short
 * or does not decode as the function's outputs, an answer for another block. Never a contract's
 * own answer (a revert is one), so the read it was part of fails rather than taking it as one.
 */
export class MalformedAnswerError extends UpstreamError {
  constructor(message: string) {
    super(RPC_UPSTREAM, message);
    this.name = 'MalformedAnswerError';
  }
}

export interface RpcCall {
  readonly method: string;
  readonly params: readonly unknown[];
  /**
   * `params` as JSON text already, when the caller knows it needs no escaping (an aggregate's
   * calldata: JSON.stringify would scan its hundreds of kilobytes for characters to escape).
   */
  readonly paramsJson?: string;
}

export type RpcOutcome =
  | {
      readonly ok: true;
      readonly result: unknown;
      /** The result is known to be hex data in whole bytes (an aggregate's inner answer, checked with the whole). */
      readonly hexData?: true;
    }
  /**
   * `code` is the JSON-RPC error code when the node gave one (3: execution reverted), `data` the
   * error's data when it is hex (a revert's encoded reason).
   */
  | {
      readonly ok: false;
      readonly error: string;
      readonly code?: number;
      readonly data?: string;
      /** The batch's answer had no entry for this call: the node said nothing about it. */
      readonly missing?: true;
    };

export interface JsonRpcOptions {
  readonly url: string;
  readonly timeoutMs: number;
  readonly retry: RetryPolicy;
  /** Calls per HTTP request; public nodes commonly cap batches at 100. */
  readonly batchSize: number;
  /** HTTP requests in flight at once when the calls take several batches (default 1). */
  readonly concurrency?: number;
}

interface RpcAnswer {
  readonly id?: unknown;
  readonly result?: unknown;
  readonly error?: { readonly message?: unknown; readonly code?: unknown; readonly data?: unknown } | null;
}

/** Sends `calls` in batches; outcomes come back in the order of `calls`. */
export async function callBatch(opts: JsonRpcOptions, calls: readonly RpcCall[]): Promise<RpcOutcome[]> {
  const chunks: RpcCall[][] = [];
  for (let start = 0; start < calls.length; start += opts.batchSize)
    chunks.push(calls.slice(start, start + opts.batchSize));
  const results: RpcOutcome[][] = new Array<RpcOutcome[]>(chunks.length);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const i = next++;
      results[i] = await sendBatch(opts, chunks[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency ?? 1, chunks.length)) }, worker));
  return results.flat();
}

async function sendBatch(opts: JsonRpcOptions, chunk: readonly RpcCall[]): Promise<RpcOutcome[]> {
  const out: RpcOutcome[] = [];
  const bodyText = `[${chunk
    .map(
      (c, i) =>
        `{"jsonrpc":"2.0","id":${i},"method":${JSON.stringify(c.method)},"params":${c.paramsJson ?? JSON.stringify(c.params)}}`,
    )
    .join(',')}]`;
  const res = await requestJson<unknown>(
    RPC_UPSTREAM,
    { url: opts.url, method: 'POST', bodyText, timeoutMs: opts.timeoutMs },
    opts.retry,
  );
  if (!Array.isArray(res.body)) {
    const message = (res.body as RpcAnswer | null)?.error?.message;
    throw new UpstreamError(
      RPC_UPSTREAM,
      `answered a batch without an array${typeof message === 'string' ? `: ${message}` : ''}`,
      res.status,
    );
  }
  // Every answer must carry an id this batch asked, once: a node that shifts, repeats or invents
  // ids may have answered each call with another call's result, so none of the batch is taken.
  const byId = new Map<number, RpcAnswer>();
  for (const a of res.body as unknown[]) {
    const id = a !== null && typeof a === 'object' ? (a as RpcAnswer).id : undefined;
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0 || id >= chunk.length)
      throw new MalformedAnswerError(
        `answered a batch of ${chunk.length} calls with id ${JSON.stringify(id)}, which it was not asked`,
      );
    if (byId.has(id)) throw new MalformedAnswerError(`answered call ${id} of a batch twice`);
    byId.set(id, a as RpcAnswer);
  }
  chunk.forEach((_c, i) => {
    const a = byId.get(i);
    if (!a) out.push({ ok: false, error: 'no answer for this call in the batch', missing: true });
    else if (a.error)
      out.push({
        ok: false,
        error: typeof a.error.message === 'string' ? a.error.message : 'call failed',
        ...(typeof a.error.code === 'number' ? { code: a.error.code } : {}),
        ...(typeof a.error.data === 'string' && /^0x[0-9a-fA-F]*$/.test(a.error.data) ? { data: a.error.data } : {}),
      });
    else if (!('result' in a)) out.push({ ok: false, error: 'answered neither a result nor an error' });
    else out.push({ ok: true, result: a.result });
  });
  return out;
}
