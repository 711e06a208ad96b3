import type * as pulumi from '@pulumi/pulumi';
import { enableApis } from './apis';
import type { StackConfig } from './config';
import { createDatabase } from './database';
import { createEdge } from './edgeSecurity';
import { createAccounts } from './identity';
import { createQueue } from './queue';
import { createRegistry } from './registry';
import { createSchedulerJobs, scheduledCalls } from './scheduler';
import { createSecrets } from './secrets';
import { createService } from './service';
import { deterministicServiceUrl } from './serviceUrl';

export interface StackOutputs {
  readonly serviceUrl: pulumi.Output<string>;
  readonly customDomainUrl: string | undefined;
  /** With `edgeSecurity`: the load balancer's IP address, for the domain's A record. */
  readonly edgeAddress: pulumi.Output<string> | undefined;
  /** Where to push the image: `<imageRepository>:<tag>`. */
  readonly imageRepository: pulumi.Output<string>;
  readonly queue: pulumi.Output<string>;
  readonly runtimeAccount: pulumi.Output<string>;
  readonly schedulerAccount: pulumi.Output<string>;
  readonly tasksAccount: pulumi.Output<string>;
  /** Secret ids to add versions to (`gcloud secrets versions add <id> --data-file=-`). */
  readonly secretIds: Record<string, pulumi.Output<string>>;
  /** Cloud Scheduler job names; empty until `image` is set. */
  readonly schedulerJobs: pulumi.Output<string>[];
  readonly serviceDeployed: boolean;
}

/**
 * The whole deployment. Without `image` it creates the foundation only (APIs, registry, accounts,
 * secrets, Firestore, queue), so the image can be pushed and the secrets filled before the first
 * revision starts; with `image` it adds the Cloud Run service and the schedules.
 */
export function createStack(config: StackConfig): StackOutputs {
  const { project, region, serviceName } = config;
  // Validated before any resource is declared, so a bad interval stops the run with nothing planned.
  const calls = scheduledCalls(config);
  const apis = enableApis(project, config.edge !== undefined);
  const accounts = createAccounts(project, serviceName, apis);
  const registry = createRegistry(project, region, serviceName, apis);
  const secrets = createSecrets(project, serviceName, config.secretEnv, accounts, apis);
  const db = createDatabase(project, config.firestoreLocation, accounts, apis);
  const tasks = createQueue(project, region, serviceName, config.database.autoscaleMaxMultiplier, accounts, apis);
  const serviceUrl = deterministicServiceUrl(project, region, serviceName);

  const outputs = {
    serviceUrl,
    customDomainUrl: config.domainName ? `https://${config.domainName}` : undefined,
    imageRepository: registry.imageBase,
    queue: tasks.queue.name,
    runtimeAccount: accounts.runtime.email,
    schedulerAccount: accounts.scheduler.email,
    tasksAccount: accounts.tasksInvoker.email,
    secretIds: Object.fromEntries(Object.entries(secrets.byName).map(([name, s]) => [name, s.secretId])),
  };
  if (!config.image) return { ...outputs, edgeAddress: undefined, schedulerJobs: [], serviceDeployed: false };

  const run = createService({
    config,
    image: config.image,
    serviceUrl,
    accounts,
    secrets,
    queue: tasks.queue,
    dependsOn: [...apis, db.database, db.dataAccess, ...secrets.grants, ...tasks.grants],
  });
  const edge = config.edge ? createEdge(config, run.service, apis) : undefined;
  const jobs = createSchedulerJobs(config, calls, serviceUrl, accounts.scheduler, [run.service, ...apis]);
  return {
    ...outputs,
    edgeAddress: edge?.address.address,
    schedulerJobs: jobs.map((j) => j.name),
    serviceDeployed: true,
  };
}
