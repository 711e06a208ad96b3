import { armourFeature } from '../../src/http/armour/feature';
import { graphqlFeature } from '../../src/graphql/feature';
import { routingFeature } from '../../src/routing/routingFeature';
import { startTestServer, TestServer } from '../helpers/testServer';

type Answer = { status: number; retryAfter: string | null; body: { error?: string; code?: number } | unknown };

async function call(server: TestServer, method: 'GET' | 'POST', path: string, clientIp: string): Promise<Answer> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    // What Cloud Run's front end appends: the address it saw, last in the list.
    headers: { 'x-forwarded-for': clientIp, 'content-type': 'application/json' },
    body: method === 'POST' ? '{}' : undefined,
  });
  const text = await res.text();
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: text ? JSON.parse(text) : undefined };
}

describe('rate limits per client IP (behind one proxy, as on Cloud Run: TRUST_PROXY=1)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(
      {
        TRUST_PROXY: '1',
        RATE_LIMIT_QUOTES_PER_MINUTE: '3',
        RATE_LIMIT_READS_PER_MINUTE: '5',
        RATE_LIMIT_JOBS_PER_MINUTE: '2',
      },
      { features: [armourFeature] },
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it('answers 429 JSON with Retry-After once a client spends its quote budget', async () => {
    const ip = '203.0.113.10';
    for (let i = 0; i < 3; i++) expect((await call(server, 'POST', '/sor/1', ip)).status).not.toBe(429);
    const limited = await call(server, 'POST', '/order/1', ip);
    expect(limited.status).toBe(429);
    expect(Number(limited.retryAfter)).toBeGreaterThan(0);
    expect(Number(limited.retryAfter)).toBeLessThanOrEqual(60);
    expect(limited.body).toEqual({
      error: expect.stringContaining('too many quote (/sor, /order) requests'),
      code: 429,
      reason: 'RATE_LIMITED',
      details: { limitPerMinute: expect.any(Number), retryAfterSeconds: Number(limited.retryAfter) },
    });
  });

  it('keeps separate budgets: a client out of quotes can still read', async () => {
    const ip = '203.0.113.11';
    for (let i = 0; i < 3; i++) await call(server, 'POST', '/sor/1', ip);
    expect((await call(server, 'POST', '/sor/1', ip)).status).toBe(429);
    const read = await call(server, 'GET', '/pools/1', ip);
    expect(read.status).toBe(200);
    expect(read.body).toEqual([]);
  });

  it('limits reads and jobs with their own budgets', async () => {
    const ip = '203.0.113.12';
    for (let i = 0; i < 5; i++) expect((await call(server, 'GET', '/tokens/1', ip)).status).toBe(200);
    const read = await call(server, 'GET', '/pools/1', ip);
    expect(read.status).toBe(429);
    expect(read.body).toEqual({
      error: expect.stringContaining('too many read requests'),
      code: 429,
      reason: 'RATE_LIMITED',
      details: { limitPerMinute: expect.any(Number), retryAfterSeconds: expect.any(Number) },
    });

    for (let i = 0; i < 2; i++) expect((await call(server, 'POST', '/tokens/update/', ip)).status).not.toBe(429);
    const job = await call(server, 'POST', '/POOLS/1/Update', ip);
    expect(job.status).toBe(429);
    expect(job.body).toEqual({
      error: expect.stringContaining('too many job requests'),
      code: 429,
      reason: 'RATE_LIMITED',
      details: { limitPerMinute: expect.any(Number), retryAfterSeconds: expect.any(Number) },
    });
  });

  it('counts per client: another address still has its whole budget', async () => {
    for (let i = 0; i < 4; i++) await call(server, 'POST', '/sor/1', '203.0.113.13');
    expect((await call(server, 'POST', '/sor/1', '203.0.113.13')).status).toBe(429);
    expect((await call(server, 'POST', '/sor/1', '203.0.113.14')).status).not.toBe(429);
  });

  it('trusts only the last X-Forwarded-For hop, so a client cannot pose as many addresses', async () => {
    const real = '203.0.113.15';
    for (let i = 0; i < 3; i++) {
      expect((await call(server, 'POST', '/sor/1', `198.51.100.${i}, ${real}`)).status).not.toBe(429);
    }
    expect((await call(server, 'POST', '/sor/1', `198.51.100.99, ${real}`)).status).toBe(429);
  });

  it('never limits the health checks', async () => {
    const ip = '203.0.113.16';
    for (let i = 0; i < 8; i++) expect((await call(server, 'GET', '/healthz', ip)).status).toBe(200);
  });
});

