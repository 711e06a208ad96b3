import { registerPoolType } from '../../../src/domain/poolTypes/registry';
import { FakeSubgraph } from '../../fakes/subgraphServer';
import { FIXED_RATE } from '../../fixtures/poolTypes/fixedRate/fixedRateDef';
import { startTestServer, type TestServer } from '../../helpers/testServer';

/**
 * A pool type plugs in at one place: the fixture folder test/fixtures/poolTypes/fixedRate/ (its
 * parameter list, its model, its definition) and one registry line. The pool comes from the
 * subgraph (the local fake, which validates the query against the schema built from the
 * registry), is stored with its own parameter, routed by /sor and served by /pools and GraphQL.
 */

const X = '0x00000000000000000000000000000000000000a1'; // 18 decimals
const Y = '0x00000000000000000000000000000000000000b2'; // 6 decimals
const POOL_ADDRESS = '0x00000000000000000000000000000000000f1ed0';
const POOL_ID = `${POOL_ADDRESS}000200000000000000000001`;

const FIXED_RATE_POOL = {
  id: POOL_ID,
  address: POOL_ADDRESS,
  poolType: 'FixedRate',
  poolTypeVersion: 1,
  factory: null,
  owner: null,
  symbol: 'FIXED-XY',
  name: 'Fixed rate X/Y',
  swapFee: '0.001',
  swapEnabled: true,
  isPaused: false,
  isInRecoveryMode: false,
  amp: null,
  totalShares: '1000',
  totalWeight: '0',
  totalSwapVolume: '0',
  totalSwapFee: '0',
  totalLiquidity: '5000',
  createTime: 1_700_000_000,
  swapsCount: '0',
  holdersCount: '1',
  tokensList: [X, Y],
  tokens: [
    {
      id: `${POOL_ID}-${X}`,
      address: X,
      symbol: 'X',
      name: 'X',
      decimals: 18,
      balance: '1000',
      weight: null,
      priceRate: '1',
    },
    {
      id: `${POOL_ID}-${Y}`,
      address: Y,
      symbol: 'Y',
      name: 'Y',
      decimals: 6,
      balance: '2500',
      weight: null,
      priceRate: '1',
    },
  ],
  priceRateProviders: [],
  fixedRate: '2.5',
};

const SELL_10_X = {
  sellToken: X,
  buyToken: Y,
  orderKind: 'sell',
  amount: (10n * 10n ** 18n).toString(),
  gasPrice: '0',
};

async function indexed(subgraph: FakeSubgraph): Promise<TestServer> {
  const server = await startTestServer({ SUBGRAPH_URL_1: subgraph.url, ROUTER_WORKERS: '0' });
  const update = await fetch(`${server.url}/pools/1/update`, { method: 'POST' });
  expect(update.status).toBe(201);
  return server;
}

async function sor(server: TestServer): Promise<{ returnAmount: string; swaps: { poolId: string }[] }> {
  const res = await fetch(`${server.url}/sor/1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(SELL_10_X),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { returnAmount: string; swaps: { poolId: string }[] };
}

async function graphql(
  server: TestServer,
  query: string,
): Promise<{ data?: { pools: { pools: unknown[] } }; errors?: unknown }> {
  const res = await fetch(`${server.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query }),
  });
  return (await res.json()) as { data?: { pools: { pools: unknown[] } }; errors?: unknown };
}

describe('a pool type added from a fixture folder and one registry line', () => {
  let subgraph: FakeSubgraph;
  beforeAll(async () => {
    subgraph = await FakeSubgraph.start([FIXED_RATE_POOL]);
  });
  afterAll(async () => {
    await subgraph.close();
  });

  test('before it is registered, its pools are stored without its parameter and not routed', async () => {
    const server = await indexed(subgraph);
    try {
      const pool = (await (await fetch(`${server.url}/pools/1/${POOL_ID}`)).json()) as Record<string, unknown>;
      expect(pool.poolType).toBe('FixedRate');
      expect(pool).not.toHaveProperty('fixedRate');
      expect((await sor(server)).returnAmount).toBe('0');
      const gql = await graphql(
        server,
        `
          {
            pools(chainId: 1) {
              pools {
                id
                fixedRate
              }
            }
          }
        `,
      );
      expect(JSON.stringify(gql.errors)).toContain('Cannot query field \\"fixedRate\\" on type \\"Pool\\"');
    } finally {
      await server.close();
    }
  });

  test('once registered, it is stored with its parameter, routed by /sor, and served by /pools and GraphQL', async () => {
    registerPoolType(FIXED_RATE);
    const server = await indexed(subgraph);
    try {
      const listed = (await (await fetch(`${server.url}/pools/1`)).json()) as Record<string, unknown>[];
      expect(listed.find((p) => p.id === POOL_ID)).toMatchObject({ poolType: 'FixedRate', fixedRate: '2.5' });

      // 10 X less the 0.1% fee, at 2.5 Y per X: 24.975 Y (6 decimals), exact.
      const quote = await sor(server);
      expect(quote.returnAmount).toBe('24975000');
      expect(quote.swaps.map((s) => s.poolId)).toEqual([POOL_ID]);

      // Its parameter is a Pool field GraphQL filters and sorts by, as its params declare.
      const body = await graphql(
        server,
        `
          {
            pools(chainId: 1, where: { fixedRate: { gt: 2 } }, orderBy: "fixedRate") {
              pools {
                id
                poolType
                fixedRate
                tokens {
                  address
                  balance
                }
              }
            }
          }
        `,
      );
      expect(body.errors).toBeUndefined();
      expect(body.data?.pools.pools).toEqual([
        {
          id: POOL_ID,
          poolType: 'FixedRate',
          fixedRate: '2.5',
          tokens: [
            { address: X, balance: '1000' },
            { address: Y, balance: '2500' },
          ],
        },
      ]);
    } finally {
      await server.close();
    }
  });
});
