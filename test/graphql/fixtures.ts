import Big from 'big.js';
import { loadSnapshotPools } from '../helpers/snapshot';

/** The snapshot's subgraph-shaped pools, as the tests read them (independently of our code). */
export interface RawToken {
  address: string;
  balance: string;
}
export interface RawPool {
  id: string;
  address: string;
  poolType: string;
  swapFee: string;
  totalShares: string;
  tokensList: string[];
  tokens: RawToken[];
  totalLiquidity?: string;
  [k: string]: unknown;
}

/**
 * The snapshot predates liquidity figures, so each pool gets a deterministic stand-in for the
 * subgraph's `totalLiquidity`: the integer part of the sum of its token balances. Many small pools
 * share a value, which exercises the tie-break.
 */
export function testLiquidity(pool: RawPool): string {
  return pool.tokens
    .reduce((sum, t) => sum.plus(new Big(t.balance)), new Big(0))
    .round(0, Big.roundDown)
    .toFixed(0);
}

export function snapshotWithLiquidity(): RawPool[] {
  return (loadSnapshotPools() as RawPool[]).map((p) => ({ ...p, totalLiquidity: testLiquidity(p) }));
}

/**
 * The documented order of `pools`: by key in the asked direction, ties by pool id in the same
 * direction; pools without a key last, by id ascending.
 */
export function expectedOrder<T extends { id: string }>(
  pools: readonly T[],
  key: (p: T) => string | null | undefined,
  direction: 'asc' | 'desc',
): string[] {
  const sign = direction === 'asc' ? 1 : -1;
  const withKey = pools.filter((p) => key(p) != null);
  const without = pools.filter((p) => key(p) == null);
  withKey.sort((a, b) => {
    const c = new Big(key(a) as string).cmp(new Big(key(b) as string));
    return sign * (c !== 0 ? c : a.id.toLowerCase() < b.id.toLowerCase() ? -1 : 1);
  });
  without.sort((a, b) => (a.id.toLowerCase() < b.id.toLowerCase() ? -1 : 1));
  return [...withKey, ...without].map((p) => p.id.toLowerCase());
}

export interface GqlResponse<T = Record<string, unknown>> {
  status: number;
  contentType: string | null;
  data: T | null | undefined;
  errors: { message: string; extensions?: { code?: string } }[] | undefined;
  raw: string;
}

export async function gql<T = Record<string, unknown>>(
  url: string,
  query: string,
  variables?: Record<string, unknown>,
  accept = 'application/json',
): Promise<GqlResponse<T>> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify({ query, variables }),
  });
  const raw = await res.text();
  const body = JSON.parse(raw) as { data?: T | null; errors?: GqlResponse['errors'] };
  return {
    status: res.status,
    contentType: res.headers.get('content-type'),
    data: body.data,
    errors: body.errors,
    raw,
  };
}
