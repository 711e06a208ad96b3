import type { FeatureFactory } from '../../../http/feature';
import { requireGoogleCaller } from './callerAuth';
import { GoogleIdTokenVerifier, IdTokenVerifier } from './idTokenVerifier';
import { internalJobsRouter, JobRunners, PriceTick } from './routes';
import { internalJobsSettings } from './settings';
import { CloudTasksQueue, TaskQueue } from './taskQueue';

export interface InternalJobsDeps {
  readonly jobs: JobRunners;
  readonly verifier?: IdTokenVerifier;
  /** Replaces the Cloud Tasks queue built from the configuration. */
  readonly taskQueue?: TaskQueue;
}

/**
 * Internal job endpoints for JOB_RUNNER=scheduler: Cloud Scheduler and Cloud Tasks call them
 * with Google OIDC tokens. Mounted in every mode; without configuration they answer 503.
 */
export function createInternalJobsFeature(deps: InternalJobsDeps): FeatureFactory {
  return (ctx) => {
    const settings = internalJobsSettings(ctx.config);
    const verifier = deps.verifier ?? new GoogleIdTokenVerifier(ctx.config.internalJobs.oidcCertsUrl);
    const queue =
      deps.taskQueue ??
      (typeof settings.priceTask === 'string' ? undefined : new CloudTasksQueue(settings.priceTask.queue));
    if (ctx.config.jobRunner === 'scheduler' && typeof settings.caller === 'string') ctx.logger.warn(settings.caller);

    const priceTick: PriceTick | string =
      typeof settings.priceTask === 'string'
        ? settings.priceTask
        : { settings: settings.priceTask, queue: queue as TaskQueue };
    // The caller check guards each job route; unknown paths and other methods are answered first.
    const router = internalJobsRouter(ctx, deps.jobs, priceTick, requireGoogleCaller(verifier, settings.caller));
    return {
      name: 'internal-jobs',
      routers: [router],
      stop: async () => {
        await queue?.close();
      },
    };
  };
}
