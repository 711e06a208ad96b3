import { startTestServer, TestServer } from '../helpers/testServer';
import { FakeSanctionsProvider, startFakeChainalysis, startFakeTrm } from '../fakes/sanctionsProviders';
import { BLOCKED_TTL_MS, CLEAN_TTL_MS } from '../../src/sanctions/screeningCache';
import { sanctionsFeature } from '../../src/sanctions/feature';

// Tornado Cash router (on the OFAC SDN list) and the Balancer Vault (not listed).
const LISTED = '0x722122dF12D4e14e13Ac3b6895a86e84145b6967';
const CLEAN = '0xBA12222222228d8Ba445958a75a0704d566BF2C8';

async function check(
  server: TestServer,
  query: string,
): Promise<{ status: number; body: { is_blocked?: boolean; error?: string; code?: number } }> {
  const res = await fetch(`${server.url}/check-wallet${query}`);
  return { status: res.status, body: (await res.json()) as { is_blocked?: boolean; error?: string; code?: number } };
}

describe('GET /check-wallet with the Chainalysis provider', () => {
  let provider: FakeSanctionsProvider;
  let server: TestServer;
  let clock = Date.now();

  beforeAll(async () => {
    provider = await startFakeChainalysis();
    provider.sanctioned.add(LISTED.toLowerCase());
  });
  afterAll(async () => {
    await provider.close();
  });
  beforeEach(async () => {
    provider.faults = {};
    provider.received.length = 0;
    clock = Date.now();
    server = await startTestServer(
      { SANCTIONS_API_KEY: provider.apiKey, SANCTIONS_API_URL: provider.url },
      { features: [sanctionsFeature], now: () => clock },
    );
  });
  afterEach(async () => {
    await server.close();
  });

  it('answers is_blocked true for a listed address and false for a clean one, sending the key and the checksummed address', async () => {
    expect(await check(server, `?address=${LISTED.toLowerCase()}`)).toEqual({
      status: 200,
      body: { is_blocked: true },
    });
    expect(await check(server, `?address=${CLEAN}`)).toEqual({ status: 200, body: { is_blocked: false } });
    expect(provider.screenings().map((r) => r.url)).toEqual([`/api/v1/address/${LISTED}`, `/api/v1/address/${CLEAN}`]);
    expect(provider.screenings().every((r) => r.headers['x-api-key'] === provider.apiKey)).toBe(true);
  });

  it('answers a repeated address (any case) from the cache without reaching the provider', async () => {
    await check(server, `?address=${CLEAN}`);
    await check(server, `?address=${LISTED}`);
    expect(provider.screenings()).toHaveLength(2);
    expect(await check(server, `?address=${CLEAN.toLowerCase()}`)).toEqual({
      status: 200,
      body: { is_blocked: false },
    });
    expect(await check(server, `?address=${LISTED.toLowerCase()}`)).toEqual({
      status: 200,
      body: { is_blocked: true },
    });
    expect(provider.screenings()).toHaveLength(2);
  });

  it('shares one provider call between concurrent checks of the same address', async () => {
    provider.faults = { delayMs: 200 };
    const answers = await Promise.all([
      check(server, `?address=${CLEAN}`),
      check(server, `?address=${CLEAN.toLowerCase()}`),
    ]);
    expect(answers.map((a) => a.body)).toEqual([{ is_blocked: false }, { is_blocked: false }]);
    expect(provider.screenings()).toHaveLength(1);
  });

  it('re-checks a clean address after 1 h but keeps a blocked one for 24 h', async () => {
    await check(server, `?address=${CLEAN}`);
    await check(server, `?address=${LISTED}`);
    clock += CLEAN_TTL_MS + 1000;
    await check(server, `?address=${CLEAN}`);
    await check(server, `?address=${LISTED}`);
    expect(provider.screenings().map((r) => r.url)).toEqual([
      `/api/v1/address/${CLEAN}`,
      `/api/v1/address/${LISTED}`,
      `/api/v1/address/${CLEAN}`,
    ]);
    clock += BLOCKED_TTL_MS;
    expect(await check(server, `?address=${LISTED}`)).toEqual({ status: 200, body: { is_blocked: true } });
    expect(provider.screenings()).toHaveLength(4);
  });

  it.each([
    ['no address', '', 'address: missing'],
    ['an empty address', '?address=', 'address: missing'],
    ['a short address', '?address=0x1234', 'is not an EVM address'],
    ['a non-hex address', `?address=0x${'g'.repeat(40)}`, 'is not an EVM address'],
    ['a wrong checksum', `?address=${CLEAN.replace('BA1', 'bA1')}`, 'wrong EIP-55 checksum'],
    ['two addresses', `?address=${CLEAN}&address=${LISTED}`, 'exactly one address'],
  ])('refuses %s with 400 before reaching the provider', async (_what, query, message) => {
    const { status, body } = await check(server, query);
    expect(status).toBe(400);
    expect(body.code).toBe(400);
    expect(body.error).toContain(message);
    expect(provider.received).toHaveLength(0);
  });

  it('answers 503, never "not blocked", when the provider fails; the failure is not cached', async () => {
    provider.faults = { status: 500 };
    const failed = await fetch(`${server.url}/check-wallet?address=${CLEAN}`);
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('5');
    expect(await failed.json()).toEqual({
      error: expect.stringContaining('unable to perform sanctions check (provider answered HTTP 500)'),
      code: 503,
      reason: 'UPSTREAM_FAILED',
    });
    provider.faults = {};
    expect(await check(server, `?address=${CLEAN}`)).toEqual({ status: 200, body: { is_blocked: false } });
    expect(provider.screenings()).toHaveLength(2);
  });

  it('answers 503 when the provider is unreachable', async () => {
    await server.close();
    server = await startTestServer(
      { SANCTIONS_API_KEY: 'k', SANCTIONS_API_URL: 'http://127.0.0.1:1' },
      { features: [sanctionsFeature] },
    );
    const { status, body } = await check(server, `?address=${LISTED}`);
    expect(status).toBe(503);
    expect(body.error).toContain('unable to perform sanctions check');
  });

  it('answers 503 when the provider answers something other than its documented shape', async () => {
    provider.faults = { malformed: true };
    const { status, body } = await check(server, `?address=${LISTED}`);
    expect(status).toBe(503);
    expect(body.is_blocked).toBeUndefined();
  });

  it('answers 503 when the provider refuses the API key', async () => {
    await server.close();
    server = await startTestServer(
      { SANCTIONS_API_KEY: 'wrong-key', SANCTIONS_API_URL: provider.url },
      { features: [sanctionsFeature] },
    );
    const { status, body } = await check(server, `?address=${LISTED}`);
    expect(status).toBe(503);
    expect(body.error).toContain('HTTP 403');
  });

  it('gives up after 5 s and answers 503 when the provider is too slow', async () => {
    provider.faults = { delayMs: 7000 };
    const started = Date.now();
    const { status, body } = await check(server, `?address=${CLEAN}`);
    expect(status).toBe(503);
    expect(body.error).toContain('unable to perform sanctions check');
    expect(Date.now() - started).toBeLessThan(6900);
  });
});

