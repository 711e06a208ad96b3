import {
  defaultStackParser,
  linkedErrorsIntegration,
  makeNodeTransport,
  NodeClient,
  onUncaughtExceptionIntegration,
  onUnhandledRejectionIntegration,
  Scope,
  setCurrentClient,
} from '@sentry/node';
import type { ErrorTracker } from '../log/errorTracker';
import { scrubEvent } from './scrubEvent';

/**
 * `@sentry/node` behind the ErrorTracker interface. It uses its own client and scope rather than
 * the SDK's global `init`, so no OpenTelemetry or auto-instrumentation is set up and several
 * servers (tests) can each have their own; `captureUnhandled` makes it the process's client for
 * uncaught exceptions and unhandled rejections (the service process, not tests).
 */
export interface SentryTrackerOptions {
  readonly dsn: string;
  /** Values that must never leave the process (API keys, secrets). */
  readonly secrets: readonly string[];
  readonly environment?: string;
  readonly release?: string;
}

export interface SentryTracker extends ErrorTracker {
  captureUnhandled(): void;
}

export function createSentryTracker(options: SentryTrackerOptions): SentryTracker {
  const client = new NodeClient({
    dsn: options.dsn,
    transport: makeNodeTransport,
    stackParser: defaultStackParser,
    integrations: [linkedErrorsIntegration()],
    environment: options.environment,
    release: options.release,
    beforeSend: (event) => scrubEvent(event, options.secrets),
    beforeBreadcrumb: () => null,
  });
  const scope = new Scope();
  scope.setClient(client);
  client.init();

  const capture = (
    err: unknown,
    tags: Record<string, string | number | undefined>,
    extra?: Record<string, unknown>,
  ) => {
    const s = scope.clone();
    for (const [k, v] of Object.entries(tags)) if (v !== undefined) s.setTag(k, String(v));
    if (extra) s.setContext('details', extra);
    s.captureException(err instanceof Error ? err : new Error(String(err)));
  };

  return {
    reportRequestFailure(err, f) {
      // The SDK drops an error object it has already sent; a failed job answered as a 5xx was sent
      // as a job failure, so the request event gets its own copy (same name, message and stack).
      capture(copyOf(err), {
        route: f.route,
        method: f.method,
        status: f.status,
        request_id: f.requestId,
        chain_id: f.chainId,
        kind: 'request',
      });
    },
    reportJobFailure(err, f) {
      capture(err, { job: f.job, chain_id: f.chainId, kind: 'job' });
    },
    flush: (timeoutMs) => Promise.resolve(client.flush(timeoutMs)),
    close: async (timeoutMs) => {
      await client.close(timeoutMs);
    },
    captureUnhandled() {
      setCurrentClient(client);
      // 'strict' keeps Node's own behaviour (exit on an unhandled rejection) after reporting it.
      client.addIntegration(onUncaughtExceptionIntegration());
      client.addIntegration(onUnhandledRejectionIntegration({ mode: 'strict' }));
    },
  };
}

function copyOf(err: unknown): Error {
  if (!(err instanceof Error)) return new Error(String(err));
  const copy = new Error(err.message, { cause: err.cause });
  copy.name = err.name;
  copy.stack = err.stack;
  return copy;
}
