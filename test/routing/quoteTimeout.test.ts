import { routingFeature } from '../../src/routing/routingFeature';
import { syntheticPools, syntheticTokens } from '../fakes/syntheticPools';
import { startTestServer, type TestServer } from '../helpers/testServer';

/**
 * `QUOTE_TIMEOUT_MS` bounds a quote from its hand-off to the quote threads, queueing included.
 * A router is built per liquidity floor, so each of these quotes, asking its own `minLiquidity`,
 * builds one for 300 pools on the single thread, after the start's warm-up. Thirty-two such
 * builds are far over 100 ms on any machine: the quotes past the bound answer 503 QUOTE_TIMEOUT, and
 * their thread is stopped rather than left to finish work nobody waits for.
 */

const TOKENS = syntheticTokens();
const BURST = 32;

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer(
    // 100 ms is the floor the configuration accepts.
    { ROUTER_WORKERS: '1', QUOTE_TIMEOUT_MS: '100' },
    { seed: [{ chainId: 1, pools: syntheticPools(300) }], features: [routingFeature], background: true },
  );
});
afterAll(async () => {
  await server?.close();
});

test('quotes past QUOTE_TIMEOUT_MS answer 503 QUOTE_TIMEOUT naming the bound, with Retry-After', async () => {
  const answers = await Promise.all(
    Array.from({ length: BURST }, async (_, k) => {
      const res = await fetch(`${server.url}/sor/1?minLiquidity=${k + 1}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          sellToken: TOKENS[0]!.address,
          buyToken: TOKENS[1]!.address,
          orderKind: 'sell',
          amount: (10n ** 18n).toString(),
          gasPrice: '0',
        }),
      });
      return {
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as Record<string, unknown>,
      };
    }),
  );
  const refused = answers.filter((a) => a.status !== 200);
  expect(refused.length).toBeGreaterThan(0);
  for (const a of refused)
    expect(a).toEqual({
      status: 503,
      // A busy router clears in seconds: the client is told when to come back.
      retryAfter: '2',
      body: {
        error: expect.stringMatching(/did not answer sell .* within 100 ms \(QUOTE_TIMEOUT_MS\) and was stopped/),
        code: 503,
        reason: 'QUOTE_TIMEOUT',
        details: { timeoutMs: 100 },
      },
    });
  // The event loop was never the one stuck.
  expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
});
