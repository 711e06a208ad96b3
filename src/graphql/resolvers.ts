import type { Address } from '../domain/address';
import { GraphQLError } from 'graphql';
import type { StoredPoolToken, StoredToken } from '../domain/pool';
import type { PoolView } from '../domain/poolView';
import { BadQueryInput } from './badInput';
import { encodeCursor } from './pageCursor';
import { countPools, pagePools } from './pagePools';
import { compilePoolFilter, type PoolsWhere } from './poolFilter';
import { parsePagingArgs, type PoolsPagingArgs } from './poolsArgs';
import type { GraphqlContext } from './requestContext';
import { answering } from './apiErrors';
import { apiPoolMinimal } from './currentApiPool';
import { poolGetPool, tokenGetTokens } from './currentApiQueries';
import { sorGetSwapPaths, type SorGetSwapPathsArgs } from './sorGetSwapPaths';

/** A pool's token as the schema shows it; knows its chain so `token` can be looked up. */
interface PoolTokenView extends StoredPoolToken {
  readonly id: string;
  readonly chainId: number;
}

type TokenView = StoredToken & { readonly chainId: number };

interface PoolsArgs extends PoolsPagingArgs {
  readonly chainId: number;
  readonly where?: PoolsWhere | null;
}

/** Runs `fn`, turning a BadQueryInput into a GraphQL error the client can act on. */
function userInput<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof BadQueryInput) throw new GraphQLError(e.message, { extensions: { code: 'BAD_USER_INPUT' } });
    throw e;
  }
}

function tokenView(
  chainId: number,
  address: Address,
  stored: StoredToken | undefined,
  fallback?: StoredPoolToken,
): TokenView {
  return stored
    ? { ...stored, chainId }
    : {
        chainId,
        address,
        symbol: fallback?.symbol ?? null,
        name: fallback?.name ?? null,
        decimals: fallback?.decimals ?? 18,
        price: null,
        priceUsd: null,
        lastUpdate: null,
        noPriceData: true,
      };
}

/**
 * Resolvers read only the request's pinned read-model snapshot (see requestContext.ts); fields
 * not listed here are read straight off the pool view.
 */
export const resolvers = {
  Query: {
    pools: (_: unknown, args: PoolsArgs, ctx: GraphqlContext) => {
      const index = ctx.index(args.chainId);
      return userInput(() => {
        const request = parsePagingArgs(args);
        const page = pagePools(index, compilePoolFilter(args.where, index), request);
        return {
          pools: page.pools,
          nextToken: page.next
            ? encodeCursor({ sortField: request.sortField, direction: request.direction, after: page.next })
            : null,
        };
      });
    },
    poolsCount: (_: unknown, args: { chainId: number; where?: PoolsWhere | null }, ctx: GraphqlContext) => {
      const index = ctx.index(args.chainId);
      return userInput(() => countPools(index, compilePoolFilter(args.where, index)));
    },
    pool: (_: unknown, args: { chainId: number; id: string }, ctx: GraphqlContext) =>
      ctx.index(args.chainId).poolById(args.id) ?? null,
    tokens: (_: unknown, args: { chainId: number }, ctx: GraphqlContext) => {
      const snap = ctx.snapshot(args.chainId);
      return snap.tokens.map((t) => tokenView(snap.chainId, t.address, t));
    },
    // The current Balancer API's queries (currentApiSdl.ts).
    sorGetSwapPaths: (_: unknown, args: SorGetSwapPathsArgs, ctx: GraphqlContext) =>
      answering(async () => {
        const { chainId, answer } = await sorGetSwapPaths(args, ctx);
        // Each hop knows its chain, so its deprecated `pool` can be looked up.
        const routes = answer.routes.map((r) => ({ ...r, hops: r.hops.map((h) => ({ ...h, chainId })) }));
        return { ...answer, routes };
      }),
    poolGetPool: (_: unknown, args: Parameters<typeof poolGetPool>[0], ctx: GraphqlContext) =>
      answering(() => poolGetPool(args, ctx)),
    tokenGetTokens: (_: unknown, args: Parameters<typeof tokenGetTokens>[0], ctx: GraphqlContext) =>
      answering(() => tokenGetTokens(args, ctx)),
  },
  GqlPoolBase: {
    __resolveType: (pool: { __typename: string }) => pool.__typename,
  },
  GqlSorSwapRouteHop: {
    pool: (hop: { poolId: string; chainId: number }, _: unknown, ctx: GraphqlContext) => {
      const pool = ctx.snapshot(hop.chainId).poolsById.get(hop.poolId);
      return pool ? apiPoolMinimal(pool, hop.chainId) : null;
    },
  },
  Pool: {
    tokens: (pool: PoolView): PoolTokenView[] =>
      pool.tokens.map((t) => ({ ...t, id: `${pool.id}-${t.address}`, chainId: pool.chainId })),
    priceRateProviders: (pool: PoolView) =>
      pool.priceRateProviders.map((p) => ({ address: p.address, token: { address: p.token } })),
  },
  PoolToken: {
    symbol: (t: PoolTokenView, _: unknown, ctx: GraphqlContext) =>
      t.symbol ?? ctx.snapshot(t.chainId).tokensByAddress.get(t.address)?.symbol ?? null,
    name: (t: PoolTokenView, _: unknown, ctx: GraphqlContext) =>
      t.name ?? ctx.snapshot(t.chainId).tokensByAddress.get(t.address)?.name ?? null,
    token: (t: PoolTokenView, _: unknown, ctx: GraphqlContext) =>
      tokenView(t.chainId, t.address, ctx.snapshot(t.chainId).tokensByAddress.get(t.address), t),
  },
  Token: {
    latestUSDPrice: (t: TokenView) => t.priceUsd,
    pool: (t: TokenView, _: unknown, ctx: GraphqlContext) => ctx.index(t.chainId).poolByAddress(t.address) ?? null,
  },
};
