import { UpstreamError, requestJson } from '../upstream';
import { SANCTIONS_TIMEOUT_MS, SANCTIONS_UPSTREAM, SanctionsProvider } from './SanctionsProvider';

/**
 * Chainalysis' free sanctions screening API: `GET <base>/api/v1/address/<address>` with the key in
 * `X-API-Key`; the answer is `{ "identifications": [{category, name, description, url}] }` and an
 * address is sanctioned when that list is non-empty.
 */
export const CHAINALYSIS_DEFAULT_BASE_URL = 'https://public.chainalysis.com';

interface ChainalysisAnswer {
  readonly identifications?: unknown;
}

export function chainalysisProvider(baseUrl: string, apiKey: string): SanctionsProvider {
  return {
    name: 'chainalysis',
    async isSanctioned(address) {
      const { body } = await requestJson<ChainalysisAnswer>(SANCTIONS_UPSTREAM, {
        url: `${baseUrl}/api/v1/address/${encodeURIComponent(address)}`,
        headers: { 'X-API-Key': apiKey },
        timeoutMs: SANCTIONS_TIMEOUT_MS,
      });
      // A missing list means the answer is not the documented shape: treat it as a failed check.
      if (typeof body !== 'object' || body === null || !Array.isArray(body.identifications)) {
        throw new UpstreamError(SANCTIONS_UPSTREAM, 'chainalysis answered without an identifications list');
      }
      return body.identifications.length > 0;
    },
  };
}
