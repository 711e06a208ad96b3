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

  it('/graphql gets a CSP that lets GraphiQL load its bundle, inline bootstrap and blob workers over plain http', async () => {
    const res = await fetch(`${server.url}/graphql`, { headers: { accept: 'text/html' } });
    const policy = csp(res);
    expect(policy.get('script-src')).toContain("'unsafe-inline'");
    expect(policy.get('script-src')).toContain('https://unpkg.com');
    expect(policy.get('style-src')).toContain('https://unpkg.com');
    expect(policy.get('connect-src')).toContain("'self'");
    expect(policy.get('worker-src')).toContain('blob:');
    expect(policy.has('upgrade-insecure-requests')).toBe(false);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
