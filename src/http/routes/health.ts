import { Router } from 'express';
import type { AppContext } from '../../appContext';

/** `/healthz`: the process answers. `/readyz`: the store answers and every chain is loaded. */
export function healthRouter(ctx: AppContext): Router {
  const r = Router();
  r.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  r.get('/readyz', async (_req, res) => {
    const loaded = ctx.readModel.isLoaded();
    let storeOk = true;
    let storeError: string | undefined;
    try {
      await Promise.race([
        ctx.store.ping(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('store ping timed out after 2 s')), 2000).unref()),
      ]);
    } catch (e) {
      storeOk = false;
      storeError = (e as Error).message;
    }
    const chains = ctx.config.chains.map((c) => {
      const s = ctx.readModel.get(c.id);
      return { chainId: c.id, loaded: !!s, poolsVersion: s?.poolsVersion ?? null, pools: s?.pools.length ?? 0 };
    });
    const ready = loaded && storeOk;
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not ready',
      store: storeOk ? 'ok' : storeError,
      chains,
      ...(ready
        ? {}
        : { error: !storeOk ? `store unreachable: ${storeError}` : 'read model still loading', code: 503 }),
    });
  });
  return r;
}
