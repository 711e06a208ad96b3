import type { HttpTask } from './taskQueue';

/** Cloud Scheduler fires at most once a minute; this task fills in the half-minute tick. */
export const PRICE_TASK_DELAY_MS = 30_000;

export interface PriceTaskSettings {
  readonly serviceUrl: string;
  readonly tasksServiceAccount: string;
}

/**
 * The `update-prices` task one price tick enqueues. Its id is derived from the tick's minute so a
 * retried tick (Cloud Scheduler retries on failure) does not enqueue a second task.
 */
export function halfMinutePriceTask(nowMs: number, settings: PriceTaskSettings): HttpTask {
  return {
    id: `update-prices-${Math.floor(nowMs / 60_000)}`,
    url: `${settings.serviceUrl}/internal/jobs/update-prices`,
    scheduleTimeMs: nowMs + PRICE_TASK_DELAY_MS,
    oidc: { serviceAccountEmail: settings.tasksServiceAccount, audience: settings.serviceUrl },
  };
}
