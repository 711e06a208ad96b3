import { backOff } from 'exponential-backoff';
import { withTimeLimit } from '../lifecycle/timeLimit';

/**
 * The one HTTP client every upstream module uses (subgraph, prices, sanctions, simulator, RPC):
 * JSON in and out, a timeout per attempt, and retries with exponential back-off on network
 * errors, timeouts, 429 (honouring Retry-After) and 5xx. Anything else fails at once.
 */
export class UpstreamError extends Error {
  override name: string = 'UpstreamError';
  constructor(
    /** Which upstream, as operators know it: "subgraph", "price API", "sanctions provider" ... */
    readonly upstream: string,
    message: string,
    /** The upstream's HTTP status, when it answered. */
    readonly status?: number,
    /** The upstream's answer body, when it answered with JSON. */
    readonly body?: unknown,
  ) {
    super(`${upstream}: ${message}`);
  }
}

export interface JsonRequest {
  readonly url: string;
  readonly method?: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** The body as JSON text already (what the caller built itself), instead of `body`. */
  readonly bodyText?: string;
  readonly timeoutMs: number;
}

export interface RetryPolicy {
  /** Total attempts, including the first. */
  readonly attempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /**
   * Absolute unix ms by which the call must be over (a job's deadline): no attempt starts after
   * it, and an attempt's timeout is cut to the time left.
   */
  readonly deadline?: number;
  /** How the deadline is named in errors, e.g. "the update's 60 s deadline (UPDATE_POOLS_DEADLINE_SECONDS)". */
  readonly deadlineLabel?: string;
}

export const NO_RETRY: RetryPolicy = { attempts: 1, baseDelayMs: 0, maxDelayMs: 0 };

export interface JsonResponse<T> {
  readonly status: number;
  readonly body: T;
  readonly headers: Headers;
}

class Retryable extends UpstreamError {
  override readonly name: string = 'Retryable';
  constructor(
    upstream: string,
    message: string,
    status: number | undefined,
    readonly retryAfterMs: number | undefined,
  ) {
    super(upstream, message, status);
  }
}

function retryAfterMs(h: string | null): number | undefined {
  if (!h) return undefined;
  const s = Number(h);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const at = Date.parse(h);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * How a request failed before any answer, by the error's code only: the system's own message
 * names the upstream's address ("connect ECONNREFUSED 10.0.0.7:8109"), which reaches clients in
 * 502 bodies and must not. The configuration says which address that is.
 */
function unreachable(err: Error): string {
  const cause = err.cause as (Error & { code?: unknown }) | undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  switch (code) {
    case 'ECONNREFUSED':
      return 'unreachable: the connection was refused (ECONNREFUSED)';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `unreachable: its host name did not resolve (${code})`;
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return `unreachable: the connection closed before an answer (${code})`;
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return `unreachable: the connection timed out (${code})`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `unreachable: no route to its network (${code})`;
    case undefined:
      return 'unreachable (network error)';
    default:
      return /CERT|SSL|TLS/.test(code) ? `unreachable: TLS failed (${code})` : `unreachable (${code})`;
  }
}

async function once<T>(upstream: string, req: JsonRequest): Promise<JsonResponse<T>> {
  return withTimeLimit(req.timeoutMs, 'upstream timeout', (signal) => answer<T>(upstream, req, signal));
}

async function answer<T>(upstream: string, req: JsonRequest, signal: AbortSignal): Promise<JsonResponse<T>> {
  let res: Response;
  const sent = req.bodyText ?? (req.body === undefined ? undefined : JSON.stringify(req.body));
  try {
    res = await fetch(req.url, {
      method: req.method ?? (sent === undefined ? 'GET' : 'POST'),
      headers: {
        accept: 'application/json',
        ...(sent === undefined ? {} : { 'content-type': 'application/json' }),
        ...req.headers,
      },
      body: sent,
      signal,
    });
  } catch (e) {
    const err = e as Error;
    const what = err.name === 'TimeoutError' ? `no answer within ${req.timeoutMs} ms` : unreachable(err);
    throw new Retryable(upstream, what, undefined, undefined);
  }
  const text = await res.text().catch(() => '');
  let body: unknown = undefined;
  if (text !== '') {
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
  }
  if (res.status === 429 || res.status >= 500) {
    throw new Retryable(
      upstream,
      `answered HTTP ${res.status}`,
      res.status,
      retryAfterMs(res.headers.get('retry-after')),
    );
  }
  if (res.status >= 400) {
    const detail = typeof body === 'object' && body !== null ? JSON.stringify(body).slice(0, 300) : text.slice(0, 300);
    throw new UpstreamError(upstream, `answered HTTP ${res.status}${detail ? `: ${detail}` : ''}`, res.status, body);
  }
  if (body === undefined)
    throw new UpstreamError(upstream, `answered HTTP ${res.status} without a JSON body`, res.status);
  return { status: res.status, body: body as T, headers: res.headers };
}

/** One attempt, with its timeout cut to what is left before the deadline. */
async function attempt<T>(upstream: string, req: JsonRequest, retry: RetryPolicy): Promise<JsonResponse<T>> {
  if (retry.deadline === undefined) return once<T>(upstream, req);
  const left = retry.deadline - Date.now();
  const beforeDeadline = `no answer before ${retry.deadlineLabel ?? 'the deadline'}`;
  if (left <= 0) throw new UpstreamError(upstream, beforeDeadline);
  if (left >= req.timeoutMs) return once<T>(upstream, req);
  try {
    return await once<T>(upstream, { ...req, timeoutMs: left });
  } catch (e) {
    // Cut by the deadline rather than by the request's own timeout: say which, and do not retry.
    if (e instanceof Retryable && e.status === undefined && Date.now() >= retry.deadline)
      throw new UpstreamError(upstream, beforeDeadline);
    throw e;
  }
}

export async function requestJson<T>(
  upstream: string,
  req: JsonRequest,
  retry: RetryPolicy = NO_RETRY,
): Promise<JsonResponse<T>> {
  try {
    return await backOff(() => attempt<T>(upstream, req, retry), {
      numOfAttempts: Math.max(1, retry.attempts),
      startingDelay: Math.max(1, retry.baseDelayMs),
      maxDelay: Math.max(1, retry.maxDelayMs),
      jitter: 'full',
      retry: async (e: unknown) => {
        if (!(e instanceof Retryable)) return false;
        if (retry.deadline !== undefined && Date.now() >= retry.deadline) return false;
        if (e.retryAfterMs !== undefined) {
          // Honour the upstream's own pause (bounded by the deadline), on top of the back-off.
          const wait =
            retry.deadline !== undefined
              ? Math.min(e.retryAfterMs, Math.max(0, retry.deadline - Date.now()))
              : e.retryAfterMs;
          if (retry.deadline !== undefined && Date.now() + e.retryAfterMs > retry.deadline) return false;
          await new Promise((r) => setTimeout(r, Math.min(wait, retry.maxDelayMs * 10)));
        }
        return true;
      },
    });
  } catch (e) {
    if (e instanceof Retryable) throw new UpstreamError(e.upstream, e.message.slice(e.upstream.length + 2), e.status);
    throw e;
  }
}
