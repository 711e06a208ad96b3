import type { AppContext } from '../appContext';
import type { ChainInfo } from '../config/chains';
import type { ChainSnapshot } from '../readModel/chainSnapshot';
import { HttpError } from './errors';
import { REASONS } from './errorReasons';

/**
 * The read model's snapshot of a chain already resolved from the path (`resolveChainParam`), or a
 * 503 while it is still loading. Takes the parsed chain so no route parses the chain id twice.
 */
export function loadedSnapshot(ctx: AppContext, chain: ChainInfo): ChainSnapshot {
  const snap = ctx.readModel.get(chain.id);
  if (!snap)
    throw new HttpError(
      503,
      `pools of chain ${chain.id} are still loading; retry in a few seconds`,
      {
        'Retry-After': '5',
      },
      { reason: REASONS.LOADING },
    );
  return snap;
}
