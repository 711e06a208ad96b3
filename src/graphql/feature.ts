import { Router } from 'express';
import type { AppContext } from '../appContext';
import type { Feature } from '../http/feature';
import { HttpError } from '../http/errors';
import type { ChainSnapshot } from '../readModel/chainSnapshot';
import { GraphiqlPage, wantsGraphiql } from './graphiqlPage';
import { DEFAULT_SORT_FIELD } from './poolFields';
import { poolIndexFor } from './poolIndex';
import { checkGraphqlParams } from './requestParams';
import { createGraphqlServer, DEFAULT_LIMITS, GRAPHQL_PATH, type GraphqlLimits } from './yogaServer';

/** The fields the old front end filtered on (tokens, pool types, dust, excluded ids). */
const FRONT_END_FILTER_FIELDS = ['tokensList', 'poolType', 'totalShares', 'id'] as const;
/** At most one pool index prepared ahead per chain this often. */
const WARM_INTERVAL_MS = 1_000;

function exampleQuery(chainId: number): string {
  return `# Pools of chain ${chainId} by liquidity; pass nextToken back to page on.
query TopPools {
  pools(chainId: ${chainId}, first: 10, orderBy: "totalLiquidity", orderDirection: "desc") {
    pools {
      id
      poolType
      totalLiquidity
      tokens { symbol balance }
    }
    nextToken
  }
}
`;
}

/** GraphQL at /graphql: GET and POST for API clients, GraphiQL for browsers. */
export function graphqlFeature(ctx: AppContext, limits: GraphqlLimits = DEFAULT_LIMITS): Feature {
  const yoga = createGraphqlServer(ctx, limits);
  const page = new GraphiqlPage({
    title: 'Balancer pools GraphQL',
    endpoint: GRAPHQL_PATH,
    defaultQuery: exampleQuery(ctx.config.chains[0]?.id ?? 1),
  });
  // Prepare snapshots for the old front end's query, so requests rarely wait for it: each chain's
  // at start, then, as a followed chain publishes a snapshot per block (four a second on Arbitrum)
  // and an index over 11,000 pools costs tens of ms of the event loop, the latest one
  // WARM_INTERVAL_MS after a change, at most one per chain and interval.
  const warm = (snap: ChainSnapshot) =>
    poolIndexFor(ctx.state, snap.chainId, snap.pools).prepare(DEFAULT_SORT_FIELD, 'desc', FRONT_END_FILTER_FIELDS);
  for (const chain of ctx.config.chains) {
    const snap = ctx.readModel.get(chain.id);
    if (snap) warm(snap);
  }
  const pending = new Map<number, NodeJS.Timeout>();
  const stopListening = ctx.readModel.onReload((next, previous) => {
    if (previous && next.pools === previous.pools) return;
    if (pending.has(next.chainId)) return;
    const timer = setTimeout(() => {
      pending.delete(next.chainId);
      const latest = ctx.readModel.get(next.chainId);
      if (latest) warm(latest);
    }, WARM_INTERVAL_MS);
    timer.unref();
    pending.set(next.chainId, timer);
  });
  const stopWarming = () => {
    stopListening();
    for (const t of pending.values()) clearTimeout(t);
    pending.clear();
  };
  const router = Router();
  router.all(GRAPHQL_PATH, (req, res) => {
    if (wantsGraphiql(req)) return page.send(req, res);
    if (req.method === 'POST' && req.body === undefined) {
      // express.json() only leaves the body unread when it is not JSON.
      throw new HttpError(
        415,
        `POST ${GRAPHQL_PATH} takes a JSON body {"query": "...", "variables": {...}} with Content-Type: application/json`,
      );
    }
    checkGraphqlParams(req);
    // express.json() has already read the stream; hand Yoga the text it would have read.
    if (req.body !== undefined) req.body = JSON.stringify(req.body);
    return yoga(req, res);
  });
  return { name: 'graphql', routers: [router], stop: () => void stopWarming() };
}
