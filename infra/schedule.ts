import { StackConfigError } from './config';

/**
 * Pure derivations from configuration to Cloud Scheduler and Cloud Tasks settings.
 */

/**
 * A cron expression that fires every `minutes`. Cloud Scheduler's finest unit is one minute, and
 * cron steps restart each hour (and day), so only intervals that divide the hour (or the day, in
 * whole hours) give an even cadence; others are refused rather than silently drifting.
 */
export function everyMinutesCron(minutes: number, key: string): string {
  if (!Number.isInteger(minutes) || minutes < 1) {
    throw new StackConfigError(
      `pulumi config ${key}: Cloud Scheduler runs at most once a minute; use a whole number of minutes, got ${minutes}`,
    );
  }
  if (minutes === 1) return '* * * * *';
  if (minutes < 60 && 60 % minutes === 0) return `*/${minutes} * * * *`;
  if (minutes % 60 === 0 && 24 % (minutes / 60) === 0)
    return minutes === 1440 ? '0 0 * * *' : `0 */${minutes / 60} * * *`;
  throw new StackConfigError(
    `pulumi config ${key}: ${minutes} minutes does not divide an hour or a day evenly; use one of 1, 2, 3, 4, 5, 6, 10, 12, 15, 20, 30, 60, 120, 180, 240, 360, 480, 720, 1440`,
  );
}

export interface QueueRateLimits {
  readonly maxConcurrentDispatches: number;
  readonly maxDispatchesPerSecond: number;
}

/**
 * Every dispatched task runs one job, and one job may use the store's full write budget
 * (DATABASE_*_WRITE_CAPACITY, enforced client-side). N jobs at once therefore load Firestore N
 * times the base budget, and DATABASE_AUTOSCALE_MAX_MULTIPLIER is the burst the operator allows:
 * so at most that many tasks run at once. A job takes at least a second, so starting more tasks
 * per second than may run at once would only queue them inside the service.
 */
export function queueRateLimits(autoscaleMaxMultiplier: number): QueueRateLimits {
  const concurrent = Math.max(1, Math.floor(autoscaleMaxMultiplier));
  return { maxConcurrentDispatches: concurrent, maxDispatchesPerSecond: concurrent };
}