describe('which X-Forwarded-For is believed (TRUST_PROXY)', () => {
  const rotating = async (server: TestServer, count: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < count; i++) statuses.push((await call(server, 'POST', '/sor/1', `198.51.100.${i}`)).status);
    return statuses.filter((s) => s === 429).length;
  };

  it('by default (reached directly) ignores the header: forged addresses buy no fresh budget', async () => {
    const server = await startTestServer({ RATE_LIMIT_QUOTES_PER_MINUTE: '5' }, { features: [armourFeature] });
    try {
      expect(await rotating(server, 12)).toBe(7);
    } finally {
      await server.close();
    }
  });

  it('trusts the header only from the proxies listed by address range', async () => {
    const trusted = await startTestServer(
      { TRUST_PROXY: '127.0.0.0/8, ::1/128', RATE_LIMIT_QUOTES_PER_MINUTE: '5' },
      { features: [armourFeature] },
    );
    const other = await startTestServer(
      { TRUST_PROXY: '10.0.0.0/8', RATE_LIMIT_QUOTES_PER_MINUTE: '5' },
      { features: [armourFeature] },
    );
    try {
      // The test client is on loopback: a trusted proxy for the first server, a stranger to the second.
      expect(await rotating(trusted, 12)).toBe(0);
      expect(await rotating(other, 12)).toBe(7);
    } finally {
      await trusted.close();
      await other.close();
    }
  });
});

describe('rate limit defaults', () => {
  it('allow an aggregator at least 2,000 quotes per minute from one address', async () => {
    const server = await startTestServer({}, { features: [armourFeature] });
    try {
      expect(server.ctx.config.rateLimits.quotesPerMinute).toBeGreaterThanOrEqual(2000);
      const res = await fetch(`${server.url}/sor/1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      // draft-7 RateLimit-Policy header: "<limit>;w=<window seconds>"
      expect(res.headers.get('ratelimit-policy')).toBe(`${server.ctx.config.rateLimits.quotesPerMinute};w=60`);
    } finally {
      await server.close();
    }
  });

  it('a budget of 0 turns that limit off', async () => {
    const server = await startTestServer({ RATE_LIMIT_READS_PER_MINUTE: '0' }, { features: [armourFeature] });
    try {
      const res = await fetch(`${server.url}/pools/1`);
      expect(res.status).toBe(200);
      expect(res.headers.get('ratelimit-policy')).toBeNull();
    } finally {
      await server.close();
    }
  });
});

describe("GraphQL's sorGetSwapPaths draws from the quote budget, one quote per alias", () => {
  let server: TestServer;
  const QUOTE = (alias: string) =>
    `${alias}: sorGetSwapPaths(chain: MAINNET, swapType: EXACT_IN, swapAmount: "1", tokenIn: "0x6b175474e89094c44da98b954eedeac495271d0f", tokenOut: "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48") { returnAmount }`;
  const graphql = async (ip: string, query: string) => {
    const res = await fetch(`${server.url}/graphql`, {
      method: 'POST',
      headers: { 'x-forwarded-for': ip, 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return {
      status: res.status,
      retryAfter: res.headers.get('retry-after'),
      body: (await res.json()) as { errors?: { extensions: Record<string, unknown> }[] },
    };
  };

  beforeAll(async () => {
    server = await startTestServer(
      { TRUST_PROXY: '1', RATE_LIMIT_QUOTES_PER_MINUTE: '3', RATE_LIMIT_READS_PER_MINUTE: '100' },
      { features: [armourFeature, graphqlFeature, routingFeature] },
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it('a request of two aliases spends two quotes; the next two are refused 429 and spend none', async () => {
    const ip = '203.0.113.20';
    expect((await graphql(ip, `{ ${QUOTE('a')} ${QUOTE('b')} }`)).status).toBe(200);
    const refused = await graphql(ip, `{ ${QUOTE('c')} ${QUOTE('d')} }`);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThan(0);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({
      reason: 'RATE_LIMITED',
      details: { limitPerMinute: 3, quotesAsked: 2 },
    });
    // The same budget as /sor's: the one quote left is spent, the next is refused.
    expect((await call(server, 'POST', '/sor/1', ip)).status).not.toBe(429);
    expect((await call(server, 'POST', '/sor/1', ip)).status).toBe(429);
    // Reads that ask no quote are not charged to it.
    expect((await graphql(ip, '{ __typename }')).status).toBe(200);
  });

  it('counts aliases hidden in fragments, and each client has its own budget', async () => {
    const ip = '203.0.113.21';
    const hidden = `query Q { ...F ... on Query { ${QUOTE('c')} } } fragment F on Query { ${QUOTE('a')} ${QUOTE('b')} }`;
    expect((await graphql(ip, hidden)).status).toBe(200);
    expect((await graphql(ip, `{ ${QUOTE('d')} }`)).status).toBe(429);
    expect((await graphql('203.0.113.22', `{ ${QUOTE('a')} }`)).status).toBe(200);
  });
});
