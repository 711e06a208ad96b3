import { UpstreamError, requestJson } from '../upstream';
import { SANCTIONS_TIMEOUT_MS, SANCTIONS_UPSTREAM, SanctionsProvider } from './SanctionsProvider';

/**
 * TRM Labs' public sanctions screening API: `POST <base>/public/v1/sanctions/screening` with
 * `[{"address": ...}]`, HTTP basic auth with the API key as both user name and password; the answer
 * is one `{address, isSanctioned}` per submitted address.
 */
export const TRM_DEFAULT_BASE_URL = 'https://api.trmlabs.com';

interface TrmResult {
  readonly address?: unknown;
  readonly isSanctioned?: unknown;
}

export function trmProvider(baseUrl: string, apiKey: string): SanctionsProvider {
  const auth = `Basic ${Buffer.from(`${apiKey}:${apiKey}`).toString('base64')}`;
  return {
    name: 'trm',
    async isSanctioned(address) {
      const { body } = await requestJson<TrmResult[]>(SANCTIONS_UPSTREAM, {
        url: `${baseUrl}/public/v1/sanctions/screening`,
        method: 'POST',
        headers: { Authorization: auth },
        body: [{ address }],
        timeoutMs: SANCTIONS_TIMEOUT_MS,
      });
      const result = Array.isArray(body)
        ? body.find((r) => typeof r?.address === 'string' && r.address.toLowerCase() === address.toLowerCase())
        : undefined;
      if (!result || typeof result.isSanctioned !== 'boolean') {
        throw new UpstreamError(SANCTIONS_UPSTREAM, 'trm answered without an isSanctioned result for the address');
      }
      return result.isSanctioned;
    },
  };
}
