import { CHAINS } from '../../src/config/chains';
import { decimalToUnits } from '../../src/domain/decimal';
import { headFollowFeature } from '../../src/jobs/triggers/headFollowFeature';
import { poolUpdateFeature } from '../../src/jobs/triggers/poolUpdateFeature';
import { routingFeature } from '../../src/routing/routingFeature';
import { FakeChainPool, FakeChainRpc } from '../fakes/chainRpcServer';
import { FakeSubgraph } from '../fakes/subgraphServer';
import { startTestServer, TestServer } from '../helpers/testServer';

/**
 * Answers at the head the client may have seen: `/order` asks the node its head and waits for
 * the follower to publish it, `minBlockNumber` asks for a block, the pool update's 201 waits for
 * the head it saw, and a state that cannot get there in time is a 503 naming the node. The
 * follower polls rarely here (FOLLOW_INTERVAL_MS=600000 after its first read), so a state at a
 * new block can only come from the nudge of whoever waits for it, or from a newHeads subscription.
 */
const VAULT = CHAINS.find((c) => c.id === 1)!.vault;
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const A = { id: `0x${'a1'.repeat(20)}000200000000000000000001`, address: `0x${'a1'.repeat(20)}` };
const SENDER = `0x${'5e'.repeat(20)}`;
const GET_POOL_TOKENS = '0xf94d4668';

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
const chainPool = (): FakeChainPool => ({
  id: A.id,
  address: A.address,
  tokens: [WETH, USDC],
  balances: [100n * 10n ** 18n, 300_000n * 10n ** 6n],
  swapFee: 3_000_000_000_000_000n,
});

let node: FakeChainRpc;
let subgraph: FakeSubgraph;
let srv: TestServer | undefined;

interface Follow {
  headBlock: number | null;
  stateBlock: number | null;
  heads: 'polling' | 'subscription';
  lagging: string | null;
  failures: number;
}

async function readyz(): Promise<{ status: string; follow: Follow }> {
  const body = (await (await fetch(`${srv!.url}/readyz`)).json()) as { status: string; chains: { follow: Follow }[] };
  return { status: body.status, follow: body.chains[0]!.follow };
}

