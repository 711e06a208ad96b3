import { Router } from 'express';
import type { AppContext } from '../../appContext';
import { sendPrepared } from '../sendPrepared';
import { snapshotFor } from './pools';

/** GET /tokens/{chainId}: every known token of the chain with its latest price. */
export function tokensRouter(ctx: AppContext): Router {
  const r = Router();
  r.get('/tokens/:chainId', (req, res) => sendPrepared(req, res, snapshotFor(ctx, req.params.chainId).tokensBody));
  return r;
}
