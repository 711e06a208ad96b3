import { CHAINS } from '../../src/config/chains';
import { graphqlFeature } from '../../src/graphql/feature';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { DAI, STATA_USDC, STATA_USDT, USDC, USDT } from '../helpers/v3Universe';
import { v3StoredBuffers, v3StoredPools } from '../helpers/v3StoredUniverse';
import {
  SDK_BOOSTED_POOL_QUERY,
  SDK_BUFFER_QUERY,
  SDK_NESTED_POOL_QUERY,
  SDK_POOL_STATE_QUERY,
  SDK_POOL_WITH_BALANCES_QUERY,
} from './currentApiDocuments';
import { gql } from './fixtures';

/**
 * The current Balancer API's pool-state queries, in the SDK's own documents: a V2 pool, a V2 pool
 * holding a V3 pool's BPT (nested), and the V3 boosted pool over two buffered ERC-4626 tokens.
 */

const SEPOLIA = CHAINS.find((c) => c.id === 11155111)!;
const [WEIGHTED_V3, STABLE_V3] = v3StoredPools();
const V2_POOL = `0x${'c1'.repeat(20)}000200000000000000000001`;
const NESTING = `0x${'c2'.repeat(20)}000200000000000000000002`;

const v2Pool = (id: string, second: { address: string; decimals: number }) => ({
  id,
  address: id.slice(0, 42),
  poolType: 'Weighted',
  swapFee: '0.003',
  totalShares: '1000.5',
  tokens: [
    { address: USDC, symbol: 'USDC', decimals: 6, balance: '50000.25', weight: '0.5', priceRate: '1' },
    { ...second, symbol: 'X', balance: '70000', weight: '0.5', priceRate: '1' },
  ],
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(
    { NETWORKS: String(SEPOLIA.id) },
    {
      seed: [
        {
          chainId: SEPOLIA.id,
          pools: [
            v2Pool(V2_POOL, { address: DAI, decimals: 18 }),
            v2Pool(NESTING, { address: WEIGHTED_V3!.address, decimals: 18 }),
          ],
        },
      ],
      features: [graphqlFeature],
    },
  );
  const pools = v3StoredPools();
  server.ctx.readModel.setChainState(SEPOLIA.id, {
    block: {
      number: 7_439_300,
      hash: `0x${'ab'.repeat(32)}`,
      parentHash: `0x${'aa'.repeat(32)}`,
      timestamp: 1_740_000_000,
    },
    pools: new Map(),
    registered: new Map(pools.map((p) => [p.id, p])),
    buffers: v3StoredBuffers(),
  });
});
afterAll(async () => {
  await server?.close();
});

async function ask(query: string, variables: Record<string, unknown>) {
  const res = await gql<Record<string, unknown>>(server.url, query, variables);
  expect(res.errors).toBeUndefined();
  return res.data!;
}

test('fetchPoolState and its with-balances variant: the V2 pool as stored', async () => {
  const { poolGetPool } = await ask(SDK_POOL_WITH_BALANCES_QUERY, { id: V2_POOL, chain: 'SEPOLIA' });
  expect(poolGetPool).toEqual({
    id: V2_POOL,
    address: V2_POOL.slice(0, 42),
    type: 'WEIGHTED',
    protocolVersion: 2,
    poolTokens: [
      { index: 0, address: USDC, decimals: 6, balance: '50000.25' },
      { index: 1, address: DAI, decimals: 18, balance: '70000' },
    ],
    dynamicData: { totalShares: '1000.5' },
  });
  const plain = await ask(SDK_POOL_STATE_QUERY, { id: STABLE_V3!.id, chain: 'SEPOLIA' });
  expect(plain.poolGetPool).toMatchObject({ id: STABLE_V3!.id, type: 'STABLE', protocolVersion: 3 });
});

test('the boosted variant names each buffered token its underlying; the nested one a BPT its pool', async () => {
  const boosted = (await ask(SDK_BOOSTED_POOL_QUERY, { id: STABLE_V3!.id, chain: 'SEPOLIA' })).poolGetPool as {
    poolTokens: { address: string; underlyingToken: { address: string; decimals: number } | null }[];
  };
  expect(boosted.poolTokens.map((t) => [t.address, t.underlyingToken?.address])).toEqual([
    [STATA_USDC, USDC],
    [STATA_USDT, USDT],
  ]);
  const nested = (await ask(SDK_NESTED_POOL_QUERY, { id: NESTING, chain: 'SEPOLIA' })).poolGetPool as {
    poolTokens: { address: string; nestedPool: { id: string; tokens: { address: string }[] } | null }[];
  };
  expect(nested.poolTokens[0]!.nestedPool).toBeNull();
  expect(nested.poolTokens[1]!.nestedPool).toMatchObject({
    id: WEIGHTED_V3!.id,
    tokens: WEIGHTED_V3!.tokens.map((t) => ({ address: t.address })),
  });
});

test('fetchBufferState: the ERC-4626 token and its underlying', async () => {
  const { tokenGetTokens } = await ask(SDK_BUFFER_QUERY, { wrappedTokenAddress: STATA_USDC, chain: 'SEPOLIA' });
  expect(tokenGetTokens).toEqual([
    { address: STATA_USDC, decimals: expect.any(Number), isErc4626: true, underlyingTokenAddress: USDC },
  ]);
  const plain = await ask(SDK_BUFFER_QUERY, { wrappedTokenAddress: DAI, chain: 'SEPOLIA' });
  expect(plain.tokenGetTokens).toEqual([
    { address: DAI, decimals: 18, isErc4626: false, underlyingTokenAddress: null },
  ]);
});

test('an unknown pool, a malformed id or a chain not served: errors naming the argument', async () => {
  for (const [vars, name] of [
    [{ id: `0x${'d1'.repeat(32)}`, chain: 'SEPOLIA' }, 'id'],
    [{ id: 'pool', chain: 'SEPOLIA' }, 'id'],
    [{ id: V2_POOL, chain: 'MAINNET' }, 'chain'],
  ] as const) {
    const res = await gql(server.url, SDK_POOL_STATE_QUERY, vars);
    expect(res.errors?.[0]?.message).toMatch(new RegExp(`^${name.replace(/[[\]]/g, '\\$&')}: `));
  }
});

test('a malformed userAddress is an error naming it; a well-formed one leaves the answer as it was', async () => {
  const query = `query ($id: String!, $user: String) { poolGetPool(id: $id, chain: SEPOLIA, userAddress: $user) { id } }`;
  const bad = await gql(server.url, query, { id: V2_POOL, user: '0xnope' });
  expect(bad.errors?.[0]?.message).toMatch(/^userAddress: expected a 20-byte hex address/);
  expect(bad.errors?.[0]?.extensions).toMatchObject({ reason: 'BAD_FIELD', field: 'userAddress' });
  const good = await gql(server.url, query, { id: V2_POOL, user: `0x${'ab'.repeat(20)}` });
  expect(good.errors).toBeUndefined();
  expect(good.data).toEqual({ poolGetPool: { id: V2_POOL } });
});
