import type { Config } from '../config/env';
import type { FeatureFactory } from '../http/feature';
import { chainIdFromPath, routeTemplate } from './requestTags';

/**
 * Error tracking when `ERRORTRACKER_DSN` is set: every 5xx answer (through the error handler's
 * hook) with route, chain id and request id; failed jobs through the app's `errorTracker` slot; and, in the
 * service process, uncaught exceptions and unhandled rejections.
 */
export function configuredSecrets(config: Config): string[] {
  return [
    config.sanctions.apiKey,
    config.simulator.accessKey,
    config.jobsSecret,
    config.prices.apiKey,
    config.nodeProviderProjectId,
  ].filter((s): s is string => typeof s === 'string' && s !== '');
}

export const errorTrackingFeature: FeatureFactory = (ctx) => {
  const dsn = ctx.config.errorTrackerDsn;
  if (!dsn) return { name: 'error-tracking' };
  // Loaded only when a DSN is set: @sentry/node costs the process about 40 MiB of memory.
  const { createSentryTracker } = require('./sentryTracker') as typeof import('./sentryTracker');
  const tracker = createSentryTracker({
    dsn,
    secrets: configuredSecrets(ctx.config),
    environment: ctx.config.domainName ?? ctx.config.deployment.service,
    release: ctx.config.deployment.revision,
  });
  ctx.errorTracker.use(tracker);
  return {
    name: 'error-tracking',
    reportServerError(err, req, status) {
      const route = routeTemplate(req.baseUrl, req.route?.path);
      tracker.reportRequestFailure(err instanceof Error ? err : new Error(`HTTP ${status} on ${req.method} ${route}`), {
        route,
        method: req.method,
        status,
        requestId: req.id,
        chainId: chainIdFromPath(route, req.path),
      });
    },
    start() {
      tracker.captureUnhandled();
    },
    async stop() {
      ctx.errorTracker.use(undefined);
      await tracker.close(2000);
    },
  };
};
