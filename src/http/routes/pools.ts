import { Router } from 'express';
import type { AppContext } from '../../appContext';
import { toPoolView } from '../../domain/poolView';
import { resolveChainParam } from '../chainParam';
import { HttpError } from '../errors';
import { sendPrepared } from '../sendPrepared';
import { loadedSnapshot } from '../snapshot';

/** GET /pools/{chainId} and GET /pools/{chainId}/{id}, served from the read model. */
export function poolsRouter(ctx: AppContext): Router {
  const r = Router();
  r.get('/pools/:chainId', (req, res) =>
    sendPrepared(req, res, loadedSnapshot(ctx, resolveChainParam(req.params.chainId, ctx.config)).poolsBody),
  );
  r.get('/pools/:chainId/:id', (req, res) => {
    const snap = loadedSnapshot(ctx, resolveChainParam(req.params.chainId, ctx.config));
    const id = req.params.id.toLowerCase();
    const pool = snap.poolsById.get(id);
    if (!pool) throw new HttpError(404, `pool ${req.params.id} not found on chain ${snap.chainId}`);
    res.json(toPoolView(pool, snap.chainId));
  });
  return r;
}
