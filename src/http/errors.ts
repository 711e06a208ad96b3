import type { ErrorRequestHandler, RequestHandler } from 'express';
import { JobAlreadyRunning } from '../jobs/exclusive';
import { UpstreamError } from '../sources/upstream';

/**
 * Every error leaves the service as `{ "error": "<what went wrong and what to fix>", "code": <status> }`.
 * Throw `HttpError` anywhere in a handler; anything else becomes a logged 500 without internals.
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }
}

export function errorBody(status: number, message: string): { error: string; code: number } {
  return { error: message, code: status };
}

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json(errorBody(404, `no route for ${req.method} ${req.path}; see the README for the endpoints`));
};

/** Hook for the error tracker (issue: armour); called for every 5xx. */
export type ServerErrorReporter = (err: unknown, req: Parameters<RequestHandler>[0], status: number) => void;

export function errorHandler(report?: ServerErrorReporter): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    let status = 500;
    let message = 'internal error; the request id in the logs identifies it';
    let headers: Readonly<Record<string, string>> = {};
    if (err instanceof HttpError) {
      status = err.status;
      message = err.message;
      headers = err.headers;
    } else if (err instanceof JobAlreadyRunning) {
      // The old API answered a second concurrent update with a 500; clients rely on it.
      status = 500;
      message = err.message;
    } else if (err instanceof UpstreamError) {
      status = 502;
      message = `upstream failed: ${err.message}; nothing was changed, retry later`;
    } else if (isBodyParserError(err)) {
      status = err.status;
      message =
        err.type === 'entity.too.large'
          ? `request body too large (limit ${err.limit} bytes); send a smaller JSON body`
          : err.type === 'entity.parse.failed'
            ? `malformed JSON body: ${err.message}; send valid JSON with Content-Type: application/json`
            : err.message;
    }
    if (status >= 500) {
      req.log?.error({ err: err instanceof Error ? { message: err.message, stack: err.stack } : err, status }, 'request failed');
      report?.(err, req, status);
    }
    res.status(status).set(headers).json(errorBody(status, message));
  };
}

interface BodyParserError {
  status: number;
  type: string;
  message: string;
  limit?: number;
}

function isBodyParserError(err: unknown): err is BodyParserError {
  return typeof err === 'object' && err !== null && typeof (err as { type?: unknown }).type === 'string' &&
    typeof (err as { status?: unknown }).status === 'number' && (err as { status: number }).status < 500;
}
