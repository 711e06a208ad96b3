/**
 * Keeps secrets out of error-tracker events: any configured secret value (API keys, access key,
 * job secret, node-provider id) is replaced wherever it appears, credential headers are dropped and
 * query strings and cookies removed. Works on the serialised event so no field can be missed.
 */
const REDACTED = '[redacted]';
const SECRET_HEADERS = /^(authorization|cookie|set-cookie|x-api-key|x-access-key|proxy-authorization)$/i;

export function scrubEvent<E extends object>(event: E, secrets: readonly string[]): E {
  let json = JSON.stringify(event);
  // Longest first so a secret that contains another is replaced whole.
  for (const secret of [...secrets].filter((s) => s.length >= 4).sort((a, b) => b.length - a.length)) {
    json = json.split(JSON.stringify(secret).slice(1, -1)).join(REDACTED);
  }
  const scrubbed = JSON.parse(json) as E & {
    request?: { headers?: Record<string, unknown>; query_string?: unknown; cookies?: unknown; url?: unknown };
  };
  const request = scrubbed.request;
  if (request) {
    if (request.headers) {
      for (const name of Object.keys(request.headers)) if (SECRET_HEADERS.test(name)) request.headers[name] = REDACTED;
    }
    delete request.query_string;
    delete request.cookies;
    if (typeof request.url === 'string') request.url = request.url.split('?')[0];
  }
  return scrubbed;
}
