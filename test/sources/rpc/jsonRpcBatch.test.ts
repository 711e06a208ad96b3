import { callBatch, MalformedAnswerError, type RpcCall } from '../../../src/sources/rpc/jsonRpc';
import { startHttpFake, type HttpFake } from '../../fakes/httpFake';
import { nodeRpc } from '../../helpers/nodeRpc';

/**
 * A JSON-RPC batch whose answer ids are not exactly the ones asked (one never asked, one twice) may
 * carry each call another call's result: none of it is taken. A missing id is a failed call.
 */
type Answer = { jsonrpc: '2.0'; id: unknown; result?: unknown };
let node: HttpFake;
let answerWith: (ids: number[]) => Answer[];

beforeAll(async () => {
  node = await startHttpFake((req, res) => {
    const ids = (JSON.parse(req.body) as { id: number }[]).map((r) => r.id);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answerWith(ids)));
  });
});
afterAll(async () => node.close());

const calls: RpcCall[] = [0, 1, 2].map((n) => ({ method: 'eth_call', params: [{ n }, 'latest'] }));
const result = (id: unknown): Answer => ({ jsonrpc: '2.0', id, result: `0x${String(id).padStart(64, '0')}` });

test.each<[string, (ids: number[]) => Answer[]]>([
  ['shifted by one (the last id was never asked)', (ids) => ids.map((id) => result(id + 1))],
  ['one id twice', (ids) => [...ids.map(result), result(ids[0])]],
  ['an id that is not a number', (ids) => [...ids.slice(1).map(result), result(String(ids[0]))]],
])('a batch answered with ids %s fails as a whole', async (_what, answer) => {
  answerWith = answer;
  await expect(callBatch(nodeRpc(node.url), calls)).rejects.toThrow(MalformedAnswerError);
});

test('a call whose id is missing fails alone; the others keep their answers', async () => {
  answerWith = (ids) => ids.slice(1).map(result);
  const outcomes = await callBatch(nodeRpc(node.url), calls);
  expect(outcomes.map((o) => o.ok)).toEqual([false, true, true]);
  expect(outcomes[1]).toEqual({ ok: true, result: `0x${'1'.padStart(64, '0')}` });
});
