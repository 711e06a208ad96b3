import { Router } from 'express';
import type { AppContext } from '../../appContext';
import { toPoolView } from '../../domain/poolView';
import { resolveChainParam } from '../chainParam';
import { HttpError } from '../errors';
import { sendPrepared } from '../sendPrepared';
import type { ChainSnapshot } from '../../readModel/chainSnapshot';

export function snapshotFor(ctx: AppContext, rawChainId: string | undefined): ChainSnapshot {
  const chain = resolveChainParam(rawChainId, ctx.config);
  const snap = ctx.readModel.get(chain.id);
  if (!snap) throw new HttpError(503, `pools of chain ${chain.id} are still loading; retry in a few seconds`, { 'Retry-After': '5' });
  return snap;
}

/** GET /pools/{chainId} and GET /pools/{chainId}/{id}, served from the read model. */
export function poolsRouter(ctx: AppContext): Router {
  const r = Router();
  r.get('/pools/:chainId', (req, res) => sendPrepared(req, res, snapshotFor(ctx, req.params.chainId).poolsBody));
  r.get('/pools/:chainId/:id', (req, res) => {
    const snap = snapshotFor(ctx, req.params.chainId);
    const id = req.params.id.toLowerCase();
    const pool = snap.poolsById.get(id);
    if (!pool) throw new HttpError(404, `pool ${req.params.id} not found on chain ${snap.chainId}`);
    res.json(toPoolView(pool, snap.chainId));
  });
  return r;
}
