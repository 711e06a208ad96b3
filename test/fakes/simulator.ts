import { HttpFake, Received, sendJson, sleep, startHttpFake } from './httpFake';

/**
 * A local Tenderly-shaped simulator: `POST /api/v1/account/<user>/project/<project>/simulate` and
 * `.../contracts/encode-states`, `X-Access-Key` auth, Tenderly's error shape
 * `{"error": {"id", "slug", "message"}}`, and faults switched at run time.
 */
export interface SimulatorFaults {
  /** Answer with this status and a Tenderly-shaped error carrying `message`. */
  status?: number;
  message?: string;
  delayMs?: number;
  /** Answer 200 with this JSON instead (a provider answering in a shape it should not). */
  body?: unknown;
}

export interface FakeSimulator extends HttpFake {
  readonly user: string;
  readonly project: string;
  readonly accessKey: string;
  faults: SimulatorFaults;
  /** What the fake answered to the last simulate call (the full, untrimmed answer). */
  lastSimulateAnswer?: Record<string, unknown>;
  calls(): Received[];
}

/** The return data the fake "computes" for a call: the calldata's selector, left-padded to 32 bytes. */
export function fakeOutputFor(input: string): string {
  return `0x${input.slice(2, 10).padStart(64, '0')}`;
}

export async function startFakeSimulator(
  user = 'balancer',
  project = 'pools-api',
  accessKey = 'sim-test-key',
): Promise<FakeSimulator> {
  const state: { faults: SimulatorFaults; last?: Record<string, unknown> } = { faults: {} };
  const prefix = `/api/v1/account/${user}/project/${project}`;
  const fake = await startHttpFake(async (req, res) => {
    if (req.method !== 'POST' || !req.url.startsWith(prefix))
      return sendJson(res, 404, { error: { id: 'x', slug: 'not_found', message: 'route not found' } });
    if (req.headers['x-access-key'] !== accessKey)
      return sendJson(res, 401, { error: { id: 'x', slug: 'invalid_api_key', message: 'Invalid API key' } });
    if (state.faults.delayMs) await sleep(state.faults.delayMs);
    if (state.faults.body !== undefined) return sendJson(res, 200, state.faults.body);
    if (state.faults.status) {
      return sendJson(res, state.faults.status, {
        error: { id: 'e1', slug: 'simulation_error', message: state.faults.message ?? 'simulation failed' },
      });
    }
    const body = JSON.parse(req.body) as Record<string, unknown>;
    const path = req.url.slice(prefix.length);
    if (path === '/contracts/encode-states') {
      const overrides = (body.stateOverrides ?? {}) as Record<string, { value?: Record<string, string> }>;
      const encoded: Record<string, { value: Record<string, string> }> = {};
      for (const [addr, o] of Object.entries(overrides)) {
        encoded[addr.toLowerCase()] = {
          value: Object.fromEntries(
            Object.keys(o.value ?? {}).map((k, i) => [`0x${String(i).padStart(64, '0')}`, `0x${'0'.repeat(63)}1`]),
          ),
        };
      }
      return sendJson(res, 200, { stateOverrides: encoded });
    }
    if (path === '/simulate') {
      const input = typeof body.input === 'string' ? body.input : '0x';
      const answer = {
        transaction: {
          hash: '0x' + 'ab'.repeat(32),
          block_number: 19_000_000,
          from: body.from,
          to: body.to,
          gas_used: 123456,
          status: true,
          transaction_info: {
            contract_id: 'eth:1:' + String(body.to),
            call_trace: {
              output: fakeOutputFor(input),
              gas_used: 120000,
              calls: [{ from: body.to, to: body.from, input }],
            },
            logs: [{ name: 'Swap', raw: { data: '0x01' } }],
            state_diff: [{ address: body.to, original: '0x0', dirty: '0x1' }],
          },
        },
        simulation: {
          id: 'sim-1',
          project_id: 'p-secret',
          owner_id: 'o-secret',
          status: true,
          network_id: String(body.network_id),
        },
        contracts: [{ id: 'c-1', source: 'contract Vault {}' }],
        generated_access_list: [],
      };
      state.last = answer;
      return sendJson(res, 200, answer);
    }
    return sendJson(res, 404, { error: { id: 'x', slug: 'not_found', message: 'route not found' } });
  });
  return {
    ...fake,
    user,
    project,
    accessKey,
    get faults() {
      return state.faults;
    },
    set faults(f: SimulatorFaults) {
      state.faults = f;
    },
    get lastSimulateAnswer() {
      return state.last;
    },
    calls: () => fake.received,
  };
}
