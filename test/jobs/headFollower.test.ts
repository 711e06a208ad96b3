import { AbiCoder, id as eventTopic, Interface } from 'ethers';
import { CHAINS } from '../../src/config/chains';
import { decimalToUnits } from '../../src/domain/decimal';
import { headFollowFeature } from '../../src/jobs/triggers/headFollowFeature';
import { followStatusKey } from '../../src/jobs/headFollower';
import { routingFeature } from '../../src/routing/routingFeature';
import { FakeChainPool, FakeChainRpc } from '../fakes/chainRpcServer';
import { seedStore, startTestServer, TestServer } from '../helpers/testServer';

/**
 * The head follower against a node whose chain the test mines: the served pools are the chain's
 * at its newest block, a block re-reads only the pools its logs name, a reorg re-reads everything,
 * and a failing node keeps the last state without failing anything else.
 */
const VAULT = CHAINS.find((c) => c.id === 1)!.vault;
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const A = { id: `0x${'a1'.repeat(20)}000200000000000000000001`, address: `0x${'a1'.repeat(20)}` };
const B = { id: `0x${'b2'.repeat(20)}000200000000000000000002`, address: `0x${'b2'.repeat(20)}` };

function subgraphPool(p: { id: string; address: string }, weth: string, usdc: string) {
  return {
    id: p.id,
    address: p.address,
    poolType: 'Weighted',
    swapFee: '0.003',
    totalShares: '1000',
    tokens: [
      { address: WETH, symbol: 'WETH', decimals: 18, balance: weth, weight: '0.5', priceRate: '1' },
      { address: USDC, symbol: 'USDC', decimals: 6, balance: usdc, weight: '0.5', priceRate: '1' },
    ],
  };
}

const chainPool = (p: { id: string; address: string }, weth: bigint, usdc: bigint): FakeChainPool => ({
  id: p.id,
  address: p.address,
  tokens: [WETH, USDC],
  balances: [weth, usdc],
  swapFee: 3_000_000_000_000_000n,
});

let node: FakeChainRpc;
let srv: TestServer;

interface Follow {
  serving: 'chain' | 'subgraph';
  headBlock: number | null;
  stateBlock: number | null;
  stateBlockHash: string | null;
  failures: number;
  lastError: string | null;
  stale: boolean;
}

async function follow(): Promise<Follow> {
  const body = (await (await fetch(`${srv.url}/readyz`)).json()) as { chains: { follow: Follow }[] };
  return body.chains[0]!.follow;
}

async function until(what: string, ok: (f: Follow) => boolean): Promise<Follow> {
  // A generous cap: a busy CPU slows the polls, never the outcome.
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const f = await follow();
    if (ok(f)) return f;
    await new Promise((r) => setTimeout(r, 30));
  }
  throw new Error(`timed out waiting for ${what}: ${JSON.stringify(await follow())}`);
}

