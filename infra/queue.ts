import * as gcp from '@pulumi/gcp';
import type * as pulumi from '@pulumi/pulumi';
import type { Accounts } from './identity';
import { member } from './identity';
import { queueRateLimits } from './schedule';

/**
 * The Cloud Tasks queue the service enqueues its own follow-up jobs on (the half-minute price
 * update). The runtime account may enqueue on this queue only, and may mint OIDC tokens for the
 * tasks account only (actAs), which is what Cloud Tasks requires for `oidcToken` tasks.
 */
export function createQueue(
  project: string,
  region: string,
  serviceName: string,
  autoscaleMaxMultiplier: number,
  accounts: Accounts,
  dependsOn: pulumi.Resource[],
) {
  const limits = queueRateLimits(autoscaleMaxMultiplier);
  const queue = new gcp.cloudtasks.Queue(
    'jobs-queue',
    {
      project,
      location: region,
      name: `${serviceName}-jobs`,
      rateLimits: {
        maxConcurrentDispatches: limits.maxConcurrentDispatches,
        maxDispatchesPerSecond: limits.maxDispatchesPerSecond,
      },
      // A price task that misses its half-minute is superseded by the next tick: retry briefly only.
      retryConfig: { maxAttempts: 3, minBackoff: '2s', maxBackoff: '10s', maxRetryDuration: '25s' },
    },
    { dependsOn },
  );
  const enqueuer = new gcp.cloudtasks.QueueIamMember('run-tasks-enqueuer', {
    project,
    location: region,
    name: queue.name,
    role: 'roles/cloudtasks.enqueuer',
    member: member(accounts.runtime),
  });
  const actAsTasksInvoker = new gcp.serviceaccount.IAMMember('run-acts-as-tasks-invoker', {
    serviceAccountId: accounts.tasksInvoker.name,
    role: 'roles/iam.serviceAccountUser',
    member: member(accounts.runtime),
  });
  return { queue, grants: [enqueuer, actAsTasksInvoker] };
}
