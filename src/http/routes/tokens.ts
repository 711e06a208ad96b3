import { Router } from 'express';
import type { AppContext } from '../../appContext';
import { sendPrepared } from '../sendPrepared';
import { resolveChainParam } from '../chainParam';
import { loadedSnapshot } from '../snapshot';

/** GET /tokens/{chainId}: every known token of the chain with its latest price. */
export function tokensRouter(ctx: AppContext): Router {
  const r = Router();
  r.get('/tokens/:chainId', (req, res) =>
    sendPrepared(req, res, loadedSnapshot(ctx, resolveChainParam(req.params.chainId, ctx.config)).tokensBody),
  );
  return r;
}