describe('GET /check-wallet with the TRM provider', () => {
  let provider: FakeSanctionsProvider;
  let server: TestServer;

  beforeAll(async () => {
    provider = await startFakeTrm();
    provider.sanctioned.add(LISTED.toLowerCase());
    server = await startTestServer(
      { SANCTIONS_PROVIDER: 'trm', SANCTIONS_API_KEY: provider.apiKey, SANCTIONS_API_URL: provider.url },
      { features: [sanctionsFeature] },
    );
  });
  afterAll(async () => {
    await server.close();
    await provider.close();
  });

  it('screens with a basic-auth POST of [{address}] and reads isSanctioned', async () => {
    expect(await check(server, `?address=${LISTED}`)).toEqual({ status: 200, body: { is_blocked: true } });
    expect(await check(server, `?address=${CLEAN}`)).toEqual({ status: 200, body: { is_blocked: false } });
    expect(provider.screenings().map((r) => JSON.parse(r.body))).toEqual([[{ address: LISTED }], [{ address: CLEAN }]]);
  });

  it('answers 503 when TRM is down', async () => {
    provider.faults = { status: 503 };
    const other = '0x0000000000000000000000000000000000000001';
    const { status } = await check(server, `?address=${other}`);
    expect(status).toBe(503);
    provider.faults = {};
  });
});

describe('GET /check-wallet without a key', () => {
  it('answers 503 saying screening is not configured', async () => {
    const server = await startTestServer({}, { features: [sanctionsFeature] });
    try {
      const { status, body } = await check(server, `?address=${CLEAN}`);
      expect(status).toBe(503);
      expect(body).toEqual({
        error: expect.stringContaining('SANCTIONS_API_KEY is not set'),
        code: 503,
        reason: 'NOT_CONFIGURED',
      });
    } finally {
      await server.close();
    }
  });
});