/** Waits for `n` more successful polls of the follower (idle ones while no block comes). */
async function polls(n: number): Promise<void> {
  const lastSuccess = () => srv.ctx.state.get(followStatusKey).get(1)?.lastSuccessAt;
  for (let k = 0; k < n; k++) {
    const seen = lastSuccess();
    const deadline = Date.now() + 30_000;
    while (lastSuccess() === seen && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
  }
}

async function served(id: string): Promise<bigint[]> {
  const pool = (await (await fetch(`${srv.url}/pools/1/${id}`)).json()) as {
    tokens: { balance: string; decimals: number }[];
  };
  return pool.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
}

// The slow re-read is off here (it would read pools no block named); headFollower.faults.test.ts has it on.
const startFollowing = (extra: ReturnType<typeof subgraphPool>[] = []) =>
  startTestServer(
    {
      RPC_URL_1: node.url,
      FOLLOW_INTERVAL_MS: '50',
      FOLLOW_STALE_SECONDS: '1',
      ROUTER_WORKERS: '0',
      FOLLOW_RECHECK_CALLS_PER_SECOND: '0',
    },
    {
      features: [headFollowFeature, routingFeature],
      background: true,
      // The subgraph's (older) balances: the chain's must replace them.
      seed: [{ chainId: 1, pools: [subgraphPool(A, '90', '310000'), subgraphPool(B, '4', '21000'), ...extra] }],
    },
  );

beforeEach(async () => {
  node = await FakeChainRpc.start(VAULT, [
    chainPool(A, 10n ** 18n * 100n, 300_000n * 10n ** 6n),
    chainPool(B, 10n ** 18n * 5n, 20_000n * 10n ** 6n),
  ]);
  srv = await startFollowing();
  await until('the first read', (f) => f.stateBlock === 100);
});

afterEach(async () => {
  await srv.close();
  await node.close();
});

test('the served pools are the chain at its head, not the subgraph, and /readyz says which block', async () => {
  expect(await served(A.id)).toEqual([10n ** 20n, 300_000n * 10n ** 6n]);
  expect(await served(B.id)).toEqual([5n * 10n ** 18n, 20_000n * 10n ** 6n]);
  const f = await follow();
  expect(f).toMatchObject({
    serving: 'chain',
    headBlock: 100,
    stateBlock: 100,
    stateBlockHash: node.head.hash,
    failures: 0,
  });
});

const quote = { sellToken: WETH, buyToken: USDC, orderKind: 'sell', amount: '1000000000000000000', gasPrice: '0' };
const post = (path: string, body: unknown) =>
  fetch(`${srv.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test('/sor and /order say which block their pool state was read at', async () => {
  const sor = await post('/sor/1', quote);
  expect(sor.status).toBe(200);
  expect(((await sor.json()) as { blockNumber: number }).blockNumber).toBe(100);
  node.pools.get(A.id)!.balances = [101n * 10n ** 18n, 297_000n * 10n ** 6n];
  node.mine([A.id]);
  await until('block 101', (f) => f.stateBlock === 101);
  const order = await post('/order/1', { ...quote, sender: `0x${'5e'.repeat(20)}` });
  expect(order.status).toBe(200);
  expect(((await order.json()) as { blockNumber: number }).blockNumber).toBe(101);
});

const GET_POOL_TOKENS = '0xf94d4668';

test('a new block re-reads only the pools its Vault logs name, at that block; a weighted pool only swapped in, by its balances alone', async () => {
  node.pools.get(A.id)!.balances = [101n * 10n ** 18n, 297_000n * 10n ** 6n];
  const block = node.mine([A.id]);
  await until('block 101', (f) => f.stateBlock === 101);
  expect(await served(A.id)).toEqual([101n * 10n ** 18n, 297_000n * 10n ** 6n]);
  expect(await served(B.id)).toEqual([5n * 10n ** 18n, 20_000n * 10n ** 6n]);
  const atBlock = node.ethCalls.filter((c) => c.block === `0x${block.number.toString(16)}`);
  // A swap moves a weighted pool's balances and nothing else its getters answer.
  expect(atBlock).toEqual([{ to: VAULT.toLowerCase(), selector: GET_POOL_TOKENS, block: atBlock[0]!.block }]);
});

test('a join or exit re-reads the whole pool (it moves the supply and the fee basis), swapped in too or not', async () => {
  node.pools.get(A.id)!.balances = [102n * 10n ** 18n, 306_000n * 10n ** 6n];
  node.pools.get(A.id)!.swapFee = 5_000_000_000_000_000n;
  const block = node.mine([A.id], [], [A.id]);
  await until('block 101', (f) => f.stateBlock === 101);
  expect(await served(A.id)).toEqual([102n * 10n ** 18n, 306_000n * 10n ** 6n]);
  const pool = (await (await fetch(`${srv.url}/pools/1/${A.id}`)).json()) as { swapFee: string };
  expect(pool.swapFee).toBe('0.005');
  const atBlock = node.ethCalls.filter((c) => c.block === `0x${block.number.toString(16)}`);
  expect(atBlock.some((c) => c.to === A.address)).toBe(true);
  expect(atBlock.some((c) => c.to === B.address)).toBe(false);
});

test("a pool's own state event (its owner changed the fee) re-reads it though no Vault log names it", async () => {
  node.pools.get(B.id)!.swapFee = 10_000_000_000_000_000n;
  const block = node.mine([], [{ address: B.address, topic: eventTopic('SwapFeePercentageChanged(uint256)') }]);
  await until('block 101', (f) => f.stateBlock === 101);
  const pool = (await (await fetch(`${srv.url}/pools/1/${B.id}`)).json()) as { swapFee: string };
  expect(pool.swapFee).toBe('0.01');
  const atBlock = node.ethCalls.filter((c) => c.block === `0x${block.number.toString(16)}`);
  expect(atBlock.some((c) => c.to === A.address)).toBe(false);
});

test("the fees collector's percentage change re-reads the weighted v1 pools, whose due protocol fee it sets", async () => {
  await srv.close();
  await node.close();
  const collector = `0x${'fc'.repeat(20)}`;
  node = await FakeChainRpc.start(VAULT, [
    { ...chainPool(A, 10n ** 18n * 100n, 300_000n * 10n ** 6n), lastInvariant: 5_000n * 10n ** 18n },
    chainPool(B, 10n ** 18n * 5n, 20_000n * 10n ** 6n),
  ]);
  node.feesCollector = collector;
  srv = await startFollowing();
  await until('the first read', (f) => f.stateBlock === 100);
  const basis = async (id: string) => {
    const p = (await (await fetch(`${srv.url}/pools/1/${id}`)).json()) as Record<string, unknown>;
    return { invariant: p.lastInvariant, pct: p.vaultProtocolSwapFee };
  };
  expect(await basis(A.id)).toEqual({ invariant: '5000', pct: '0' });
  // B answers no getLastInvariant: no basis, none due, whatever the percentage.
  expect((await basis(B.id)).invariant).toBeUndefined();

  // Governance sets the protocol swap fee: only the collector emits, no pool and no Vault log.
  node.protocolSwapFee = 5n * 10n ** 17n;
  node.mine([], [{ address: collector, topic: eventTopic('SwapFeePercentageChanged(uint256)') }]);
  await until('block 101', (f) => f.stateBlock === 101);
  expect(await basis(A.id)).toEqual({ invariant: '5000', pct: '0.5' });
});

test('a chain whose Multicall3 has no code (a fork without it) is read through plain eth_calls, and /readyz says so', async () => {
  expect(((await follow()) as Follow & { transport: string }).transport).toBe('aggregate3');
  node.noMulticall3 = true;
  node.pools.get(A.id)!.balances = [102n * 10n ** 18n, 294_000n * 10n ** 6n];
  node.mine([], [], [A.id]);
  // The block's aggregate came back empty, the node said no code: the same step read it plainly.
  const f = (await until('block 101', (x) => x.stateBlock === 101)) as Follow & {
    transport: string;
    transportReason: string | null;
  };
  expect(await served(A.id)).toEqual([102n * 10n ** 18n, 294_000n * 10n ** 6n]);
  expect(f.failures).toBe(0);
  expect(f.transport).toBe('batch');
  expect(f.transportReason).toMatch(/Multicall3 .* has no code at block 101/);
  const aggregates = node.aggregates;
  const codeAsked = node.methodCounts.get('eth_getCode');
  node.pools.get(B.id)!.balances = [6n * 10n ** 18n, 18_000n * 10n ** 6n];
  node.mine([], [], [B.id]);
  await until('block 102', (x) => x.stateBlock === 102);
  expect(await served(B.id)).toEqual([6n * 10n ** 18n, 18_000n * 10n ** 6n]);
  // Not tried again: no aggregate sent, no code asked.
  expect(node.methodCounts.get('eth_getCode')).toBe(codeAsked);
  expect(node.aggregates).toBe(aggregates);
});

test('a reorg (another block at the same height) re-reads every pool: the state is the new chain', async () => {
  node.pools.get(A.id)!.balances = [101n * 10n ** 18n, 297_000n * 10n ** 6n];
  const first = node.mine([A.id]);
  await until('block 101', (f) => f.stateBlockHash === first.hash);
  node.rewind(1);
  node.pools.get(B.id)!.balances = [6n * 10n ** 18n, 16_700n * 10n ** 6n];
  const second = node.mine([B.id]);
  expect(second.number).toBe(first.number);
  await until('the reorganized block 101', (f) => f.stateBlockHash === second.hash);
  expect(await served(A.id)).toEqual([10n ** 20n, 300_000n * 10n ** 6n]);
  expect(await served(B.id)).toEqual([6n * 10n ** 18n, 16_700n * 10n ** 6n]);
});

test('a pool read again and found as it was keeps its served object: the quote threads rebuild nothing for it', async () => {
  node.pools.get(A.id)!.balances = [101n * 10n ** 18n, 297_000n * 10n ** 6n];
  const first = node.mine([A.id]);
  await until('block 101', (f) => f.stateBlockHash === first.hash);
  const before = srv.ctx.readModel.get(1)!.poolsById;
  // A reorg re-reads every pool; the new block trades A again and leaves B as it was.
  node.rewind(1);
  node.pools.get(A.id)!.balances = [102n * 10n ** 18n, 294_100n * 10n ** 6n];
  const second = node.mine([A.id]);
  await until('the reorganized block 101', (f) => f.stateBlockHash === second.hash);
  const after = srv.ctx.readModel.get(1)!.poolsById;
  expect(await served(A.id)).toEqual([102n * 10n ** 18n, 294_100n * 10n ** 6n]);
  expect(after.get(A.id)).not.toBe(before.get(A.id));
  // Routing versions tell changed pools by object (routing/poolVersions.ts): B's is the one before.
  expect(after.get(B.id)).toBe(before.get(B.id));
});

test('a failing node keeps the last state and shows in /readyz; the follower catches up once it answers', async () => {
  node.failStatus = 503;
  node.pools.get(A.id)!.balances = [99n * 10n ** 18n, 303_000n * 10n ** 6n];
  node.mine([A.id]);
  const failing = await until('a failed poll', (f) => f.failures > 0);
  expect(failing.stateBlock).toBe(100);
  expect(failing.lastError).toMatch(/RPC/);
  expect(await served(A.id)).toEqual([10n ** 20n, 300_000n * 10n ** 6n]);
  expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);

  // Past FOLLOW_STALE_SECONDS of failures: /readyz says so and /order builds no transaction.
  const stale = await until('stale', (f) => f.stale);
  expect(stale.stateBlock).toBe(100);
  const ready = (await (await fetch(`${srv.url}/readyz`)).json()) as { status: string };
  expect(ready.status).toBe('degraded');
  const order = await post('/order/1', { ...quote, sender: `0x${'5e'.repeat(20)}` });
  expect(order.status).toBe(503);
  expect(((await order.json()) as { error: string }).error).toMatch(/RPC node of chain 1 \(RPC_URL_1\).*block 100/);

  node.failStatus = undefined;
  // Back-off after a failure is at most 30 s; the first retries come after 100, 200 ... ms.
  await until('recovery', (f) => f.stateBlock === 101 && f.failures === 0);
  expect(await served(A.id)).toEqual([99n * 10n ** 18n, 303_000n * 10n ** 6n]);
});

test.each([
  ['header not found (a node a block behind)', { code: -32000, message: 'header not found' }],
  ['a per-call rate limit', { code: -32005, message: 'rate limit exceeded' }],
])(
  'a call the node fails with %s publishes nothing of that block and is retried; only a revert counts as absent',
  async (_what, error) => {
    const getPoolTokens = '0xf94d4668';
    node.callError = (c) => (c.selector === getPoolTokens ? error : undefined);
    node.pools.get(A.id)!.balances = [101n * 10n ** 18n, 297_000n * 10n ** 6n];
    node.mine([A.id]);
    const failing = await until('a failed poll', (f) => f.failures > 0);
    expect(failing.stateBlock).toBe(100);
    expect(failing.lastError).toContain(error.message);
    expect(await served(A.id)).toEqual([10n ** 20n, 300_000n * 10n ** 6n]);

    node.callError = undefined;
    await until('recovery', (f) => f.stateBlock === 101 && f.failures === 0);
    expect(await served(A.id)).toEqual([101n * 10n ** 18n, 297_000n * 10n ** 6n]);
  },
);

test('a node that fails from the start: the subgraph pools are served; /order, which cannot learn the head, refuses naming the node', async () => {
  await srv.close();
  node.failStatus = 503;
  srv = await startFollowing();
  // Back-off 100, 200, 400, 800 ms: four failures are past FOLLOW_STALE_SECONDS (1 s).
  const failing = await until('four failed polls', (f) => f.failures >= 4);
  expect(failing).toMatchObject({ serving: 'subgraph', stateBlock: null, stale: false });
  expect(await served(A.id)).toEqual([90n * 10n ** 18n, 310_000n * 10n ** 6n]);
  const sor = await post('/sor/1', quote);
  expect(sor.status).toBe(200);
  expect(await sor.json()).not.toHaveProperty('blockNumber');
  const order = await post('/order/1', { ...quote, sender: `0x${'5e'.repeat(20)}` });
  expect(order.status).toBe(503);
  expect(order.headers.get('retry-after')).toBe('5');
  expect(((await order.json()) as { error: string }).error).toMatch(
    /RPC node of chain 1 \(RPC_URL_1\) did not say its head/,
  );
  expect(((await (await fetch(`${srv.url}/readyz`)).json()) as { status: string }).status).toBe('ready');
});

test('a refused eth_getLogs range is halved until the node answers: the state reaches the head', async () => {
  // A provider that answers at most two blocks of logs per query.
  node.callError = (c) =>
    c.method === 'eth_getLogs' && c.toBlock! - c.fromBlock! >= 2
      ? { code: -32005, message: 'query exceeds max block range 2' }
      : undefined;
  node.mine([]);
  node.mine([]);
  node.pools.get(B.id)!.balances = [6n * 10n ** 18n, 16_700n * 10n ** 6n];
  node.mine([B.id]);
  node.mine([]);
  node.mine([]);
  await until('block 105', (f) => f.stateBlock === 105);
  expect(await served(B.id)).toEqual([6n * 10n ** 18n, 16_700n * 10n ** 6n]);
  // Only B was re-read: the logs, not a full read, brought the state to the head.
  expect(node.ethCalls.some((c) => c.to === A.address && c.block === '0x69')).toBe(false);
});

test('a node that refuses even one block of logs: a full read brings the state to the head', async () => {
  node.callError = (c) => (c.method === 'eth_getLogs' ? { code: -32005, message: 'logs disabled' } : undefined);
  node.pools.get(A.id)!.balances = [101n * 10n ** 18n, 297_000n * 10n ** 6n];
  node.mine([A.id]);
  node.mine([]);
  node.mine([]);
  await until('block 103', (f) => f.stateBlock === 103 && f.failures === 0);
  expect(await served(A.id)).toEqual([101n * 10n ** 18n, 297_000n * 10n ** 6n]);
});

test('a node stuck at one head (mainnet makes a block every 12 s) turns stale: /order refuses until the head moves', async () => {
  // The node answers every poll, but its head stays at block 100 past FOLLOW_STALE_SECONDS (1 s).
  const stuck = await until('stale', (f) => f.stale);
  expect(stuck).toMatchObject({ failures: 0, stateBlock: 100, headBlock: 100 });
  const order = await post('/order/1', { ...quote, sender: `0x${'5e'.repeat(20)}` });
  expect(order.status).toBe(503);
  expect(((await order.json()) as { error: string }).error).toMatch(
    /RPC node of chain 1 \(RPC_URL_1\) has reported block 100 as its head for \d+ s.*block 100/,
  );

  node.mine([]);
  await until('block 101, fresh', (f) => f.stateBlock === 101 && !f.stale);
  expect((await post('/order/1', { ...quote, sender: `0x${'5e'.repeat(20)}` })).status).toBe(200);
});

test('a pool the Vault refuses is not asked again on later blocks; it keeps the subgraph values', async () => {
  // C is in the catalogue but not registered in the node's Vault (getPoolTokens reverts).
  const C = { id: `0x${'c3'.repeat(20)}000200000000000000000003`, address: `0x${'c3'.repeat(20)}` };
  await srv.close();
  srv = await startFollowing([subgraphPool(C, '7', '21000')]);
  await until('the first read', (f) => f.stateBlock === 100);
  const getPoolTokens = eventTopic('getPoolTokens(bytes32)').slice(0, 10);
  const vaultReads = () =>
    node.ethCalls.filter((c) => c.to === VAULT.toLowerCase() && c.selector === getPoolTokens && c.block !== '0x64')
      .length;
  node.mine([]);
  node.mine([]);
  await until('block 102', (f) => f.stateBlock === 102);
  node.mine([A.id]);
  await until('block 103', (f) => f.stateBlock === 103);
  // Only A's getPoolTokens, at block 103: C was not asked again.
  expect(vaultReads()).toBe(1);
  expect(await served(C.id)).toEqual([7n * 10n ** 18n, 21_000n * 10n ** 6n]);
});

test('a pool the catalogue gains while no block comes is read at the served block, however many idle polls came before', async () => {
  const C = { id: `0x${'c3'.repeat(20)}000200000000000000000003`, address: `0x${'c3'.repeat(20)}` };
  // The chain has C from the start; the catalogue lists only A and B at first.
  await srv.close();
  await node.close();
  node = await FakeChainRpc.start(VAULT, [
    chainPool(A, 10n ** 18n * 100n, 300_000n * 10n ** 6n),
    chainPool(B, 10n ** 18n * 5n, 20_000n * 10n ** 6n),
    chainPool(C, 10n ** 18n * 7n, 22_000n * 10n ** 6n),
  ]);
  srv = await startFollowing();
  await until('the first read', (f) => f.stateBlock === 100);
  await polls(3);
  await seedStore(srv.ctx.store, 1, [subgraphPool(C, '6', '21000')]);
  await srv.ctx.readModel.refresh(1);
  await polls(2);
  expect((await follow()).stateBlock).toBe(100);
  expect(await served(C.id)).toEqual([7n * 10n ** 18n, 22_000n * 10n ** 6n]);
});

test('a pool the Vault refused is asked again once the pools version moves, with no new block', async () => {
  const C = { id: `0x${'c3'.repeat(20)}000200000000000000000003`, address: `0x${'c3'.repeat(20)}` };
  await srv.close();
  srv = await startFollowing([subgraphPool(C, '6', '21000')]);
  await until('the first read', (f) => f.stateBlock === 100);
  // The Vault registers C at block 101, which names no pool; idle polls follow.
  node.pools.set(C.id, chainPool(C, 10n ** 18n * 7n, 22_000n * 10n ** 6n));
  node.mine([]);
  await until('block 101', (f) => f.stateBlock === 101);
  await polls(3);
  expect(await served(C.id)).toEqual([6n * 10n ** 18n, 21_000n * 10n ** 6n]);
  // A pool update that changed no pool still moves the version: the refused are asked again.
  await srv.ctx.store.commit(1, { bumpPoolsVersion: true });
  await srv.ctx.readModel.refresh(1);
  await polls(2);
  expect((await follow()).stateBlock).toBe(101);
  expect(await served(C.id)).toEqual([7n * 10n ** 18n, 22_000n * 10n ** 6n]);
});

test('a pool the catalogue drops leaves the chain state too (the state holds only listed pools)', async () => {
  await srv.ctx.store.commit(1, { deletePoolIds: [B.id], bumpPoolsVersion: true });
  await srv.ctx.readModel.refresh(1);
  expect(srv.ctx.readModel.chainState(1)!.pools.has(B.id)).toBe(true);
  node.mine([A.id]);
  await until('block 101', (f) => f.stateBlock === 101);
  expect([...srv.ctx.readModel.chainState(1)!.pools.keys()]).toEqual([A.id]);
  expect((await fetch(`${srv.url}/pools/1/${B.id}`)).status).toBe(404);
});

test('a node that refuses the history an LBP weight update starts from: the follower does not stall, the pool is read at every block', async () => {
  await srv.close();
  await node.close();
  const L = { id: `0x${'c3'.repeat(20)}000200000000000000000003`, address: `0x${'c3'.repeat(20)}` };
  node = await FakeChainRpc.start(VAULT, [
    chainPool(A, 10n ** 18n * 100n, 300_000n * 10n ** 6n),
    chainPool(B, 10n ** 18n * 5n, 20_000n * 10n ** 6n),
    chainPool(L, 10n ** 18n * 50n, 100_000n * 10n ** 6n),
  ]);
  const coder = AbiCoder.defaultAbiCoder();
  const lbp = new Interface([
    'function getNormalizedWeights() view returns (uint256[])',
    'function getGradualWeightUpdateParams() view returns (uint256 startTime, uint256 endTime, uint256[] endWeights)',
    'function getSwapEnabled() view returns (bool)',
  ]);
  const E18 = 10n ** 18n;
  // Mid-update: the weights read are not the end weights, so the update's start is looked for.
  node.contractCall = (c) => {
    if (c.to !== L.address) return undefined;
    const selector = c.data.slice(0, 10);
    if (selector === lbp.getFunction('getNormalizedWeights')!.selector)
      return coder.encode(['uint256[]'], [[(E18 * 7n) / 10n, (E18 * 3n) / 10n]]);
    if (selector === lbp.getFunction('getGradualWeightUpdateParams')!.selector)
      return coder.encode(['uint256', 'uint256', 'uint256[]'], [1n, 4_000_000_000n, [E18 / 2n, E18 / 2n]]);
    if (selector === lbp.getFunction('getSwapEnabled')!.selector) return coder.encode(['bool'], [true]);
    return undefined;
  };
  // The node caps log queries: a pool's whole history is refused.
  node.callError = (call) =>
    call.method === 'eth_getLogs' && call.fromBlock === 0
      ? { code: -32005, message: 'query exceeds max block range' }
      : undefined;
  srv = await startFollowing([{ ...subgraphPool(L, '40', '90000'), poolType: 'LiquidityBootstrapping' }]);
  await until('the first read', (f) => f.stateBlock === 100);
  const weights = async () =>
    ((await (await fetch(`${srv.url}/pools/1/${L.id}`)).json()) as { tokens: { weight: string }[] }).tokens.map(
      (t) => t.weight,
    );
  expect(await weights()).toEqual(['0.7', '0.3']);
  // A block that names only A: the LBP, whose weights move with no event, is read again anyway.
  const readsOfL = () => node.ethCalls.filter((c) => c.to === L.address && c.block === '0x65').length;
  node.mine([A.id]);
  await until('block 101', (f) => f.stateBlock === 101);
  expect(readsOfL()).toBeGreaterThan(0);
});
