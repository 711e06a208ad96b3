import { Router } from 'express';
import type { AppContext } from '../appContext';
import type { Feature } from '../features';
import { decoratePools } from './decoratePools';
import { JobAlreadyRunning } from './exclusive';
import { every, Timer } from './timers';
import { updatePrices } from './updatePrices';

/**
 * `POST /tokens/update/` (with or without the trailing slash, as the old API accepted) runs the
 * price job for all chains and answers 201 with an empty body once the prices are stored; a second
 * call while one runs gets 500 with a JSON error. In embedded mode (`JOB_RUNNER=timers`) prices
 * refresh every `PRICE_INTERVAL_SECONDS` (30) and every chain is decorated every
 * `DECORATE_POOLS_INTERVAL_IN_MINUTES` (5); 0 disables either.
 */
export function tokenUpdateRouter(ctx: AppContext): Router {
  const r = Router({ strict: true });
  r.post(['/tokens/update', '/tokens/update/'], async (_req, res) => {
    await updatePrices(ctx);
    res.status(201).end();
  });
  return r;
}

/** A timer tick that finds the job running elsewhere (a POST, another instance) is not a failure. */
function quietWhenBusy(run: () => Promise<unknown>): () => Promise<unknown> {
  return () =>
    run().catch((e: unknown) => {
      if (!(e instanceof JobAlreadyRunning)) throw e;
    });
}

export function priceAndDecorationFeature(ctx: AppContext): Feature {
  const timers: Timer[] = [];
  return {
    name: 'prices-and-decoration',
    routers: [tokenUpdateRouter(ctx)],
    start() {
      if (ctx.config.jobRunner !== 'timers') return;
      timers.push(every('update-prices', ctx.config.prices.intervalSeconds * 1000, quietWhenBusy(() => updatePrices(ctx)), ctx.logger, true));
      const decorateMs = ctx.config.decoratePoolsIntervalMinutes * 60_000;
      for (const chain of ctx.config.chains) {
        timers.push(every(`decorate-pools:${chain.id}`, decorateMs, quietWhenBusy(() => decoratePools(ctx, chain.id)), ctx.logger));
      }
    },
    async stop() {
      await Promise.all(timers.splice(0).map((t) => t.stop()));
    },
  };
}
