import type { ChainInfo } from '../config/chains';
import { parseAddress } from '../domain/address';
import type { StoredPool, StoredPoolToken } from '../domain/pool';
import type { ChainSnapshot } from '../readModel/chainSnapshot';
import { apiChain } from './apiChain';
import { BadQueryInput } from './badInput';
import { apiPool, apiToken, type ApiPool, type ApiToken, type PoolLookup } from './currentApiPool';
import type { GraphqlContext } from './requestContext';

/**
 * The current Balancer API's pool-state queries the SDK's add, remove and boosted flows read
 * (`poolGetPool`, `tokenGetTokens` for buffers), from the request's pinned snapshot.
 */

interface PoolsIndex {
  readonly byAddress: ReadonlyMap<string, StoredPool>;
  /** Each token some pool holds, as the first pool lists it. */
  readonly tokens: ReadonlyMap<string, StoredPoolToken>;
}

const indexes = new WeakMap<readonly StoredPool[], PoolsIndex>();

function poolsIndex(pools: readonly StoredPool[]): PoolsIndex {
  let index = indexes.get(pools);
  if (!index) {
    const tokens = new Map<string, StoredPoolToken>();
    for (const p of pools) for (const t of p.tokens) if (!tokens.has(t.address)) tokens.set(t.address, t);
    index = { byAddress: new Map(pools.map((p) => [p.address, p])), tokens };
    indexes.set(pools, index);
  }
  return index;
}

export function snapshotLookup(snap: ChainSnapshot): PoolLookup {
  const index = poolsIndex(snap.pools);
  return {
    chainId: snap.chainId,
    poolByAddress: (address) => index.byAddress.get(address),
    token: (address) => snap.tokensByAddress.get(address as never) ?? index.tokens.get(address),
    underlyingOf: (address) => snap.buffers.get(address)?.underlyingToken.toLowerCase(),
    bufferAllowed: (address) => snap.buffers.get(address)?.buffersPaused === false,
  };
}

export function poolGetPool(
  args: { readonly id: string; readonly chain?: string | null; readonly userAddress?: string | null },
  gql: GraphqlContext,
): ApiPool {
  // The pool types carry no per-user fields, so the address is only checked: a typo is an error,
  // not a silently different answer.
  if (args.userAddress !== null && args.userAddress !== undefined) parseAddress(args.userAddress, 'userAddress');
  const id = args.id.toLowerCase();
  if (!/^0x([0-9a-f]{40}|[0-9a-f]{64})$/.test(id))
    throw new BadQueryInput(
      `id: expected a pool id (0x + 64 hex digits for Balancer V2, the pool's address for V3), got ${JSON.stringify(args.id)}`,
    );
  const chains: ChainInfo[] =
    args.chain === null || args.chain === undefined ? [...gql.app.config.chains] : [apiChain(gql.app, args.chain)];
  for (const chain of chains) {
    const snap = gql.snapshot(chain.id);
    const pool = snap.poolsById.get(id);
    if (pool) return apiPool(pool, snapshotLookup(snap));
  }
  throw new BadQueryInput(
    `id: no pool ${id} on chain ${chains.map((c) => c.id).join(', ')} (a pool the subgraph has not listed yet, or one with no balance left)`,
  );
}

const SERVED_TYPES = new Set(['BPT', 'PHANTOM_BPT', 'ERC4626']);

export function tokenGetTokens(
  args: {
    readonly chains: readonly string[];
    readonly where?: {
      readonly tokensIn?: readonly string[] | null;
      readonly typeIn?: readonly string[] | null;
    } | null;
  },
  gql: GraphqlContext,
): ApiToken[] {
  const wanted = args.where?.tokensIn?.map((t, k) => parseAddress(t, `where.tokensIn[${k}]`));
  const types = args.where?.typeIn ?? undefined;
  const unserved = types?.find((t) => !SERVED_TYPES.has(t));
  if (unserved)
    throw new BadQueryInput(
      `where.typeIn: ${unserved} is not served here (the service keeps no token lists); use BPT, PHANTOM_BPT or ERC4626, or leave typeIn out`,
    );
  const out: ApiToken[] = [];
  for (const [k, name] of args.chains.entries()) {
    const snap = gql.snapshot(apiChain(gql.app, name, `chains[${k}]`).id);
    const lookup = snapshotLookup(snap);
    const addresses = wanted ?? [
      ...new Set([
        ...snap.tokens.map((t) => t.address as string),
        ...[...snap.buffers.values()].map((b) => b.underlyingToken),
      ]),
    ];
    for (const address of addresses) {
      if (!lookup.token(address) && !lookup.underlyingOf(address)) continue;
      if (types && !types.some((t) => isOfType(t, address, lookup))) continue;
      out.push(apiToken(lookup, address));
    }
  }
  return out;
}

function isOfType(type: string, address: string, lookup: PoolLookup): boolean {
  if (type === 'ERC4626') return lookup.underlyingOf(address) !== undefined;
  const pool = lookup.poolByAddress(address);
  if (!pool) return false;
  const phantom = pool.tokens.some((t) => t.address === address);
  return type === 'PHANTOM_BPT' ? phantom : true;
}
