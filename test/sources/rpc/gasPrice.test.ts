import { NO_RETRY } from '../../../src/sources/upstream';
import { GasPriceReader } from '../../../src/sources/rpc/gasPrice';
import { startHttpFake, type HttpFake } from '../../fakes/httpFake';

/** The gas price for requests that name none: asked once per interval, shared, asked again after a failure. */

let node: HttpFake;
let price = '0x3b9aca00';
let fail = false;
beforeAll(async () => {
  node = await startHttpFake((req, res) => {
    const calls = JSON.parse(req.body) as { id: number; method: string }[];
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify(
        calls.map((c) =>
          fail
            ? { jsonrpc: '2.0', id: c.id, error: { code: -32000, message: 'busy' } }
            : { jsonrpc: '2.0', id: c.id, result: price },
        ),
      ),
    );
  });
});
afterAll(async () => {
  await node.close();
});

test('one question per interval, shared by concurrent callers; a failure is not kept', async () => {
  let now = 1_000_000;
  const reader = new GasPriceReader(
    { url: node.url, timeoutMs: 2000, retry: NO_RETRY, batchSize: 1 },
    () => now,
    10_000,
  );
  expect(await Promise.all([reader.read(), reader.read(), reader.read()])).toEqual([10n ** 9n, 10n ** 9n, 10n ** 9n]);
  expect(node.received).toHaveLength(1);
  price = '0x77359400';
  now += 9_000;
  expect(await reader.read()).toBe(10n ** 9n);
  now += 2_000;
  expect(await reader.read()).toBe(2n * 10n ** 9n);
  expect(node.received).toHaveLength(2);
  fail = true;
  now += 20_000;
  await expect(reader.read()).rejects.toThrow(/eth_gasPrice failed: .*busy/);
  fail = false;
  expect(await reader.read()).toBe(2n * 10n ** 9n);
  expect(node.received).toHaveLength(4);
});
