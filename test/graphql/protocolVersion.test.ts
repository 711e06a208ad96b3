import { graphqlFeature } from '../../src/graphql/feature';
import { startTestServer, type TestServer } from '../helpers/testServer';

/** Every pool says which protocol's Vault holds it, on /pools and in GraphQL, where it filters. */
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const ID = `0x${'a1'.repeat(20)}000200000000000000000001`;

const subgraphPool = {
  id: ID,
  address: `0x${'a1'.repeat(20)}`,
  poolType: 'Weighted',
  swapFee: '0.003',
  totalShares: '1000',
  tokens: [
    { address: WETH, symbol: 'WETH', decimals: 18, balance: '10', weight: '0.5', priceRate: '1' },
    { address: USDC, symbol: 'USDC', decimals: 6, balance: '30000', weight: '0.5', priceRate: '1' },
  ],
};

let srv: TestServer;
beforeAll(async () => {
  srv = await startTestServer({}, { features: [graphqlFeature], seed: [{ chainId: 1, pools: [subgraphPool] }] });
});
afterAll(async () => {
  await srv.close();
});

async function idsWhere(protocolVersion: number): Promise<unknown> {
  const res = await fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `{ pools(chainId: 1, where: { protocolVersion: { eq: ${protocolVersion} } }) { pools { id protocolVersion } } }`,
    }),
  });
  return ((await res.json()) as { data: { pools: { pools: unknown[] } } }).data.pools.pools;
}

test('a pool of the V2 subgraph is a V2 pool on /pools and /pools/{id}', async () => {
  const listed = (await (await fetch(`${srv.url}/pools/1`)).json()) as { id: string; protocolVersion: number }[];
  expect(listed.map((p) => [p.id, p.protocolVersion])).toEqual([[ID, 2]]);
  expect(await (await fetch(`${srv.url}/pools/1/${ID}`)).json()).toMatchObject({ protocolVersion: 2 });
});

test('GraphQL shows it and filters on it', async () => {
  expect(await idsWhere(2)).toEqual([{ id: ID, protocolVersion: 2 }]);
  expect(await idsWhere(3)).toEqual([]);
});
