import { requestJson } from '../upstream';
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
    encodeStates: (body) => post('contracts/encode-states', body),
    simulate: (body) => post('simulate', body),
  };
}
