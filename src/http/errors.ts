import type { ErrorRequestHandler, RequestHandler } from 'express';
import { JobAlreadyRunning } from '../jobs/exclusive';
import { UpstreamError } from '../sources/upstream';
import { REASONS, reasonMembers, type ErrorInfo } from './errorReasons';
import { NOT_A_FAULT } from './requestLog';

/**
 * Every error leaves the service as `{ "error": "<what went wrong and what to fix>", "code": <status>,
 * "reason": "<stable name>", "field"?: "<field at fault>", "details"?: {...} }` (reasons in
 * `errorReasons.ts`). Throw `HttpError` anywhere in a handler; anything else becomes a logged 500
 * without internals. `info.reason` is needed only where the status alone is ambiguous.
 */
export class HttpError extends Error {
  override name: string = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    readonly info: ErrorInfo = {},
  ) {
    super(message);
  }
}

/**
 * 503 for an endpoint this deployment has not configured (the internal job endpoints without
 * their service accounts): the setup's state, not a fault, so it is logged as a warning and not
 * sent to the error tracker. Anyone can ask for such an endpoint; each ask must not page anybody.
 */
export class NotConfigured extends HttpError {
  override readonly name: string = 'NotConfigured';
  constructor(message: string) {
    super(503, message, {}, { reason: REASONS.NOT_CONFIGURED });
  }
}

/**
 * A refusal because of the service's own operational state rather than the request: a followed
 * chain's state gone stale, its node down or behind. Every request refused while it lasts gets
 * it, so it is not a fault of each request: logged once per change of `condition` (a warning,
 * `scope` naming what it is about, `condition` its state: a new outage is a new condition) and
 * never sent to the error tracker. Whichever code refuses this way throws it.
 */
export class OperationalRefusal extends HttpError {
  constructor(
    status: number,
    message: string,
    readonly scope: string,
    readonly condition: string,
    headers: Readonly<Record<string, string>> = {},
    info: ErrorInfo = {},
  ) {
    super(status, message, headers, info);
    this.name = 'OperationalRefusal';
  }
}

/** Per scope, the condition last logged (`OperationalRefusal`): per app, from `createApp`. */
export type RefusalLog = Map<string, string>;

/**
 * A client mistake found by middleware (body parsing, path decoding) rather than by a handler; it
 * carries body-parser's `status` and `type` so the error handler treats it like theirs.
 */
export class ClientError extends Error {
  override readonly name: string = 'ClientError';
  readonly expose = true;
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** An error body; `info` left out gives the status's default reason (`errorReasons.ts`). */
export function errorBody(status: number, message: string, info?: ErrorInfo): ErrorBody {
  return { error: message, code: status, ...reasonMembers(status, message, info) };
}

export type ErrorBody = { error: string; code: number } & ReturnType<typeof reasonMembers>;

export const notFoundHandler: RequestHandler = (req, res) => {
  res.status(404).json(
    errorBody(404, `no route for ${req.method} ${req.path}; see the README for the endpoints`, {
      reason: REASONS.NOT_FOUND,
    }),
  );
};

/** Hook for the error tracker (the errorTracking feature); called for every 5xx. */
export type ServerErrorReporter = (err: unknown, req: Parameters<RequestHandler>[0], status: number) => void;

export function errorHandler(report?: ServerErrorReporter, refusals: RefusalLog = new Map()): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    let status = 500;
    let message = 'internal error; the request id in the logs identifies it';
    let headers: Readonly<Record<string, string>> = {};
    let info: ErrorInfo = {};
    if (err instanceof HttpError) {
      status = err.status;
      message = err.message;
      headers = err.headers;
      info = err.info;
    } else if (err instanceof JobAlreadyRunning) {
      // Not a failure: the job runs elsewhere. 503 with Retry-After says when to ask again (the old
      // API's 500 could not be told from a failed run).
      status = 503;
      message = err.message;
      headers = { 'Retry-After': String(err.retryAfterSeconds) };
      info = { reason: REASONS.JOB_RUNNING, details: { retryAfterSeconds: err.retryAfterSeconds } };
    } else if (err instanceof UpstreamError) {
      status = 502;
      message = `upstream failed: ${err.message}; nothing was changed, retry later`;
      info = { reason: REASONS.UPSTREAM_FAILED };
    } else if (err instanceof URIError) {
      // The router could not decode a path parameter.
      const segment = /'(.*)'/.exec(err.message)?.[1] ?? req.path;
      status = 400;
      message = `the path has broken percent-encoding in '${segment}' (every % must start a %XX escape of UTF-8 bytes); encode each path segment with encodeURIComponent`;
      info = { reason: REASONS.BAD_REQUEST };
    } else if (isClientMistake(err)) {
      status = err.status;
      message = clientMistakeMessage(err, req.headers['content-encoding']);
      info = clientMistakeInfo(err);
    }
    if (err instanceof NotConfigured) {
      res.locals[NOT_A_FAULT] = true;
      req.log?.warn({ status, reason: err.message }, 'endpoint not configured');
    } else if (err instanceof OperationalRefusal) {
      res.locals[NOT_A_FAULT] = true;
      if (refusals.get(err.scope) !== err.condition) {
        refusals.set(err.scope, err.condition);
        req.log?.warn({ status, scope: err.scope, reason: err.message }, 'refusing requests: operational state');
      }
    } else if (status >= 500 && !(err instanceof JobAlreadyRunning)) {
      req.log?.error(
        { err: err instanceof Error ? { message: err.message, stack: err.stack } : err, status },
        'request failed',
      );
      report?.(err, req, status);
    }
    res
      .status(status)
      .set(headers)
      .json(errorBody(status, message, info));
  };
}

/** What body-parser (and the http-errors convention) hands over: a 4xx status, often a type. */
interface ClientMistake {
  status: number;
  type?: string;
  message: string;
  limit?: number;
}

function isClientMistake(err: unknown): err is ClientMistake {
  if (typeof err !== 'object' || err === null) return false;
  const status = (err as { status?: unknown }).status;
  return typeof status === 'number' && status >= 400 && status < 500 && (err as { expose?: unknown }).expose !== false;
}

function clientMistakeInfo(err: ClientMistake): ErrorInfo {
  if (err.type === 'entity.parse.failed') return { reason: REASONS.MALFORMED_JSON };
  if (err.type === 'entity.too.large') return { reason: REASONS.BODY_TOO_LARGE, details: { limitBytes: err.limit } };
  // Every other mistake here is the body's or the request's, never one field's.
  return { reason: err.status === 400 ? REASONS.BAD_REQUEST : undefined };
}

const SUPPORTED_ENCODINGS = 'gzip, deflate, br';

function clientMistakeMessage(err: ClientMistake, contentEncoding: string | undefined): string {
  switch (err.type) {
    case 'entity.too.large':
      return `request body too large (limit ${err.limit} bytes); send a smaller JSON body`;
    case 'entity.parse.failed':
      return `malformed JSON body: ${err.message}; send valid JSON with Content-Type: application/json`;
    case 'encoding.unsupported':
      return `${err.message}; send the body uncompressed or compressed with one of ${SUPPORTED_ENCODINGS}`;
    case undefined:
      // body-parser passes decompression failures on untyped, as zlib raised them.
      if (contentEncoding) {
        return `request body is not valid ${contentEncoding} (${err.message}); compress it as its Content-Encoding header says, or send it uncompressed without that header`;
      }
      return err.message;
    default:
      return err.message;
  }
}
