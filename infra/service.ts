import * as gcp from '@pulumi/gcp';
import * as pulumi from '@pulumi/pulumi';
import { ATTEMPT_MARGIN_SECONDS, CONTAINER_PORT, StackConfig } from './config';
import type { Accounts } from './identity';
import type { Secrets } from './secrets';

export interface ServiceInputs {
  readonly config: StackConfig;
  readonly image: string;
  readonly serviceUrl: pulumi.Output<string>;
  readonly accounts: Accounts;
  readonly secrets: Secrets;
  readonly queue: gcp.cloudtasks.Queue;
  readonly dependsOn: pulumi.Resource[];
}

/** Plain settings as env variables: the same names the service reads in src/config/env.ts. */
export function plainEnv(c: StackConfig): Record<string, string> {
  return {
    STORE: 'firestore',
    JOB_RUNNER: 'scheduler',
    NETWORKS: c.chainIds.join(','),
    GOOGLE_CLOUD_PROJECT: c.project,
    UPDATE_POOLS_INTERVAL_IN_MINUTES: String(c.updatePoolsIntervalMinutes),
    DECORATE_POOLS_INTERVAL_IN_MINUTES: String(c.decoratePoolsIntervalMinutes),
    UPDATE_POOLS_DEADLINE_SECONDS: String(c.jobDeadlines.updatePoolsSeconds),
    PRICE_RUN_DEADLINE_SECONDS: String(c.jobDeadlines.priceRunSeconds),
    DECORATE_POOLS_DEADLINE_SECONDS: String(c.jobDeadlines.decoratePoolsSeconds),
    DATABASE_POOLS_READ_CAPACITY: String(c.database.poolsReadCapacity),
    DATABASE_POOLS_WRITE_CAPACITY: String(c.database.poolsWriteCapacity),
    DATABASE_TOKENS_READ_CAPACITY: String(c.database.tokensReadCapacity),
    DATABASE_TOKENS_WRITE_CAPACITY: String(c.database.tokensWriteCapacity),
    DATABASE_AUTOSCALE_MAX_MULTIPLIER: String(c.database.autoscaleMaxMultiplier),
    TASKS_LOCATION: c.region,
    // Cloud Run's front end adds one X-Forwarded-For hop; the load balancer in front adds two.
    TRUST_PROXY: c.edge ? '2' : '1',
    // The service refuses a start its pools do not fit, by this (the cgroup limit may be hidden).
    MEMORY_LIMIT_MIB: String(c.memoryLimitMib),
    // The threads the memory is sized for (extraEnv may override it, and the sizing follows).
    ROUTER_WORKERS: String(c.quoteThreads),
    ...(c.domainName ? { DOMAIN_NAME: c.domainName } : {}),
    ...c.extraEnv,
  };
}

export function createService(i: ServiceInputs) {
  const c = i.config;
  const envs: pulumi.Input<gcp.types.input.cloudrunv2.ServiceTemplateContainerEnv>[] = [
    ...Object.entries(plainEnv(c)).map(([name, value]) => ({ name, value })),
    { name: 'SERVICE_URL', value: i.serviceUrl },
    { name: 'SCHEDULER_SERVICE_ACCOUNT', value: i.accounts.scheduler.email },
    { name: 'TASKS_SERVICE_ACCOUNT', value: i.accounts.tasksInvoker.email },
    { name: 'TASKS_QUEUE', value: i.queue.name },
    ...[...c.mountedSecrets, ...c.secretEnv].map((name) => ({
      name,
      valueSource: {
        secretKeyRef: { secret: (i.secrets.byName[name] as gcp.secretmanager.Secret).secretId, version: 'latest' },
      },
    })),
  ];

  const service = new gcp.cloudrunv2.Service(
    'api',
    {
      project: c.project,
      location: c.region,
      name: c.serviceName,
      // Behind the load balancer nothing else may reach the service, or the Cloud Armor limits could
      // be bypassed; Cloud Scheduler and Cloud Tasks of the project still count as internal.
      ingress: c.edge ? 'INGRESS_TRAFFIC_INTERNAL_LOAD_BALANCER' : 'INGRESS_TRAFFIC_ALL',
      // Stateless: everything durable lives in Firestore, so the stack may remove it.
      deletionProtection: false,
      template: {
        serviceAccount: i.accounts.runtime.email,
        scaling: { minInstanceCount: c.minInstances, maxInstanceCount: c.maxInstances },
        maxInstanceRequestConcurrency: c.concurrency,
        // A job endpoint answers within its deadline and the scheduler waits the margin longer:
        // Cloud Run must not cut the request first when an operator raises a deadline.
        timeout: `${Math.max(300, ...Object.values(c.jobDeadlines).map((s) => s + ATTEMPT_MARGIN_SECONDS))}s`,
        containers: [
          {
            image: i.image,
            ports: { containerPort: CONTAINER_PORT },
            envs,
            resources: {
              limits: { cpu: c.cpu, memory: c.memory },
              // The read model follows Firestore through snapshot listeners between requests;
              // with CPU only during requests those would stall and reads would go stale.
              cpuIdle: false,
              startupCpuBoost: true,
            },
            // Ready once the store answers, every chain's read model is loaded and every followed
            // chain serves the chain's state (its first full read published; a failing node does
            // not hold the start back: src/http/routes/health.ts).
            startupProbe: {
              httpGet: { path: '/readyz?serving=chain', port: CONTAINER_PORT },
              periodSeconds: 5,
              timeoutSeconds: 3,
              failureThreshold: 36,
            },
            livenessProbe: {
              httpGet: { path: '/healthz', port: CONTAINER_PORT },
              periodSeconds: 30,
              timeoutSeconds: 5,
              failureThreshold: 3,
            },
          },
        ],
      },
    },
    { dependsOn: i.dependsOn },
  );

  const invoker = (name: string, m: pulumi.Input<string>) =>
    new gcp.cloudrunv2.ServiceIamMember(name, {
      project: c.project,
      location: c.region,
      name: service.name,
      role: 'roles/run.invoker',
      member: m,
    });
  // The API is public; the job endpoints check Google ID tokens themselves (src/jobs/triggers/scheduler).
  const invokers = [
    invoker('api-public-invoker', 'allUsers'),
    invoker('api-scheduler-invoker', pulumi.interpolate`serviceAccount:${i.accounts.scheduler.email}`),
    invoker('api-tasks-invoker', pulumi.interpolate`serviceAccount:${i.accounts.tasksInvoker.email}`),
  ];

  // Behind the load balancer the domain's DNS points at the balancer's address instead.
  const domainMapping =
    c.domainName && !c.edge
      ? new gcp.cloudrun.DomainMapping('api-domain', {
          project: c.project,
          location: c.region,
          name: c.domainName,
          metadata: { namespace: c.project },
          spec: { routeName: service.name },
        })
      : undefined;

  return { service, invokers, domainMapping };
}
