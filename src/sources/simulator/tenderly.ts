import { requestJson, UpstreamError } from '../upstream';
import { SIMULATOR_TIMEOUT_MS, SIMULATOR_UPSTREAM, SimulatorClient } from './SimulatorClient';

/**
 * Tenderly: `POST <base>/api/v1/account/<user>/project/<project>/{contracts/encode-states,simulate}`
 * with the access key in `X-Access-Key`. No retries: a simulation with `save: true` is recorded by
 * the provider, and the caller can retry himself.
 */
export interface TenderlySettings {
  readonly apiUrl: string;
  readonly user: string;
  readonly project: string;
  readonly accessKey: string;
}

export function tenderlyClient(settings: TenderlySettings): SimulatorClient {
  const base = `${settings.apiUrl}/api/v1/account/${encodeURIComponent(settings.user)}/project/${encodeURIComponent(settings.project)}`;
  const post = async (path: string, body: unknown): Promise<unknown> => {
    const res = await requestJson<unknown>(SIMULATOR_UPSTREAM, {
      url: `${base}/${path}`,
      method: 'POST',
      headers: { 'X-Access-Key': settings.accessKey },
      body,
      timeoutMs: SIMULATOR_TIMEOUT_MS,
    });
    return res.body;
  };
  return {
    encodeStates: async (body) =>
      checkShape(
        '/contracts/encode-states',
        await post('contracts/encode-states', body),
        isEncodedStates,
        '{"stateOverrides": {...}}',
      ),
    simulate: async (body) =>
      checkShape(
        '/simulate',
        await post('simulate', body),
        isSimulation,
        '{"transaction": {"status": <bool>, ...}, "simulation": {...}}',
      ),
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function isSimulation(body: unknown): boolean {
  return (
    isObject(body) &&
    isObject(body.transaction) &&
    typeof body.transaction.status === 'boolean' &&
    isObject(body.simulation)
  );
}

function isEncodedStates(body: unknown): boolean {
  return isObject(body) && isObject(body.stateOverrides);
}

/** A 200 the route cannot read is the provider's fault, not an empty result. */
function checkShape(path: string, body: unknown, ok: (b: unknown) => boolean, expected: string): unknown {
  if (!ok(body))
    throw new UpstreamError(
      SIMULATOR_UPSTREAM,
      `answered ${path} with JSON of an unexpected shape; expected ${expected}`,
    );
  return body;
}
