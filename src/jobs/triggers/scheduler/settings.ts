import type { Config } from '../../../config/env';
import type { CallerPolicy } from './callerAuth';
import type { PriceTaskSettings } from './priceTask';
import type { QueuePath } from './taskQueue';

/**
 * What the internal job endpoints need from the configuration, or, when something is missing,
 * the sentence that tells the operator which variables to set (answered as 503).
 */
export interface InternalJobsSettings {
  readonly caller: CallerPolicy | string;
  readonly priceTask: (PriceTaskSettings & { readonly queue: QueuePath }) | string;
}

export function internalJobsSettings(config: Config): InternalJobsSettings {
  const j = config.internalJobs;
  const accounts = [j.schedulerServiceAccount, j.tasksServiceAccount].filter((a): a is string => a !== undefined);
  const caller: CallerPolicy | string =
    j.serviceUrl === undefined || accounts.length === 0
      ? 'internal job endpoints are not configured: set SERVICE_URL and SCHEDULER_SERVICE_ACCOUNT (and TASKS_SERVICE_ACCOUNT)'
      : { audience: j.serviceUrl, accounts };

  const missing = [
    ['SERVICE_URL', j.serviceUrl],
    ['TASKS_SERVICE_ACCOUNT', j.tasksServiceAccount],
    ['TASKS_QUEUE', j.tasksQueue],
    ['TASKS_LOCATION', j.tasksLocation],
    ['GOOGLE_CLOUD_PROJECT', config.googleCloudProject],
  ]
    .filter(([, v]) => v === undefined)
    .map(([k]) => k);
  const priceTask =
    missing.length > 0
      ? `price-tick cannot enqueue the half-minute task: set ${missing.join(', ')}`
      : {
          serviceUrl: j.serviceUrl as string,
          tasksServiceAccount: j.tasksServiceAccount as string,
          queue: {
            project: config.googleCloudProject as string,
            location: j.tasksLocation as string,
            queue: j.tasksQueue as string,
          },
        };
  return { caller, priceTask };
}
