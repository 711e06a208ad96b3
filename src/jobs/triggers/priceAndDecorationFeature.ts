import { Router } from 'express';
import type { AppContext } from '../../appContext';
import type { Feature } from '../../http/feature';
import { decoratePools } from '../decoratePools';
import { every, Timer } from '../timers';
import { updatePrices } from '../updatePrices';

/**
 * `POST /tokens/update/` (with or without the trailing slash, as the old API accepted) runs the
 * price job for all chains and answers 201 with an empty body once the prices are stored; a call
 * while a run is in flight (the timer's, another caller's) waits for it and answers its result. In embedded mode (`JOB_RUNNER=timers`) prices
 * refresh every `PRICE_INTERVAL_SECONDS` (30) and every chain is decorated every
 * `DECORATE_POOLS_INTERVAL_IN_MINUTES` (5); 0 disables either.
 */
export function tokenUpdateRouter(ctx: AppContext): Router {
  const r = Router({ strict: true });
  r.post(['/tokens/update', '/tokens/update/'], async (_req, res) => {
    await updatePrices(ctx, { waitForRunning: true });
    res.status(201).end();
  });
  return r;
}

export function priceAndDecorationFeature(ctx: AppContext): Feature {
  const timers: Timer[] = [];
  return {
    name: 'prices-and-decoration',
    routers: [tokenUpdateRouter(ctx)],
    start() {
      if (ctx.config.jobRunner !== 'timers') return;
      timers.push(
        every('update-prices', ctx.config.prices.intervalSeconds * 1000, () => updatePrices(ctx), ctx.logger, true),
      );
      const decorateMs = ctx.config.decoratePoolsIntervalMinutes * 60_000;
      for (const chain of ctx.config.chains) {
        timers.push(every(`decorate-pools:${chain.id}`, decorateMs, () => decoratePools(ctx, chain.id), ctx.logger));
      }
    },
    async stop() {
      await Promise.all(timers.splice(0).map((t) => t.stop()));
    },
  };
}
