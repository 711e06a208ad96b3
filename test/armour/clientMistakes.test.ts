import { FakeSentryIngest, startFakeSentryIngest } from '../fakes/sentryIngest';
import { startTestServer, TestServer } from '../helpers/testServer';

/**
 * Requests a client got wrong, sent to the service with every feature mounted and error tracking
 * on: each one is a 4xx JSON answer that says what to fix, and none reaches the error tracker
 * (anyone can send them at the read limit; they must not page anybody).
 */
type Probe = readonly [what: string, path: string, init: RequestInit, status: number, says: RegExp];

const JSON_HEADERS = { 'content-type': 'application/json' };
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const graphqlPost = (body: string): RequestInit => ({ method: 'POST', headers: JSON_HEADERS, body });

const PROBES: readonly Probe[] = [
  ['a broken %-escape in a pool id', '/pools/1/%E0%A4%A', {}, 400, /percent-encoding.*'%E0%A4%A'/],
  ['a %-escape that is not hex in a chain id', '/tokens/%zz', {}, 400, /percent-encoding.*'%zz'/],
  [
    'a lone % as the chain of a quote',
    '/sor/%',
    { method: 'POST', headers: JSON_HEADERS, body: '{}' },
    400,
    /percent-encoding.*'%'/,
  ],
  [
    'a body that says gzip but is not',
    '/sor/1',
    { method: 'POST', headers: { ...JSON_HEADERS, 'content-encoding': 'gzip' }, body: 'this is not gzip' },
    400,
    /not valid gzip.*Content-Encoding/,
  ],
  [
    'a body in an encoding nobody supports',
    '/sor/1',
    { method: 'POST', headers: { ...JSON_HEADERS, 'content-encoding': 'lzma' }, body: '{}' },
    415,
    /content encoding "lzma".*gzip, deflate, br/,
  ],
  [
    '15,000 nested JSON arrays to /graphql',
    '/graphql',
    graphqlPost(nestedArrays(15_000)),
    400,
    /JSON body nested deeper than 64 levels/,
  ],
  [
    'GraphQL variables nested 3,000 objects deep',
    '/graphql',
    graphqlPost(
      `{"query":"query($w: TablePoolsFilterInput) { poolsCount(chainId: 1, where: $w) }","variables":{"w":${'{"and":['.repeat(3000)}{}${']}'.repeat(3000)}}}`,
    ),
    400,
    /JSON body nested deeper than 64 levels/,
  ],
  [
    'a GraphQL query nested 8,000 levels deep',
    '/graphql',
    graphqlPost(JSON.stringify({ query: `{${'a{'.repeat(8000)}b${'}'.repeat(8000)}}` })),
    400,
    /nested more than \d+ levels/,
  ],
  [
    'a GraphQL argument nested 8,000 levels deep',
    '/graphql',
    graphqlPost(
      JSON.stringify({ query: `{ poolsCount(chainId: 1, where: ${'{a:'.repeat(8000)}1${'}'.repeat(8000)}) }` }),
    ),
    400,
    /nested more than \d+ levels/,
  ],
  [
    'malformed JSON in the variables of a GraphQL GET',
    '/graphql?query=%7B__typename%7D&variables=%7Bbad',
    {},
    400,
    /variables.*not valid JSON.*URL-encode/,
  ],
  [
    'malformed JSON in the extensions of a GraphQL GET',
    '/graphql?query=%7B__typename%7D&extensions=%5B',
    {},
    400,
    /extensions.*not valid JSON/,
  ],
  ['a GraphQL GET without a query', '/graphql?variables=%7B%7D', {}, 400, /^query: missing/],
  [
    'GraphQL variables that are a list',
    '/graphql?query=%7B__typename%7D&variables=%5B1%5D',
    {},
    400,
    /^variables: expected a JSON object/,
  ],
  [
    'GraphQL variables that are a string in a POST',
    '/graphql',
    graphqlPost(JSON.stringify({ query: '{ __typename }', variables: 'x' })),
    400,
    /^variables: expected a JSON object/,
  ],
  [
    'a GraphQL POST body that is a list',
    '/graphql',
    graphqlPost(JSON.stringify([{ query: '{ __typename }' }])),
    400,
    /one JSON object.*batches are not supported/,
  ],
  [
    'a GraphQL query that is not a string',
    '/graphql',
    graphqlPost(JSON.stringify({ query: 5 })),
    400,
    /^query: expected the query text/,
  ],
  ['a GraphQL mutation over GET', '/graphql?query=mutation%7Bx%7D', {}, 405, /mutation operation from a POST/],
];

describe('client mistakes', () => {
  let ingest: FakeSentryIngest;
  let server: TestServer;

  beforeAll(async () => {
    ingest = await startFakeSentryIngest();
    server = await startTestServer({
      ERRORTRACKER_DSN: ingest.dsn,
      SUBGRAPH_URL_1: 'http://127.0.0.1:1',
      PRICE_API_URL: 'http://127.0.0.1:1',
      ROUTER_WORKERS: '0',
    });
  });
  afterAll(async () => {
    await server.close();
    await ingest.close();
  });

  it.each(PROBES)('%s: %s answers 4xx JSON naming the fix', async (_what, path, init, status, says) => {
    const res = await fetch(`${server.url}${path}`, init);
    const text = await res.text();
    expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({
      status,
      type: expect.stringContaining('json'),
    });
    const body = JSON.parse(text) as { error?: string; code?: number; errors?: { message: string }[] };
    const message = body.error ?? body.errors?.[0]?.message ?? '';
    expect(message).toMatch(says);
    if (body.error !== undefined) expect(body.code).toBe(status);
  });

  it('none of them reached the error tracker (a server fault still does)', async () => {
    for (const [, path, init] of PROBES) await (await fetch(`${server.url}${path}`, init)).arrayBuffer();
    // A real 5xx (sanctions not configured) as the marker that reporting works and has caught up.
    expect((await fetch(`${server.url}/check-wallet?address=0xBA12222222228d8Ba445958a75a0704d566BF2C8`)).status).toBe(
      503,
    );
    const events = await ingest.waitForEvents(1);
    await new Promise((r) => setTimeout(r, 300));
    expect(events.map((e) => e.tags?.route)).toEqual(['/check-wallet']);
  });
});
