import * as gcp from '@pulumi/gcp';
import type * as pulumi from '@pulumi/pulumi';

/**
 * Three accounts with one job each: the service runs as `runtime`; Cloud Scheduler signs its
 * calls as `scheduler`; tasks the service enqueues are signed as `tasksInvoker`. The job
 * endpoints accept tokens of the last two only, so the runtime account cannot call itself.
 */
export interface Accounts {
  readonly runtime: gcp.serviceaccount.Account;
  readonly scheduler: gcp.serviceaccount.Account;
  readonly tasksInvoker: gcp.serviceaccount.Account;
}

export function createAccounts(project: string, serviceName: string, dependsOn: pulumi.Resource[]): Accounts {
  const account = (suffix: string, displayName: string) =>
    new gcp.serviceaccount.Account(
      `${suffix}-account`,
      { project, accountId: `${serviceName}-${suffix}`.slice(0, 30), displayName },
      { dependsOn },
    );
  return {
    runtime: account('run', 'Balancer pools API (Cloud Run runtime)'),
    scheduler: account('scheduler', 'Balancer pools API: Cloud Scheduler job caller'),
    tasksInvoker: account('tasks', 'Balancer pools API: Cloud Tasks job caller'),
  };
}

export const member = (a: gcp.serviceaccount.Account): pulumi.Output<string> =>
  a.email.apply((e) => `serviceAccount:${e}`);
