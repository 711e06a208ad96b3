import { AbiCoder, id as eventTopic } from 'ethers';
import { CHAINS } from '../../../src/config/chains';
import { registerPoolType } from '../../../src/domain/poolTypes/registry';
import { headFollowFeature } from '../../../src/jobs/triggers/headFollowFeature';
import { routingFeature } from '../../../src/routing/routingFeature';
import { graphqlFeature } from '../../../src/graphql/feature';
import { FakeChainRpc } from '../../fakes/chainRpcServer';
import { FIXED_RATE_SET, GET_FIXED_RATE } from '../../fixtures/poolTypes/fixedRate/fixedRateReads';
import { FIXED_RATE } from '../../fixtures/poolTypes/fixedRate/fixedRateDef';
import { startTestServer, type TestServer } from '../../helpers/testServer';

/**
 * A pool type brings its own chain reads through its folder and one registry line: the fixture
 * type's getter (`getFixedRate()`, a rate that accrues per second) is read at the head by the
 * follower on a local node, its time-dependent rate is evaluated at each new head without a read,
 * its own event makes the follower read it again, and the result is stored, routed by /sor and
 * served by /pools and GraphQL. Nothing under src/ names the type.
 */

const VAULT = CHAINS.find((c) => c.id === 1)!.vault;
const BLOCK_SECONDS = BigInt(CHAINS.find((c) => c.id === 1)!.blockSeconds ?? 1);
const X = '0x00000000000000000000000000000000000000a1'; // 18 decimals
const Y = '0x00000000000000000000000000000000000000b2'; // 6 decimals
const POOL_ADDRESS = '0x00000000000000000000000000000000000f1ed0';
const POOL_ID = `${POOL_ADDRESS}000200000000000000000001`;
const E18 = 10n ** 18n;

const subgraphPool = {
  id: POOL_ID,
  address: POOL_ADDRESS,
  poolType: 'FixedRate',
  poolTypeVersion: 1,
  swapFee: '0.001',
  totalShares: '1000',
  tokens: [
    { address: X, symbol: 'X', decimals: 18, balance: '1000', weight: null, priceRate: '1' },
    { address: Y, symbol: 'Y', decimals: 6, balance: '2500', weight: null, priceRate: '1' },
  ],
  // The subgraph's (stale) rate: the chain's replaces it.
  fixedRate: '2',
};

let node: FakeChainRpc;
let srv: TestServer;
/** What the pool's `getFixedRate()` answers: base rate, gain per second, since (unix seconds). */
let answer: [bigint, bigint, bigint];
const selector = eventTopic(`${GET_FIXED_RATE.name}()`).slice(0, 10);

beforeAll(async () => {
  registerPoolType(FIXED_RATE);
  node = await FakeChainRpc.start(VAULT, [
    {
      id: POOL_ID,
      address: POOL_ADDRESS,
      tokens: [X, Y],
      balances: [2_000n * E18, 5_000n * 10n ** 6n],
      swapFee: E18 / 1000n,
    },
  ]);
  answer = [(5n * E18) / 2n, 10n ** 12n, BigInt(node.head.timestamp)];
  node.contractCall = (c) =>
    c.to === POOL_ADDRESS && c.data === selector
      ? AbiCoder.defaultAbiCoder().encode(['uint256', 'uint256', 'uint256'], answer)
      : undefined;
  srv = await startTestServer(
    // No slow re-read of pools nothing named: the test counts the pool's reads.
    { RPC_URL_1: node.url, FOLLOW_INTERVAL_MS: '50', FOLLOW_RECHECK_CALLS_PER_SECOND: '0', ROUTER_WORKERS: '0' },
    {
      features: [headFollowFeature, routingFeature, graphqlFeature],
      background: true,
      seed: [{ chainId: 1, pools: [subgraphPool] }],
    },
  );
});

afterAll(async () => {
  await srv?.close();
  await node?.close();
});

const served = async () =>
  (await (await fetch(`${srv.url}/pools/1/${POOL_ID}`)).json()) as {
    fixedRate?: string;
    tokens: { balance: string }[];
  };

async function until(what: string, ok: (p: Awaited<ReturnType<typeof served>>) => boolean): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (ok(await served())) return;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await served())}`);
}

/** The rate a swap in the block after `block` uses: 2.5 plus 0.000001 per second since the first block. */
const rateAfter = (blocks: bigint) => `2.5000${((blocks + 1n) * BLOCK_SECONDS).toString().padStart(2, '0')}`;

test('read at the head: the chain’s balances and its own getter’s rate, at the time of the next block', async () => {
  await until('the first read', (p) => p.fixedRate === rateAfter(0n));
  expect((await served()).tokens.map((t) => t.balance)).toEqual(['2000', '5000']);
});

test('the rate moves with time at each new head, with no read of the pool', async () => {
  const calls = () => node.ethCalls.filter((c) => c.to === POOL_ADDRESS && c.selector === selector).length;
  const before = calls();
  node.mine([]);
  await until('the next head', (p) => p.fixedRate === rateAfter(1n));
  expect(calls()).toBe(before);
});

test('its own event reads it again; the new rate is routed and served by GraphQL', async () => {
  answer = [3n * E18, 0n, BigInt(node.head.timestamp)];
  node.mine([], [{ address: POOL_ADDRESS, topic: eventTopic(FIXED_RATE_SET.signature) }]);
  await until('the re-read', (p) => p.fixedRate === '3');

  const sor = await fetch(`${srv.url}/sor/1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      sellToken: X,
      buyToken: Y,
      orderKind: 'sell',
      amount: (10n * E18).toString(),
      gasPrice: '0',
    }),
  });
  // 10 X less the 0.1% fee, at 3 Y per X: 29.97 Y (6 decimals), exact.
  expect(((await sor.json()) as { returnAmount: string }).returnAmount).toBe('29970000');

  const gql = await fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: `{ pools(chainId: 1, where: { poolType: { in: ["FixedRate"] } }) { pools { id tokens { balance } } } }`,
    }),
  });
  expect(((await gql.json()) as { data: unknown }).data).toEqual({
    pools: { pools: [{ id: POOL_ID, tokens: [{ balance: '2000' }, { balance: '5000' }] }] },
  });
});
