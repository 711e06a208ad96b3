import { CHAINS } from '../../src/config/chains';
import { graphqlFeature } from '../../src/graphql/feature';
import { headFollowFeature } from '../../src/jobs/triggers/headFollowFeature';
import { routingFeature } from '../../src/routing/routingFeature';
import { FakeChainRpc } from '../fakes/chainRpcServer';
import { FakeSubgraph } from '../fakes/subgraphServer';
import { startTestServer, type TestServer } from '../helpers/testServer';

/**
 * CoW's solver sends `X-CURRENT-BLOCK-HASH`, the newest block it has seen: `sorGetSwapPaths`
 * answers at that block or a later one (the follower is nudged to read it), and a hash the node
 * does not know, or a malformed one, is a clear error rather than an answer from before it.
 */
const VAULT = CHAINS.find((c) => c.id === 1)!.vault;
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const A = { id: `0x${'a1'.repeat(20)}000200000000000000000001`, address: `0x${'a1'.repeat(20)}` };

const subgraphPool = {
  id: A.id,
  address: A.address,
  poolType: 'Weighted',
  swapFee: '0.003',
  totalShares: '1000',
  tokens: [
    { address: WETH, symbol: 'WETH', decimals: 18, balance: '90', weight: '0.5', priceRate: '1' },
    { address: USDC, symbol: 'USDC', decimals: 6, balance: '310000', weight: '0.5', priceRate: '1' },
  ],
};

const QUERY = `query($chain: GqlChain!, $swapAmount: AmountHumanReadable!, $swapType: GqlSorSwapType!, $tokenIn: String!, $tokenOut: String!) {
  sorGetSwapPaths(chain: $chain, swapAmount: $swapAmount, swapType: $swapType, tokenIn: $tokenIn, tokenOut: $tokenOut) {
    returnAmountRaw blockNumber
  }
}`;
const VARIABLES = { chain: 'MAINNET', swapAmount: '1', swapType: 'EXACT_IN', tokenIn: WETH, tokenOut: USDC };

let node: FakeChainRpc;
let subgraph: FakeSubgraph;
let srv: TestServer;

beforeAll(async () => {
  node = await FakeChainRpc.start(VAULT, [
    {
      id: A.id,
      address: A.address,
      tokens: [WETH, USDC],
      balances: [100n * 10n ** 18n, 300_000n * 10n ** 6n],
      swapFee: 3_000_000_000_000_000n,
    },
  ]);
  subgraph = await FakeSubgraph.start([subgraphPool]);
  srv = await startTestServer(
    {
      RPC_URL_1: node.url,
      SUBGRAPH_URL_1: subgraph.url,
      // The follower reads again only when nudged: an answer at a new block comes from the header.
      FOLLOW_INTERVAL_MS: '600000',
      FOLLOW_WAIT_MS: '10000',
      ROUTER_WORKERS: '0',
    },
    {
      features: [headFollowFeature, routingFeature, graphqlFeature],
      background: true,
      seed: [{ chainId: 1, pools: [subgraphPool] }],
    },
  );
  const deadline = Date.now() + 30_000;
  while (srv.ctx.readModel.get(1)?.block?.number !== 100 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 30));
});
afterAll(async () => {
  await srv?.close();
  await subgraph?.close();
  await node?.close();
});

const askRaw = (hash?: string) =>
  fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(hash ? { 'X-CURRENT-BLOCK-HASH': hash } : {}) },
    body: JSON.stringify({ query: QUERY, variables: VARIABLES }),
  });

async function ask(hash?: string) {
  const res = await askRaw(hash);
  return (await res.json()) as {
    data?: { sorGetSwapPaths: { returnAmountRaw: string; blockNumber: number } } | null;
    errors?: { message: string }[];
  };
}

test('the block CoW names, or a later one: the follower reads it before the answer', async () => {
  const before = await ask(node.head.hash);
  expect(before.data?.sorGetSwapPaths.blockNumber).toBe(100);
  // A third party's trade in a block the service has not read yet.
  const p = node.pools.get(A.id)!;
  p.balances = [p.balances[0]! + 10n ** 18n, p.balances[1]! - 2_900n * 10n ** 6n];
  const block = node.mine([A.id]);
  const after = await ask(block.hash);
  expect(after.errors).toBeUndefined();
  expect(after.data?.sorGetSwapPaths.blockNumber).toBe(block.number);
  expect(after.data?.sorGetSwapPaths.returnAmountRaw).not.toBe(before.data?.sorGetSwapPaths.returnAmountRaw);
});

test('a hash the node does not know, or not a hash: an error, no answer', async () => {
  const refused = await askRaw(`0x${'77'.repeat(32)}`);
  expect(refused.status).toBe(503);
  expect(refused.headers.get('retry-after')).toBe('1');
  const unknown = (await refused.json()) as Awaited<ReturnType<typeof ask>>;
  expect(unknown.data ?? null).toBeNull();
  expect(unknown.errors?.[0]?.message).toMatch(/^x-current-block-hash: .*knows no block/);
  expect((unknown.errors?.[0] as { extensions?: unknown } | undefined)?.extensions).toMatchObject({
    code: 'SERVICE_UNAVAILABLE',
    reason: 'UNAVAILABLE',
  });
  const malformed = await ask('latest');
  expect(malformed.errors?.[0]?.message).toMatch(/^x-current-block-hash: expected a block hash/);
  expect((malformed.errors?.[0] as { extensions?: unknown } | undefined)?.extensions).toMatchObject({
    reason: 'BAD_FIELD',
    field: 'x-current-block-hash',
  });
});

test('a hash is asked of the node once: later requests and aliases naming it cost no call', async () => {
  const older = node.head;
  node.mine([]);
  await ask(node.head.hash);
  // The served block moved on, so the older hash is not the served one's.
  const asked = () => node.methodCounts.get('eth_getBlockByHash') ?? 0;
  const before = asked();
  await ask(older.hash);
  const once = asked();
  expect(once - before).toBeLessThanOrEqual(1);
  await Promise.all(Array.from({ length: 5 }, () => ask(older.hash)));
  expect(asked()).toBe(once);
});
