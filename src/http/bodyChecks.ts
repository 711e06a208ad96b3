import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import { REASONS } from './errorReasons';
import { HttpError } from './errors';

/**
 * Checks on a request's body that need no byte of it, made before anything reads it.
 *
 * `refuseDeclaredOversizedBody`: a `Content-Length` over the JSON body limit is answered 413 at
 * once, with `Connection: close` (Node closes the socket once the answer is out). Left to the body
 * parser, the 413 would come only after it has read and thrown away every declared byte, and a
 * client that declares 100 GB and stalls would hold the connection until the request timeout.
 */
export function refuseDeclaredOversizedBody(limitBytes: number): RequestHandler {
  return (req, _res, next) => {
    const declared = req.headers['content-length'];
    if (declared === undefined || !(Number(declared) > limitBytes)) return next();
    throw new HttpError(
      413,
      `request body too large (Content-Length ${declared}, limit ${limitBytes} bytes); send a smaller JSON body`,
      { Connection: 'close' },
      { reason: REASONS.BODY_TOO_LARGE, details: { limitBytes } },
    );
  };
}

/** Whether the request carries body bytes (a `Content-Length` above 0, or a chunked body). */
function carriesBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const declared = Number(req.headers['content-length'] ?? 0);
  return declared > 0;
}

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Runs after the JSON body parser: a body it left unread was not declared as JSON. Every body the
 * service takes is JSON, so that is a 415 naming the header to send, rather than a route's
 * "expected a JSON object body" or "missing body" 400 that does not say the body was ignored.
 * Requests without a body (the job POSTs) are let through.
 */
export const requireJsonBody: RequestHandler = (req, _res, next) => {
  if (req.body !== undefined || !BODY_METHODS.has(req.method) || !carriesBody(req)) return next();
  const type = req.headers['content-type'];
  const got = type === undefined ? 'no Content-Type' : `Content-Type: ${type.slice(0, 100)}`;
  throw new HttpError(
    415,
    `${req.method} ${req.path} takes a JSON body with Content-Type: application/json (got ${got}); send that header`,
  );
};
