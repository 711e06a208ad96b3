import type { RequestHandler, Router } from 'express';
import type { AppContext } from '../appContext';
import type { ServerErrorReporter } from './errors';

/**
 * A feature plugs into the service with routers, middleware that runs before all routes, and
 * background work (embedded-mode timers). Each feature lives in its own folder and is listed once
 * in src/features.ts; `startServer` builds, mounts, starts and stops them. The type lives here, not
 * beside the list, so a feature never imports the list that imports it (docs/ARCHITECTURE.md).
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
