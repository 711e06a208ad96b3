import { graphqlFeature } from '../../src/graphql/feature';
import { armourFeature } from '../../src/http/armour/feature';
import { startTestServer, TestServer } from '../helpers/testServer';

function csp(res: Response): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (res.headers.get('content-security-policy') ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/);
    if (name) out.set(name, values.join(' '));
  }
  return out;
}

describe('security headers', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({}, { features: [armourFeature] });
  });
  afterAll(async () => {
    await server.close();
  });

  it('API answers carry a strict CSP, HSTS, nosniff and a frame ban, and stay readable cross-origin', async () => {
    const res = await fetch(`${server.url}/pools/1`);
    expect(res.status).toBe(200);
    const policy = csp(res);
    expect(policy.get('default-src')).toBe("'self'");
    expect(policy.get('script-src')).toBe("'self'");
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('error answers carry them too', async () => {
    const res = await fetch(`${server.url}/no-such-route`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('GraphiQL at /graphql keeps the CSP that lets its inline scripts and blob: workers run', async () => {
    await server.close();
    server = await startTestServer({}, { features: [armourFeature, graphqlFeature] });
    const page = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const policy = csp(page);
    expect(policy.get('script-src')).toContain("'unsafe-inline'");
    expect(policy.get('worker-src')).toContain('blob:');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    await page.arrayBuffer();

    // API answers on the same path keep the strict policy.
    const api = await fetch(`${server.url}/graphql?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: 'application/json' },
    });
    expect(api.status).toBe(200);
    expect(csp(api).get('script-src')).toBe("'self'");
  });
});
