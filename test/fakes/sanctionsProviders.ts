import { HttpFake, Received, sendJson, sleep, startHttpFake } from './httpFake';

/**
 * Local stand-ins for the two sanctions providers, speaking their documented shapes:
 * Chainalysis `GET /api/v1/address/<address>` (X-API-Key) -> `{identifications: [...]}`, and
 * TRM `POST /public/v1/sanctions/screening` (basic auth, key as user and password) with
 * `[{address}]` -> `[{address, isSanctioned}]`. Faults are switched at run time.
 */
export interface SanctionsFaults {
  /** Answer every request with this HTTP status (e.g. 500, 503). */
  status?: number;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer 200 with a body that is not the provider's shape. */
  malformed?: boolean;
}

export interface FakeSanctionsProvider extends HttpFake {
  readonly apiKey: string;
  /** Lower-cased addresses the provider lists as sanctioned. */
  readonly sanctioned: Set<string>;
  faults: SanctionsFaults;
  /** Screening requests (not counting ones refused for a bad key). */
  screenings(): Received[];
}

export async function startFakeChainalysis(apiKey = 'chainalysis-test-key'): Promise<FakeSanctionsProvider> {
  const sanctioned = new Set<string>();
  const state: { faults: SanctionsFaults } = { faults: {} };
  const fake = await startHttpFake(async (req, res) => {
    const m = /^\/api\/v1\/address\/([^/?]+)$/.exec(req.url);
    if (req.method !== 'GET' || !m) return sendJson(res, 404, { message: 'not found' });
    if (req.headers['x-api-key'] !== apiKey) return sendJson(res, 403, { message: 'Forbidden' });
    if (state.faults.delayMs) await sleep(state.faults.delayMs);
    if (state.faults.status) return sendJson(res, state.faults.status, { message: 'provider fault' });
    if (state.faults.malformed) return sendJson(res, 200, { result: 'ok' });
    const address = decodeURIComponent(m[1] as string);
    const identifications = sanctioned.has(address.toLowerCase())
      ? [
          {
            category: 'sanctions',
            name: 'SANCTIONS: OFAC SDN test entry',
            description: 'listed for tests',
            url: 'https://home.treasury.gov',
          },
        ]
      : [];
    sendJson(res, 200, { identifications });
  });
  return withState(
    fake,
    apiKey,
    sanctioned,
    state,
    (r) => r.url.startsWith('/api/v1/address/') && r.headers['x-api-key'] === apiKey,
  );
}

export async function startFakeTrm(apiKey = 'trm-test-key'): Promise<FakeSanctionsProvider> {
  const sanctioned = new Set<string>();
  const state: { faults: SanctionsFaults } = { faults: {} };
  const expectedAuth = `Basic ${Buffer.from(`${apiKey}:${apiKey}`).toString('base64')}`;
  const fake = await startHttpFake(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/public/v1/sanctions/screening')
      return sendJson(res, 404, { message: 'not found' });
    if (req.headers.authorization !== expectedAuth)
      return sendJson(res, 401, { message: 'Unauthorized -- Your API key is wrong.' });
    if (state.faults.delayMs) await sleep(state.faults.delayMs);
    if (state.faults.status) return sendJson(res, state.faults.status, { message: 'provider fault' });
    if (state.faults.malformed) return sendJson(res, 200, { ok: true });
    let items: { address?: unknown }[];
    try {
      items = JSON.parse(req.body) as { address?: unknown }[];
    } catch {
      return sendJson(res, 400, { message: 'Bad Request -- Your request is invalid.' });
    }
    if (!Array.isArray(items) || items.some((i) => typeof i?.address !== 'string'))
      return sendJson(res, 400, { message: 'Bad Request -- Your request is invalid.' });
    sendJson(
      res,
      200,
      items.map((i) => ({ address: i.address, isSanctioned: sanctioned.has(String(i.address).toLowerCase()) })),
    );
  });
  return withState(
    fake,
    apiKey,
    sanctioned,
    state,
    (r) => r.url === '/public/v1/sanctions/screening' && r.headers.authorization === expectedAuth,
  );
}

function withState(
  fake: HttpFake,
  apiKey: string,
  sanctioned: Set<string>,
  state: { faults: SanctionsFaults },
  isScreening: (r: Received) => boolean,
): FakeSanctionsProvider {
  return {
    ...fake,
    apiKey,
    sanctioned,
    get faults() {
      return state.faults;
    },
    set faults(f: SanctionsFaults) {
      state.faults = f;
    },
    screenings: () => fake.received.filter(isScreening),
  };
}
