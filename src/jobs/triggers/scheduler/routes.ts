import { RequestHandler, Router } from 'express';
import type { AppContext } from '../../../appContext';
import { resolveChainParam } from '../../../http/chainParam';
import { HttpError, NotConfigured } from '../../../http/errors';
import { halfMinutePriceTask, PriceTaskSettings } from './priceTask';
import type { TaskQueue } from './taskQueue';

/** The jobs these endpoints run; the same functions (and leases) as the public job endpoints. */
export interface JobRunners {
  updatePools(ctx: AppContext, chainId: number): Promise<unknown>;
  /** `gaugeError`: pools were decorated without fresh gauge data. */
  decoratePools(ctx: AppContext, chainId: number): Promise<{ readonly gaugeError?: string }>;
  updatePrices(ctx: AppContext): Promise<unknown>;
}

export interface PriceTick {
  readonly settings: PriceTaskSettings;
  readonly queue: TaskQueue;
}

/**
 * `/internal/jobs/*` for Cloud Scheduler and Cloud Tasks. Every route answers `201` with an empty
 * body when the job ran (joining a run already in flight); a job still busy at its deadline is
 * `503` with Retry-After and an upstream failure `502` (central mapping), so the caller's retry
 * policy kicks in.
 *
 * `guard` (the caller check) runs only for a job that exists, asked with POST: an unknown job path
 * is a 404 and another method a 405 with `Allow: POST`, both before the guard, so a caller's typo
 * is told apart from a missing configuration (the guard's 503) or a refused token.
 */
export function internalJobsRouter(
  ctx: AppContext,
  jobs: JobRunners,
  priceTick: PriceTick | string,
  guard: RequestHandler,
): Router {
  const r = Router();
  const JOB_PATHS = [
    '/internal/jobs/update-pools/:chainId',
    '/internal/jobs/decorate-pools/:chainId',
    '/internal/jobs/update-prices',
    '/internal/jobs/price-tick',
  ] as const;
  const listed = JOB_PATHS.map((p) => `POST ${p.replace(':chainId', '{chainId}')}`).join(', ');
  for (const path of JOB_PATHS) r.post(path, guard);

  r.post('/internal/jobs/update-pools/:chainId', async (req, res) => {
    const chain = resolveChainParam(req.params.chainId, ctx.config);
    await jobs.updatePools(ctx, chain.id);
    res.status(201).end();
  });

  r.post('/internal/jobs/decorate-pools/:chainId', async (req, res) => {
    const chain = resolveChainParam(req.params.chainId, ctx.config);
    const report = await jobs.decoratePools(ctx, chain.id);
    if (report.gaugeError !== undefined) {
      throw new HttpError(
        502,
        `pools were decorated, but the gauge data failed (${report.gaugeError}); staking and reward APRs keep their last values; retry later`,
      );
    }
    res.status(201).end();
  });

  r.post('/internal/jobs/update-prices', async (_req, res) => {
    await jobs.updatePrices(ctx);
    res.status(201).end();
  });

  r.post('/internal/jobs/price-tick', async (req, res) => {
    if (typeof priceTick === 'string') throw new NotConfigured(priceTick);
    // The half-minute task is timed from the tick's arrival, not from when the update finishes,
    // and is enqueued even if this update fails so the cadence survives one bad run.
    const task = halfMinutePriceTask(ctx.now(), priceTick.settings);
    const [enqueued, updated] = await Promise.allSettled([priceTick.queue.enqueue(task), jobs.updatePrices(ctx)]);
    if (updated.status === 'rejected') throw updated.reason;
    if (enqueued.status === 'rejected') {
      req.log?.error({ err: (enqueued.reason as Error).message, task: task.id }, 'enqueue failed');
      throw new HttpError(
        502,
        `prices were updated but the half-minute task could not be enqueued: ${(enqueued.reason as Error).message}; check the queue and the runtime account's roles`,
      );
    }
    res.status(201).end();
  });

  // Only other methods get here: every POST above answers.
  for (const path of JOB_PATHS) {
    r.all(path, (req) => {
      throw new HttpError(405, `${req.method} ${req.path} is not allowed; internal jobs run with POST`, {
        Allow: 'POST',
      });
    });
  }
  r.use('/internal/jobs', (req) => {
    throw new HttpError(
      404,
      `no internal job at ${req.method} ${req.originalUrl.split('?')[0]}; the jobs are ${listed}`,
    );
  });

  return r;
}
