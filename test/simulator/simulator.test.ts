import { chainById } from '../../src/config/chains';
import { simulatorFeature } from '../../src/simulator/feature';
import { FakeSimulator, fakeOutputFor, startFakeSimulator } from '../fakes/simulator';
import { syntheticPools } from '../fakes/syntheticPools';
import { startTestServer, TestServer } from '../helpers/testServer';

const VAULT = '0xBA12222222228d8Ba445958a75a0704d566BF2C8';
const SENDER = '0x1111111111111111111111111111111111111111';
// Vault.batchSwap selector followed by some argument bytes.
const CALLDATA = '0x945bcec9' + '00'.repeat(64);

const simulateBody = {
  network_id: '1',
  from: SENDER,
  to: VAULT,
  input: CALLDATA,
  gas: 8_000_000,
  gas_price: '0',
  value: '0',
  state_objects: { [VAULT]: { storage: {} } },
  save: false,
  save_if_fails: false,
  simulation_type: 'quick',
  block_number: null,
};

async function post(
  server: TestServer,
  path: string,
  body: unknown,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) {
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const POOLS = syntheticPools(1);
const KNOWN_TOKEN = POOLS[0]!.tokens[0]!.address;
const EXTRA_CONTRACT = '0x3333333333333333333333333333333333333333';

describe('simulator pass-throughs', () => {
  let sim: FakeSimulator;
  let server: TestServer;

  beforeAll(async () => {
    sim = await startFakeSimulator();
    server = await startTestServer(
      {
        SIMULATOR_API_URL: sim.url,
        SIMULATOR_USER: sim.user,
        SIMULATOR_PROJECT: sim.project,
        SIMULATOR_ACCESS_KEY: sim.accessKey,
        SIMULATOR_ALLOWED_CONTRACTS: EXTRA_CONTRACT,
      },
      { features: [simulatorFeature], seed: [{ chainId: 1, pools: POOLS }] },
    );
  });
  afterAll(async () => {
    await server.close();
    await sim.close();
  });
  beforeEach(() => {
    sim.faults = {};
    sim.received.length = 0;
  });

  it('forwards a simulation with the access key and returns only the call output and the statuses', async () => {
    const { status, body } = await post(server, '/simulator/simulate', simulateBody);
    expect(status).toBe(200);
    expect(body).toEqual({
      transaction: { status: true, transaction_info: { call_trace: { output: fakeOutputFor(CALLDATA) } } },
      simulation: { status: true },
    });
    // The provider said much more; none of it leaks.
    expect(Object.keys(sim.lastSimulateAnswer ?? {})).toEqual(
      expect.arrayContaining(['contracts', 'generated_access_list']),
    );
    expect(JSON.stringify(body)).not.toContain('secret');
    const call = sim.received[0];
    expect(call?.url).toBe(`/api/v1/account/${sim.user}/project/${sim.project}/simulate`);
    expect(call?.headers['x-access-key']).toBe(sim.accessKey);
    expect(JSON.parse(call?.body ?? '{}')).toEqual(simulateBody);
  });

  it('forwards encode-states and returns the provider JSON as it is', async () => {
    const body = {
      networkID: '1',
      stateOverrides: { [VAULT]: { value: { '_balances[0x1111111111111111111111111111111111111111]': '1' } } },
    };
    const res = await post(server, '/simulator/contracts/encode-states', body);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      stateOverrides: { [VAULT.toLowerCase()]: { value: { [`0x${'0'.repeat(64)}`]: `0x${'0'.repeat(63)}1` } } },
    });
    expect(sim.received[0]?.url).toBe(`/api/v1/account/${sim.user}/project/${sim.project}/contracts/encode-states`);
    expect(JSON.parse(sim.received[0]?.body ?? '{}')).toEqual(body);
  });

  it.each([
    ['/simulator/simulate', { ...simulateBody, access_list: [] }, "'access_list' not allowed"],
    [
      '/simulator/simulate',
      { ...simulateBody, network: 'mainnet', estimate_gas: true },
      "fields 'network', 'estimate_gas' not allowed",
    ],
    [
      '/simulator/contracts/encode-states',
      { networkID: '1', stateOverrides: {}, project: 'other' },
      "'project' not allowed",
    ],
  ])('refuses a forbidden field in %s with 400 naming it, before any upstream call', async (path, body, message) => {
    const res = await post(server, path, body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe(400);
    expect(res.body.error).toContain(message);
    expect(sim.received).toHaveLength(0);
  });

  it.each([
    ['no body', undefined, 'missing body: send a JSON object with the simulate fields'],
    ['an empty object', {}, 'missing body'],
    ['an array', [simulateBody], 'expected a JSON object'],
    ['a missing required field', { ...simulateBody, from: undefined }, 'from: missing'],
    [
      'a malformed address',
      { ...simulateBody, to: '0x1234' },
      'to: expected a 0x-prefixed 20-byte address (0x followed by 40 hex digits), got "0x1234"',
    ],
    [
      'a number as address',
      { ...simulateBody, to: 5 },
      'to: expected a 0x-prefixed 20-byte address (0x followed by 40 hex digits), got 5',
    ],
    [
      'a string as state objects',
      { ...simulateBody, state_objects: 'x' },
      'state_objects: expected a JSON object keyed by contract address, got "x"',
    ],
    ['no network id', { ...simulateBody, network_id: undefined }, 'network_id: missing; expected a chain id'],
    [
      'a 100-digit value',
      { ...simulateBody, value: '1'.repeat(100) },
      `value: expected a non-negative integer within uint256`,
    ],
    [
      'a value just over uint256',
      { ...simulateBody, value: String(2n ** 256n) },
      `value: expected a non-negative integer within uint256`,
    ],
    [
      'a negative gas price',
      { ...simulateBody, gas_price: '-1' },
      'gas_price: expected a non-negative integer within uint256',
    ],
    [
      'a gas price as a float',
      { ...simulateBody, gas_price: 1.5 },
      'gas_price: expected a non-negative integer within uint256 (a JSON number up to 2^53 - 1, a decimal string or a 0x hex quantity), got 1.5',
    ],
    ['a gas number beyond 2^53', { ...simulateBody, gas: 1e30 }, 'gas: expected a non-negative integer within uint256'],
    [
      'a 65-digit hex block number',
      { ...simulateBody, block_number: `0x1${'0'.repeat(64)}` },
      'block_number: expected null or a non-negative integer within uint256',
    ],
    ['a bad simulation type', { ...simulateBody, simulation_type: 'deep' }, 'simulation_type'],
  ])('refuses %s with 400 before any upstream call', async (_what, body, message) => {
    const res =
      body === undefined
        ? await post(server, '/simulator/simulate', '', {})
        : await post(server, '/simulator/simulate', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    expect(sim.received).toHaveLength(0);
  });

  it("simulates calls to the Vault, the chain's relayer, known tokens and configured contracts only", async () => {
    for (const to of [
      VAULT,
      chainById(1)!.batchRelayer,
      KNOWN_TOKEN.toUpperCase().replace('0X', '0x'),
      EXTRA_CONTRACT,
    ]) {
      expect({ to, status: (await post(server, '/simulator/simulate', { ...simulateBody, to })).status }).toEqual({
        to,
        status: 200,
      });
    }
    expect(sim.received).toHaveLength(4);
    sim.received.length = 0;

    const stranger = '0x4444444444444444444444444444444444444444';
    const refused = await post(server, '/simulator/simulate', { ...simulateBody, to: stranger });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatch(
      new RegExp(`^to: ${stranger} is not a contract this service simulates on chain 1; allowed: the Vault \\(0xba12`),
    );
    expect(refused.body.error).toContain('GET /tokens/1');
    expect(refused.body.error).toContain('SIMULATOR_ALLOWED_CONTRACTS');

    // A relayer configured instead of the chain's default is the one allowed.
    const ownRelayer = '0x5555555555555555555555555555555555555555';
    const withOwnRelayer = await startTestServer(
      {
        SIMULATOR_API_URL: sim.url,
        SIMULATOR_USER: sim.user,
        SIMULATOR_PROJECT: sim.project,
        SIMULATOR_ACCESS_KEY: sim.accessKey,
        BATCH_RELAYER_1: ownRelayer,
      },
      { features: [simulatorFeature] },
    );
    try {
      expect((await post(withOwnRelayer, '/simulator/simulate', { ...simulateBody, to: ownRelayer })).status).toBe(200);
      expect(
        (await post(withOwnRelayer, '/simulator/simulate', { ...simulateBody, to: chainById(1)!.batchRelayer })).status,
      ).toBe(400);
    } finally {
      await withOwnRelayer.close();
    }
    sim.received.length = 0;

    const otherChain = await post(server, '/simulator/simulate', { ...simulateBody, network_id: '137' });
    expect(otherChain.status).toBe(400);
    expect(otherChain.body.error).toMatch(
      /^network_id: chain 137 \(polygon\) is not enabled on this service \(enabled: 1\)/,
    );
    expect(sim.received).toHaveLength(0);
  });

  it('accepts the largest uint256 value and integers as numbers, decimal strings and 0x quantities', async () => {
    const max = String(2n ** 256n - 1n);
    for (const value of [max, `0x${'f'.repeat(64)}`, 0, Number.MAX_SAFE_INTEGER]) {
      expect({ value, status: (await post(server, '/simulator/simulate', { ...simulateBody, value })).status }).toEqual(
        { value, status: 200 },
      );
    }
    expect(JSON.parse(sim.received[0]?.body ?? '{}')).toMatchObject({ value: max });
  });

  it('refuses encode-states with a bad or disabled networkID (400 naming the field) before any upstream call', async () => {
    const disabled = await post(server, '/simulator/contracts/encode-states', { networkID: '137', stateOverrides: {} });
    expect(disabled.status).toBe(400);
    expect(disabled.body.error).toMatch(
      /^networkID: chain 137 \(polygon\) is not enabled on this service \(enabled: 1\)/,
    );
    const unknown = await post(server, '/simulator/contracts/encode-states', { networkID: 999999, stateOverrides: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatch(/^networkID: chain 999999 is not one this service serves/);
    const huge = await post(server, '/simulator/contracts/encode-states', {
      networkID: '9'.repeat(100),
      stateOverrides: {},
    });
    expect(huge.status).toBe(400);
    expect(huge.body.error).toMatch(/^networkID: expected a chain id .*, got "9999/);
    const overrides = await post(server, '/simulator/contracts/encode-states', { networkID: 1, stateOverrides: [] });
    expect(overrides.status).toBe(400);
    expect(overrides.body.error).toBe('stateOverrides: expected a JSON object keyed by contract address, got []');
    expect(sim.received).toHaveLength(0);
  });

  it("simulates calls to the chain's Lido stETH and wstETH and to stored pools' own tokens (BPTs), which /order asks to approve", async () => {
    const lido = chainById(1)!.lido!;
    const bpt = POOLS[0]!.address;
    expect(POOLS.flatMap((p) => p.tokens.map((t) => t.address))).not.toContain(bpt);
    for (const to of [lido.stETH, lido.wstETH, bpt, bpt.toUpperCase().replace('0X', '0x')]) {
      expect({ to, status: (await post(server, '/simulator/simulate', { ...simulateBody, to })).status }).toEqual({
        to,
        status: 200,
      });
    }
    expect(sim.received).toHaveLength(4);
    // A chain without Lido and without pools: neither is allowed there.
    const refused = await post(server, '/simulator/simulate', {
      ...simulateBody,
      to: '0x4444444444444444444444444444444444444444',
    });
    expect(refused.body.error).toContain(`Lido's stETH (${lido.stETH})`);
    expect(refused.body.error).toContain('GET /pools/1');
  });

  it('never asks the provider to save a simulation unless SIMULATOR_SAVE is set', async () => {
    const res = await post(server, '/simulator/simulate', { ...simulateBody, save: true, save_if_fails: true });
    expect(res.status).toBe(200);
    expect(JSON.parse(sim.received[0]?.body ?? '{}')).toMatchObject({ save: false, save_if_fails: false });

    const saving = await startTestServer(
      {
        SIMULATOR_API_URL: sim.url,
        SIMULATOR_USER: sim.user,
        SIMULATOR_PROJECT: sim.project,
        SIMULATOR_ACCESS_KEY: sim.accessKey,
        SIMULATOR_SAVE: 'true',
      },
      { features: [simulatorFeature] },
    );
    try {
      sim.received.length = 0;
      expect((await post(saving, '/simulator/simulate', { ...simulateBody, save: true })).status).toBe(200);
      expect(JSON.parse(sim.received[0]?.body ?? '{}')).toMatchObject({ save: true });
    } finally {
      await saving.close();
    }
  });

  it('answers 502 with the provider message when the provider refuses the simulation (4xx)', async () => {
    sim.faults = { status: 400, message: 'invalid network_id: 999999' };
    const res = await post(server, '/simulator/simulate', simulateBody);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({
      error: 'simulator refused the request (HTTP 400): invalid network_id: 999999',
      code: 502,
      reason: 'UPSTREAM_FAILED',
    });
  });

  it.each([
    ['/simulator/simulate', simulateBody, { result: 'ok' }],
    ['/simulator/simulate', simulateBody, [{ transaction: {} }]],
    ['/simulator/simulate', simulateBody, { transaction: { status: 'yes' }, simulation: { status: true } }],
    ['/simulator/contracts/encode-states', { networkID: 1, stateOverrides: {} }, { overrides: {} }],
  ])(
    'answers 502 naming the simulator when %s gets 200 with JSON of another shape (%#)',
    async (path, body, answer) => {
      sim.faults = { body: answer };
      const res = await post(server, path, body);
      expect(res.status).toBe(502);
      expect(res.body.error).toMatch(/simulator: answered \S+ with JSON of an unexpected shape/);
    },
  );

  it('answers 502 when the provider fails (5xx)', async () => {
    sim.faults = { status: 500 };
    const res = await post(server, '/simulator/contracts/encode-states', { networkID: 1, stateOverrides: {} });
    expect(res.status).toBe(502);
    expect(res.body.error).toContain('simulator');
  });

  it('gives up after 10 s and answers 502', async () => {
    sim.faults = { delayMs: 12_000 };
    const started = Date.now();
    const res = await post(server, '/simulator/simulate', simulateBody);
    expect(res.status).toBe(502);
    expect(res.body.error).toContain('no answer within 10000 ms');
    expect(Date.now() - started).toBeLessThan(11_900);
  });
});

describe('simulator pass-throughs without configuration', () => {
  it('answers 503 naming the missing settings', async () => {
    const server = await startTestServer({ SIMULATOR_USER: 'u' }, { features: [simulatorFeature] });
    try {
      const res = await post(server, '/simulator/simulate', simulateBody);
      expect(res.status).toBe(503);
      expect(res.body.error).toContain('SIMULATOR_ACCESS_KEY');
    } finally {
      await server.close();
    }
  });
});
