/**
 * Where failures go when `ERRORTRACKER_DSN` is set: every 5xx answer, every failed job and
 * unhandled errors. The active tracker is process-wide so job code anywhere can report through
 * `reportJobFailure` without being handed a reference; without a DSN those calls do nothing.
 */
export interface RequestFailure {
  readonly route: string;
  readonly method: string;
  readonly status: number;
  readonly requestId: string;
  readonly chainId?: number;
}

export interface JobFailure {
  readonly job: string;
  readonly chainId?: number;
}

export interface ErrorTracker {
  reportRequestFailure(err: unknown, failure: RequestFailure): void;
  reportJobFailure(err: unknown, failure: JobFailure): void;
  /** Sends what is queued; resolves false when `timeoutMs` ran out first. */
  flush(timeoutMs: number): Promise<boolean>;
  close(timeoutMs: number): Promise<void>;
}

let active: ErrorTracker | undefined;

export function setActiveErrorTracker(tracker: ErrorTracker | undefined): void {
  active = tracker;
}

/** For job code: report a failed run (with its chain) to the error tracker, if one is configured. */
export function reportJobFailure(err: unknown, failure: JobFailure): void {
  active?.reportJobFailure(err, failure);
}
