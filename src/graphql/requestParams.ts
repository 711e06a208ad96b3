import type { Request } from 'express';
import { HttpError } from '../http/errors';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../http/jsonDepth';

/**
 * The GraphQL-over-HTTP parameters (`query`, `operationName`, `variables`, `extensions`) checked
 * before Yoga sees them, so every mistake in them is a 400 that names the parameter. Left to Yoga,
 * malformed JSON in a GET's `variables` or `extensions` was an unexpected 500 (logged as our
 * fault, sent to the error tracker), and a missing query answered 200 to `application/json`
 * clients, since Yoga keeps the spec's 200 for errors in the request it reads.
 */
export function checkGraphqlParams(req: Request): void {
  if (req.method === 'GET') return checkGetParams(req);
  if (req.method === 'POST') return checkPostBody(req.body as unknown);
}

const PARAMS = ['query', 'operationName', 'variables', 'extensions'] as const;

function checkGetParams(req: Request): void {
  const params = req.query as Record<string, unknown>;
  for (const name of PARAMS) {
    if (Array.isArray(params[name])) throw new HttpError(400, `${name}: given more than once in the URL; send it once`);
  }
  const query = params['query'];
  if (typeof query !== 'string' || query.trim() === '')
    throw new HttpError(400, 'query: missing; send the query URL-encoded as ?query=..., or POST {"query": "..."}');
  for (const name of ['variables', 'extensions'] as const) {
    const raw = params[name];
    if (typeof raw !== 'string' || raw === '') continue;
    if (exceedsJsonDepth(Buffer.from(raw)))
      throw new HttpError(400, `${name}: nested deeper than ${MAX_JSON_DEPTH} levels; send a flatter object`);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      throw new HttpError(
        400,
        `${name}: not valid JSON (${(e as Error).message}); send a JSON object, URL-encoded (encodeURIComponent(JSON.stringify(${name})))`,
      );
    }
    expectObject(name, value);
  }
}

function checkPostBody(body: unknown): void {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(
      400,
      `the body must be one JSON object {"query": "...", "variables": {...}}, got ${Array.isArray(body) ? 'a list (batches are not supported)' : describe(body)}`,
    );
  const b = body as Record<string, unknown>;
  if (typeof b['query'] !== 'string' || b['query'].trim() === '')
    throw new HttpError(
      400,
      `query: ${b['query'] === undefined ? 'missing' : `expected the query text as a string, got ${describe(b['query'])}`}; send {"query": "{ ... }"}`,
    );
  if (b['operationName'] != null && typeof b['operationName'] !== 'string')
    throw new HttpError(400, `operationName: expected a string, got ${describe(b['operationName'])}`);
  expectObject('variables', b['variables']);
  expectObject('extensions', b['extensions']);
}

function expectObject(name: string, value: unknown): void {
  if (value == null || (typeof value === 'object' && !Array.isArray(value))) return;
  throw new HttpError(400, `${name}: expected a JSON object (or null), got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'a list';
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object' : `${typeof value} ${JSON.stringify(value).slice(0, 40)}`;
}
