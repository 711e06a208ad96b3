import { armourFeature } from '../../src/http/armour/feature';
import { poolUpdateFeature } from '../../src/jobs/triggers/poolUpdateFeature';
import { priceAndDecorationFeature } from '../../src/jobs/triggers/priceAndDecorationFeature';
import { FakePriceServer, startFakePriceServer } from '../fakes/priceServer';
import { FakeSubgraph } from '../fakes/subgraphServer';
import { startTestServer, TestServer } from '../helpers/testServer';

const SECRET = 'a-long-random-job-secret';

describe('JOBS_SECRET protects the public job endpoints', () => {
  let subgraph: FakeSubgraph;
  let prices: FakePriceServer;
  let server: TestServer;

  beforeAll(async () => {
    subgraph = await FakeSubgraph.start([]);
    prices = await startFakePriceServer();
    server = await startTestServer(
      { JOBS_SECRET: SECRET, SUBGRAPH_URL_1: subgraph.url, PRICE_API_URL: prices.url },
      { features: [armourFeature, poolUpdateFeature, priceAndDecorationFeature] },
    );
  });
  afterAll(async () => {
    await server.close();
    await subgraph.close();
    await prices.close();
  });
  beforeEach(() => {
    subgraph.reset();
    prices.received.length = 0;
  });

  const post = (path: string, authorization?: string) =>
    fetch(`${server.url}${path}`, { method: 'POST', headers: authorization ? { authorization } : {} });

  it.each([
    ['no Authorization header', undefined, 'missing job secret'],
    ['a wrong secret', `Bearer ${SECRET}x`, 'wrong job secret'],
    ['a prefix of the secret', `Bearer ${SECRET.slice(0, 10)}`, 'wrong job secret'],
    ['the secret as Basic auth', `Basic ${SECRET}`, 'missing job secret'],
  ])('answers 401 JSON to %s and reaches no upstream', async (_what, authorization, message) => {
    for (const path of ['/pools/1/update', '/tokens/update/', '/tokens/update', '/Pools/1/UPDATE']) {
      const res = await post(path, authorization);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('Bearer');
      expect(await res.json()).toEqual({ error: expect.stringContaining(message), code: 401, reason: 'UNAUTHORIZED' });
    }
    expect(subgraph.queries).toHaveLength(0);
    expect(prices.received).toHaveLength(0);
  });

  it('runs the job with the right bearer secret', async () => {
    const res = await post('/pools/1/update', `Bearer ${SECRET}`);
    expect(res.status).toBe(201);
    expect(subgraph.queries.length).toBeGreaterThan(0);
  });

  it('leaves the read endpoints open', async () => {
    expect((await fetch(`${server.url}/pools/1`)).status).toBe(200);
    expect((await fetch(`${server.url}/tokens/1`)).status).toBe(200);
  });
});

describe('without JOBS_SECRET', () => {
  it('the job endpoints stay open, as in the old API', async () => {
    const subgraph = await FakeSubgraph.start([]);
    const server = await startTestServer(
      { SUBGRAPH_URL_1: subgraph.url },
      { features: [armourFeature, poolUpdateFeature] },
    );
    try {
      expect((await fetch(`${server.url}/pools/1/update`, { method: 'POST' })).status).toBe(201);
    } finally {
      await server.close();
      await subgraph.close();
    }
  });
});