async function until(what: string, ok: (f: Follow) => boolean): Promise<Follow> {
  // A generous cap: a busy CPU slows the follower, never the outcome.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const { follow } = await readyz();
    if (ok(follow)) return follow;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify((await readyz()).follow)}`);
}

async function start(env: Record<string, string> = {}): Promise<TestServer> {
  srv = await startTestServer(
    {
      RPC_URL_1: node.url,
      SUBGRAPH_URL_1: subgraph.url,
      FOLLOW_INTERVAL_MS: '600000',
      // Long, so a busy CPU never turns a wait that succeeds into a 503; the tests of the bound set their own.
      FOLLOW_WAIT_MS: '10000',
      ROUTER_WORKERS: '0',
      ...env,
    },
    {
      features: [headFollowFeature, routingFeature, poolUpdateFeature],
      background: true,
      seed: [{ chainId: 1, pools: [subgraphPool] }],
    },
  );
  await until('the first read', (f) => f.stateBlock === 100);
  return srv;
}

const quote = { sellToken: WETH, buyToken: USDC, orderKind: 'sell', amount: '1000000000000000000', gasPrice: '0' };
const post = (path: string, body: unknown) =>
  fetch(`${srv!.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function servedBalances(): Promise<bigint[]> {
  const pool = (await (await fetch(`${srv!.url}/pools/1/${A.id}`)).json()) as {
    tokens: { balance: string; decimals: number }[];
  };
  return pool.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
}

/** A third party's trade: the pool's balances move in a new block. */
function trade(): number {
  const p = node.pools.get(A.id)!;
  p.balances = [p.balances[0]! + 10n ** 18n, p.balances[1]! - 2_900n * 10n ** 6n];
  return node.mine([A.id]).number;
}

beforeEach(async () => {
  node = await FakeChainRpc.start(VAULT, [chainPool()]);
  subgraph = await FakeSubgraph.start([subgraphPool]);
});

afterEach(async () => {
  await srv?.close();
  srv = undefined;
  await subgraph.close();
  await node.close();
});

test('/order right after a block the state lacks waits for the follower to read it and answers at that block', async () => {
  await start();
  const before = (await (await post('/sor/1', quote)).json()) as { returnAmount: string; blockNumber: number };
  expect(before.blockNumber).toBe(100);
  const block = trade();

  const order = await post('/order/1', { ...quote, sender: SENDER, slippagePercentage: '0' });
  expect(order.status).toBe(200);
  const body = (await order.json()) as { blockNumber: number; price: { buyAmount: string } };
  expect(body.blockNumber).toBe(block);
  // Built on the traded balances, not the ones before.
  expect(body.price.buyAmount).not.toBe(before.returnAmount);
  expect(await servedBalances()).toEqual(node.pools.get(A.id)!.balances);
  const after = (await (await post('/sor/1', quote)).json()) as { returnAmount: string };
  expect(body.price.buyAmount).toBe(after.returnAmount);
});

test('concurrent orders share one question for the head', async () => {
  await start();
  trade();
  // A node 300 ms away: the orders all come while the first question is out.
  node.delayMs = 300;
  const asked = node.methodCounts.get('eth_blockNumber') ?? 0;
  const orders = await Promise.all(
    Array.from({ length: 12 }, () => post('/order/1', { ...quote, sender: SENDER, slippagePercentage: '0' })),
  );
  expect(orders.map((o) => o.status)).toEqual(orders.map(() => 200));
  // One request in flight and at most one queued behind it for those who came while it flew.
  expect((node.methodCounts.get('eth_blockNumber') ?? 0) - asked).toBeLessThanOrEqual(2);
});

test('a head the follower cannot read in FOLLOW_WAIT_MS: /order answers 503 with Retry-After naming the node; /sor answers from the older state unless asked for the block', async () => {
  await start({ FOLLOW_WAIT_MS: '300' });
  node.callError = (c) => (c.selector === GET_POOL_TOKENS ? { code: -32000, message: 'header not found' } : undefined);
  const block = trade();

  const order = await post('/order/1', { ...quote, sender: SENDER });
  expect(order.status).toBe(503);
  expect(order.headers.get('retry-after')).toBe('1');
  const behind = (await order.json()) as { error: string; reason: string; details: unknown };
  expect(behind).toMatchObject({ reason: 'STATE_BEHIND_HEAD', details: { retryAfterSeconds: 1 } });
  expect(behind.error).toMatch(
    new RegExp(
      `pool state is block 100 and the block asked for is ${block} \\(the RPC node of chain 1 \\(RPC_URL_1\\) reports it as its head\\).*FOLLOW_WAIT_MS`,
    ),
  );

  const sor = await post('/sor/1', quote);
  expect(sor.status).toBe(200);
  expect(((await sor.json()) as { blockNumber: number }).blockNumber).toBe(100);
  const atBlock = await post('/sor/1', { ...quote, minBlockNumber: block });
  expect(atBlock.status).toBe(503);
  expect(atBlock.headers.get('retry-after')).toBe('1');
  expect((await post('/sor/1', { ...quote, minBlockNumber: '100' })).status).toBe(200);

  // The node answers again: the same asks are answered at the block.
  node.callError = undefined;
  const later = await post('/sor/1', { ...quote, minBlockNumber: block });
  expect(later.status).toBe(200);
  expect(((await later.json()) as { blockNumber: number }).blockNumber).toBe(block);
});

test('minBlockNumber: a block ahead of the node is waited for; a malformed one is a 400 naming the field', async () => {
  await start();
  // The client saw block 101 (say, on another of the provider's servers) before this node did.
  const waiting = post('/sor/1', { ...quote, minBlockNumber: 101 });
  await new Promise((r) => setTimeout(r, 200));
  const block = trade();
  const answer = await waiting;
  expect(answer.status).toBe(200);
  expect(((await answer.json()) as { blockNumber: number }).blockNumber).toBe(block);

  for (const bad of [-1, 1.5, 'latest', '0x65', true]) {
    for (const path of ['/sor/1', '/order/1']) {
      const res = await post(path, { ...quote, sender: SENDER, minBlockNumber: bad });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/^minBlockNumber: expected a block number/);
    }
  }
});

test("minBlockNumber far past the node's head is a 400 naming it, with no wait and no fast polling", async () => {
  await start();
  const reads = () => [...node.methodCounts].reduce((n, [m, c]) => (m === 'eth_blockNumber' ? n : n + c), 0);
  for (const far of [100 + 1000, 1e9, Number.MAX_SAFE_INTEGER]) {
    for (const path of ['/sor/1', '/order/1']) {
      const before = reads();
      const res = await post(path, { ...quote, sender: SENDER, minBlockNumber: far });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(
        new RegExp(
          `^minBlockNumber: ${far} is ${far - 100} blocks past block 100, the head of the RPC node of chain 1`,
        ),
      );
      // A nudged follower would poll every 100 ms for as long as someone waits.
      await new Promise((r) => setTimeout(r, 250));
      expect(reads()).toBe(before);
    }
  }
  // A few blocks past the head is still waited for (the previous test), and the head itself answers.
  expect((await post('/sor/1', { ...quote, minBlockNumber: 100 })).status).toBe(200);
});

test('minBlockNumber on a chain whose head is not followed is a 400 saying why', async () => {
  srv = await startTestServer(
    { RPC_URL_1: node.url, FOLLOW_HEAD: 'off', ROUTER_WORKERS: '0' },
    { features: [headFollowFeature, routingFeature], seed: [{ chainId: 1, pools: [subgraphPool] }] },
  );
  const res = await post('/sor/1', { ...quote, minBlockNumber: 100 });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { error: string }).error).toMatch(
    /^minBlockNumber: .*not followed.*leave minBlockNumber out/,
  );
  expect((await post('/sor/1', quote)).status).toBe(200);
});

