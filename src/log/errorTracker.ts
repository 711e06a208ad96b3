/**
 * Where failures go when `ERRORTRACKER_DSN` is set: every 5xx answer, every failed job and
 * unhandled errors. The tracker itself (Sentry) is the errorTracking feature's; this is the port
 * the lower layers report through, so job code needs no import of that feature.
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

/**
 * The app's active tracker, if any: the errorTracking feature plugs its tracker in when it is built
 * and takes it out when it stops; without one, reports go nowhere. One per AppContext, so an app
 * without a DSN in the same process as one with a DSN reports nothing.
 */
export class ErrorTrackerSlot {
  private active: ErrorTracker | undefined;

  use(tracker: ErrorTracker | undefined): void {
    this.active = tracker;
  }

  /** For job code: report a failed run (with its chain). */
  reportJobFailure(err: unknown, failure: JobFailure): void {
    this.active?.reportJobFailure(err, failure);
  }
}
