import { Router } from 'express';
import type { AppContext } from '../appContext';
import type { Feature } from '../http/feature';
import { resolveChainParam } from '../http/chainParam';
import { every, Timer } from '../jobs/timers';
import { updatePools } from '../jobs/updatePools';

/**
 * `POST /pools/{chainId}/update` runs the pool-update job and answers 201 with an empty body once
 * the store and read model hold the result; when a run is already in flight it waits for that run
 * and answers its result (within UPDATE_POOLS_DEADLINE_SECONDS). In embedded mode (`JOB_RUNNER=timers`) the job also
 * runs for every enabled chain every `UPDATE_POOLS_INTERVAL_IN_MINUTES` (0 disables), starting at
 * once so a fresh local service fills itself.
 */
export function poolUpdateRouter(ctx: AppContext): Router {
  const r = Router();
  r.post('/pools/:chainId/update', async (req, res) => {
    const chain = resolveChainParam(req.params.chainId, ctx.config);
    await updatePools(ctx, chain.id, { waitForRunning: true });
    res.status(201).end();
  });
  return r;
}

export function poolUpdateFeature(ctx: AppContext): Feature {
  const timers: Timer[] = [];
  return {
    name: 'pool-update',
    routers: [poolUpdateRouter(ctx)],
    start() {
      if (ctx.config.jobRunner !== 'timers') return;
      const intervalMs = ctx.config.updatePoolsIntervalMinutes * 60_000;
      for (const chain of ctx.config.chains) {
        timers.push(every(`update-pools:${chain.id}`, intervalMs, () => updatePools(ctx, chain.id), ctx.logger, true));
      }
    },
    async stop() {
      await Promise.all(timers.splice(0).map((t) => t.stop()));
    },
  };
}
