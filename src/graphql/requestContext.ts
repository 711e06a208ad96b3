import { GraphQLError } from 'graphql';
import type { AppContext } from '../appContext';
import { resolveChainParam } from '../http/chainParam';
import { HttpError } from '../http/errors';
import { reasonMembers } from '../http/errorReasons';
import type { ChainSnapshot } from '../readModel/chainSnapshot';
import { poolIndexFor, type PoolIndex } from './poolIndex';

/** What every resolver of one GraphQL request sees. */
export interface GraphqlContext {
  readonly app: AppContext;
  /** A header of the HTTP request (lower-case name); null when absent. */
  header(name: string): string | null;
  /** The chain's read model snapshot, the same one for the whole request. */
  snapshot(chainId: number): ChainSnapshot;
  index(chainId: number): PoolIndex;
}

/**
 * Pins each chain's snapshot on first use, so all fields of one response come from one read
 * model version even when a reload lands mid-request.
 */
export function createRequestContext(
  app: AppContext,
  headers: { get(name: string): string | null } = new Headers(),
): GraphqlContext {
  const pinned = new Map<number, ChainSnapshot>();
  const snapshot = (chainId: number): ChainSnapshot => {
    let snap = pinned.get(chainId);
    if (!snap) {
      snap = currentSnapshot(app, chainId);
      pinned.set(chainId, snap);
    }
    return snap;
  };
  return {
    app,
    header: (name) => headers.get(name),
    snapshot,
    index: (chainId) => {
      const snap = snapshot(chainId);
      return poolIndexFor(app.state, snap.chainId, snap.pools);
    },
  };
}

function currentSnapshot(app: AppContext, chainId: number): ChainSnapshot {
  let id: number;
  try {
    id = resolveChainParam(String(chainId), app.config).id;
  } catch (e) {
    if (e instanceof HttpError) {
      throw new GraphQLError(e.message, {
        extensions: {
          code: e.status === 404 ? 'CHAIN_NOT_ENABLED' : 'BAD_USER_INPUT',
          ...reasonMembers(e.status, e.message, e.info),
        },
      });
    }
    throw e;
  }
  const snap = app.readModel.get(id);
  if (!snap)
    throw new GraphQLError(`pools of chain ${id} are still loading; retry in a few seconds`, {
      extensions: { code: 'NOT_READY' },
    });
  return snap;
}
