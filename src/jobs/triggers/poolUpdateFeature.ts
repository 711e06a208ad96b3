import { Router } from 'express';
import type { AppContext } from '../../appContext';
import type { Feature } from '../../http/feature';
import { resolveChainParam } from '../../http/chainParam';
import { stateBehindRefusal } from '../../http/stateRefusal';
import { isFollowed, nodeHead, StateBehindHead, servedStateAt } from '../headGate';
import { every, Timer } from '../timers';
import { updatePools } from '../updatePools';

/**
 * `POST /pools/{chainId}/update` runs the pool-update job and answers 201 with an empty body once
 * the store and read model hold the result; when a run is already in flight it waits for that run
 * and answers its result (within UPDATE_POOLS_DEADLINE_SECONDS). In embedded mode (`JOB_RUNNER=timers`) the job also
 * runs for every enabled chain every `UPDATE_POOLS_INTERVAL_IN_MINUTES` (0 disables), starting at
 * once so a fresh local service fills itself. Where the chain's head is followed, the 201 also
 * waits for the served state to include the head the node reported when the call came (the
 * caller's trade, say), up to FOLLOW_WAIT_MS after the update, else 503 with Retry-After.
 */
export function poolUpdateRouter(ctx: AppContext): Router {
  const r = Router();
  r.post('/pools/:chainId/update', async (req, res) => {
    const chain = resolveChainParam(req.params.chainId, ctx.config);
    // Asked beside the update, so it is the head when the call came, not after the update.
    const head = isFollowed(ctx, chain.id) ? nodeHead(ctx, chain) : undefined;
    head?.catch(() => undefined);
    await updatePools(ctx, chain.id, { waitForRunning: true });
    try {
      if (head) await servedStateAt(ctx, chain, { atNodeHead: false, minBlock: await head });
    } catch (e) {
      if (e instanceof StateBehindHead)
        throw stateBehindRefusal(ctx, chain.id, e, `the pools were updated, but ${e.message}`);
      throw e;
    }
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
