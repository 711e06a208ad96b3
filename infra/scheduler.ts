import * as gcp from '@pulumi/gcp';
import * as pulumi from '@pulumi/pulumi';
import { ATTEMPT_MARGIN_SECONDS, type StackConfig } from './config';

/** The decoration attempt's least deadline: its whole run, not only the gauge reads its own deadline bounds. */
const DECORATE_ATTEMPT_FLOOR_SECONDS = 300;
import { everyMinutesCron } from './schedule';

export interface ScheduledCall {
  /** Resource name, also the job name in Cloud Scheduler. */
  readonly name: string;
  readonly path: string;
  readonly schedule: string;
  readonly description: string;
  /** How long one run may take before Cloud Scheduler counts it failed. */
  readonly attemptDeadline: string;
}

/**
 * The calls Cloud Scheduler makes: per enabled chain a pool update and a decoration at their
 * configured intervals, and one price tick a minute (the tick enqueues the half-minute run).
 */
export function scheduledCalls(c: StackConfig): ScheduledCall[] {
  const pools = everyMinutesCron(c.updatePoolsIntervalMinutes, 'UPDATE_POOLS_INTERVAL_IN_MINUTES');
  const decorate = everyMinutesCron(c.decoratePoolsIntervalMinutes, 'DECORATE_POOLS_INTERVAL_IN_MINUTES');
  // The service answers by its own deadline; the scheduler waits a little longer, so a slow
  // upstream shows up as the service's 502 naming it, not as a scheduler timeout.
  const attempt = (jobSeconds: number) => `${jobSeconds + ATTEMPT_MARGIN_SECONDS}s`;
  return [
    ...c.chainIds.flatMap((id) => [
      {
        name: `update-pools-${id}`,
        path: `/internal/jobs/update-pools/${id}`,
        schedule: pools,
        description: `Pool update of chain ${id} every ${c.updatePoolsIntervalMinutes} min`,
        attemptDeadline: attempt(c.jobDeadlines.updatePoolsSeconds),
      },
      {
        name: `decorate-pools-${id}`,
        path: `/internal/jobs/decorate-pools/${id}`,
        schedule: decorate,
        description: `Pool decoration (liquidity, volume, APR) of chain ${id} every ${c.decoratePoolsIntervalMinutes} min`,
        // Its deadline bounds the gauge reads only; the store reads and the commit come after
        // (metered on Firestore), so the attempt keeps the 300 s it always had when that is longer.
        attemptDeadline: `${Math.max(DECORATE_ATTEMPT_FLOOR_SECONDS, c.jobDeadlines.decoratePoolsSeconds + ATTEMPT_MARGIN_SECONDS)}s`,
      },
    ]),
    {
      name: 'price-tick',
      path: '/internal/jobs/price-tick',
      schedule: everyMinutesCron(1, 'price tick'),
      description: 'Token prices now and, through Cloud Tasks, 30 s later',
      attemptDeadline: attempt(c.jobDeadlines.priceRunSeconds),
    },
  ];
}

export function createSchedulerJobs(
  c: StackConfig,
  calls: readonly ScheduledCall[],
  serviceUrl: pulumi.Output<string>,
  scheduler: gcp.serviceaccount.Account,
  dependsOn: pulumi.Resource[],
): gcp.cloudscheduler.Job[] {
  return calls.map(
    (call) =>
      new gcp.cloudscheduler.Job(
        call.name,
        {
          project: c.project,
          region: c.region,
          name: `${c.serviceName}-${call.name}`,
          description: call.description,
          schedule: call.schedule,
          timeZone: 'Etc/UTC',
          attemptDeadline: call.attemptDeadline,
          // A busy job answers 503; the next scheduled run comes soon, so retry once only.
          retryConfig: { retryCount: 1, minBackoffDuration: '10s' },
          httpTarget: {
            uri: pulumi.interpolate`${serviceUrl}${call.path}`,
            httpMethod: 'POST',
            oidcToken: { serviceAccountEmail: scheduler.email, audience: serviceUrl },
          },
        },
        { dependsOn },
      ),
  );
}
