import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { aggregateAnswer, decodeResults, innerCalls, rotated, type FakeAnswer } from './multicall3';

/**
 * A loopback JSON-RPC proxy in front of a real node that lies when told to: `rewrite` changes a
 * call before the node sees it (an `eth_call` for block N sent as N - 1: an answer from the block
 * before), `lie` replaces a call's answer (null, `0x`), `rotateIds` hands every call of a batch its
 * neighbour's answer. Otherwise it passes everything through untouched. Multicall3's `aggregate3`
 * (test/fakes/multicall3.ts) is opened after the node answered it: `lie` sees each inner call as
 * a plain `eth_call` with its own answer, and `rotateIds` rotates the inner answers too.
 */
export interface RpcCallBody {
  jsonrpc?: string;
  id?: unknown;
  method: string;
  params?: unknown[];
}

export interface RpcAnswerBody {
  jsonrpc: string;
  id?: unknown;
  result?: unknown;
  error?: unknown;
}

export class FaultRpcProxy {
  rewrite: ((call: RpcCallBody) => RpcCallBody) | undefined;
  lie: ((call: RpcCallBody, answer: RpcAnswerBody) => RpcAnswerBody) | undefined;
  rotateIds = false;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(nodeUrl: string): Promise<FaultRpcProxy> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const proxy = new FaultRpcProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void (async () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as RpcCallBody | RpcCallBody[];
          const calls = Array.isArray(body) ? body : [body];
          const sent = calls.map((c) => proxy.rewrite?.(c) ?? c);
          const upstream = await fetch(nodeUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(Array.isArray(body) ? sent : sent[0]),
          });
          const answered = (await upstream.json()) as RpcAnswerBody | RpcAnswerBody[];
          const list = Array.isArray(answered) ? answered : [answered];
          const byId = new Map(list.map((a) => [a.id, a]));
          let answers = calls.map((c) => {
            const a = byId.get(c.id) ?? { jsonrpc: '2.0', id: c.id, error: { code: -32603, message: 'no answer' } };
            const opened = proxy.opened(c, a);
            return proxy.lie?.(c, opened) ?? opened;
          });
          if (proxy.rotateIds && answers.length > 1)
            answers = answers.map((a, k) => ({ ...a, id: calls[(k + calls.length - 1) % calls.length]!.id }));
          res.setHeader('content-type', 'application/json');
          res.end(JSON.stringify(Array.isArray(body) ? answers : answers[0]));
        })().catch((e: Error) => {
          res.statusCode = 502;
          res.end(JSON.stringify({ error: e.message }));
        });
      });
    });
    return proxy;
  }

  /** An answered `aggregate3` with `lie` and `rotateIds` applied to its inner calls; any other answer as it is. */
  private opened(call: RpcCallBody, answer: RpcAnswerBody): RpcAnswerBody {
    const [tx, block] = call.params ?? [];
    const inner = tx !== null && typeof tx === 'object' ? innerCalls(tx) : undefined;
    if (!inner || typeof answer.result !== 'string' || (!this.lie && !this.rotateIds)) return answer;
    const results = decodeResults(answer.result);
    let each: FakeAnswer[] = inner.map((c, k) => {
      const [success, data] = results[k]!;
      const own: RpcAnswerBody = success
        ? { jsonrpc: '2.0', result: data }
        : { jsonrpc: '2.0', error: { code: 3, message: 'execution reverted', data } };
      const lied = this.lie?.({ method: 'eth_call', params: [c, block] }, own) ?? own;
      return 'error' in lied && lied.error !== undefined
        ? { error: lied.error as { code: number; message: string; data?: string } }
        : { result: lied.result };
    });
    if (this.rotateIds) each = rotated(each);
    return { jsonrpc: '2.0', id: answer.id, ...aggregateAnswer(each) };
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      // Kept-alive sockets would keep the close waiting until the client drops them.
      this.server.closeAllConnections();
    });
  }
}