test("POST /pools/{chainId}/update answers 201 only once the served state includes the node's head at the call", async () => {
  await start();
  const block = trade();
  expect((await readyz()).follow.stateBlock).toBe(100);

  const res = await post('/pools/1/update', {});
  expect(res.status).toBe(201);
  expect((await readyz()).follow.stateBlock).toBe(block);
  expect(await servedBalances()).toEqual(node.pools.get(A.id)!.balances);
});

test('the update answers 503 naming the node when the state cannot reach that head in time', async () => {
  await start({ FOLLOW_WAIT_MS: '300' });
  node.callError = (c) =>
    c.selector === GET_POOL_TOKENS ? { code: -32005, message: 'rate limit exceeded' } : undefined;
  trade();
  const res = await post('/pools/1/update', {});
  expect(res.status).toBe(503);
  expect(res.headers.get('retry-after')).toBe('1');
  expect(((await res.json()) as { error: string }).error).toMatch(
    /^the pools were updated, but chain 1's pool state is block 100 .*read through the RPC node of chain 1 \(RPC_URL_1\)/,
  );
});

test('a state more than FOLLOW_MAX_LAG_BLOCKS behind the head degrades /readyz and /order refuses it naming the node and the lag', async () => {
  await start({ FOLLOW_WAIT_MS: '300', FOLLOW_MAX_LAG_BLOCKS: '3', FOLLOW_INTERVAL_MS: '100' });
  // The node answers its head but not the pools at it: the state stays at 100 while the head moves.
  node.callError = (c) => (c.selector === GET_POOL_TOKENS ? { code: -32000, message: 'header not found' } : undefined);
  for (let i = 0; i < 5; i++) trade();
  const lagging = await until('the head at 105', (f) => f.headBlock === 105);
  expect(lagging.stateBlock).toBe(100);
  expect(lagging.lagging).toMatch(
    /block 105 as its head, 5 blocks past the served state \(more than FOLLOW_MAX_LAG_BLOCKS=3\)/,
  );
  expect((await readyz()).status).toBe('degraded');

  const order = await post('/order/1', { ...quote, sender: SENDER });
  expect(order.status).toBe(503);
  expect(order.headers.get('retry-after')).toBe('5');
  const stale = (await order.json()) as { error: string; reason: string };
  expect(stale.reason).toBe('STATE_BEHIND_HEAD');
  expect(stale.error).toMatch(
    /^the RPC node of chain 1 \(RPC_URL_1\) reports block 105 as its head, 5 blocks past the served state.*pool state is block 100/,
  );

  node.callError = undefined;
  await until('caught up', (f) => f.stateBlock === 105 && f.lagging === null);
  expect((await readyz()).status).toBe('ready');
  expect((await post('/order/1', { ...quote, sender: SENDER })).status).toBe(200);
});

test('a slow node (answers after 5 s): /order does not build on the state it cannot vouch for, and says the node did not answer', async () => {
  await start({ FOLLOW_WAIT_MS: '2000' });
  node.delayMs = 5_000;
  const order = await post('/order/1', { ...quote, sender: SENDER });
  expect(order.status).toBe(503);
  expect(order.headers.get('retry-after')).toBe('5');
  expect(((await order.json()) as { error: string }).error).toMatch(
    /^the RPC node of chain 1 \(RPC_URL_1\) did not say its head \(RPC: no answer within 2000 ms.*\), so the service cannot tell whether its pool state is current/,
  );
  // /sor without minBlockNumber answers from the state it has, saying which block.
  expect(((await (await post('/sor/1', quote)).json()) as { blockNumber: number }).blockNumber).toBe(100);
});

test('a ws:// RPC URL: the follower reads each block the newHeads subscription announces, polls while it is down, and subscribes again', async () => {
  // Polling every 5 s (every 30 s while subscribed): a block read within a second came from the subscription.
  await start({ RPC_URL_1: node.wsUrl, FOLLOW_INTERVAL_MS: '5000' });
  await until('subscribed', (f) => f.heads === 'subscription');
  const first = trade();
  await until(`block ${first}`, (f) => f.stateBlock === first);
  expect(await servedBalances()).toEqual(node.pools.get(A.id)!.balances);

  node.socketDown = true;
  await until('polling', (f) => f.heads === 'polling');
  const second = trade();
  // The timer's next poll (5 s) reads it.
  await until(`block ${second}`, (f) => f.stateBlock === second);

  node.socketDown = false;
  await until('subscribed again', (f) => f.heads === 'subscription');
  expect(node.subscriptions).toBe(1);
  const third = trade();
  await until(`block ${third}`, (f) => f.stateBlock === third);
}, 60_000);
