import { startTestServer, TestServer } from '../helpers/testServer';

/** With every feature mounted (as `npm start` runs it), the armour applies to the other features' routes. */
describe('the armour with every feature mounted', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      JOBS_SECRET: 'deployed-secret',
      SUBGRAPH_URL_1: 'http://127.0.0.1:1',
      PRICE_API_URL: 'http://127.0.0.1:1',
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it('refuses the job endpoints without the secret before any job runs', async () => {
    for (const path of ['/pools/1/update', '/tokens/update/']) {
      const res = await fetch(`${server.url}${path}`, { method: 'POST' });
      expect(res.status).toBe(401);
      expect(((await res.json()) as { code: number }).code).toBe(401);
    }
  });

  it('rate-limits and sets security headers on reads, quotes, sanctions and simulator routes', async () => {
    const requests: [string, RequestInit][] = [
      ['/pools/1', {}],
      ['/sor/1', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
      ['/check-wallet?address=0xBA12222222228d8Ba445958a75a0704d566BF2C8', {}],
      [
        '/simulator/simulate',
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"network_id":1}' },
      ],
    ];
    for (const [path, init] of requests) {
      const res = await fetch(`${server.url}${path}`, init);
      expect({
        path,
        policy: res.headers.get('ratelimit-policy') !== null,
        nosniff: res.headers.get('x-content-type-options'),
      }).toEqual({
        path,
        policy: true,
        nosniff: 'nosniff',
      });
      await res.arrayBuffer();
    }
  });

  it('answers 503 for sanctions and simulator when they are not configured', async () => {
    const check = await fetch(`${server.url}/check-wallet?address=0xBA12222222228d8Ba445958a75a0704d566BF2C8`);
    expect(check.status).toBe(503);
    const sim = await fetch(`${server.url}/simulator/simulate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        network_id: '1',
        from: `0x${'1'.repeat(40)}`,
        to: '0xBA12222222228d8Ba445958a75a0704d566BF2C8',
      }),
    });
    expect(sim.status).toBe(503);
  });
});
