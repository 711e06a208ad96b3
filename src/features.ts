import type { RequestHandler, Router } from 'express';
import type { AppContext } from './appContext';
import { errorTrackingFeature } from './errorTracking/feature';
import type { ServerErrorReporter } from './http/errors';
import { armourFeature } from './http/armour/feature';
import { sanctionsFeature } from './sanctions/feature';
import { simulatorFeature } from './simulator/feature';
import { poolUpdateFeature } from './jobs/poolUpdateFeature';
import { priceAndDecorationFeature } from './jobs/priceAndDecorationFeature';
import { createInternalJobsFeature } from './internalJobs/feature';
import { INTERNAL_JOB_RUNNERS } from './internalJobs/jobRunners';
import { routingFeature } from './routing/routingFeature';
import { graphqlFeature } from './graphql/feature';

/**
 * A feature plugs into the service with routers, middleware that runs before all routes, and
 * background work (embedded-mode timers). Each feature lives in its own folder and is listed once
 * in FEATURES below; `startServer` builds, mounts, starts and stops them.
 */
export interface Feature {
  readonly name: string;
  readonly routers?: readonly Router[];
  /** Middleware mounted before every route except health checks (rate limits, auth). */
  readonly before?: readonly RequestHandler[];
  /** Starts background work; only called when the server runs with `background: true`. */
  start?(): void | Promise<void>;
  /** Stops background work and releases resources; always called on close. */
  stop?(): void | Promise<void>;
  /** Called for every 5xx answer (error tracking). */
  readonly reportServerError?: ServerErrorReporter;
}

export type FeatureFactory = (ctx: AppContext) => Feature | Promise<Feature>;

/** Every feature of the service, in mount order. */
export const FEATURES: readonly FeatureFactory[] = [
  // First, so its headers, rate limits and job secret apply before any other feature's middleware.
  armourFeature,
  errorTrackingFeature,
  poolUpdateFeature,
  priceAndDecorationFeature,
  createInternalJobsFeature({ jobs: INTERNAL_JOB_RUNNERS }),
  routingFeature,
  graphqlFeature,
  sanctionsFeature,
  simulatorFeature,
];
