import { Interface } from 'ethers';
import { CHAINS } from '../../src/config/chains';
import { decimalToUnits } from '../../src/domain/decimal';
import { headFollowFeature } from '../../src/jobs/triggers/headFollowFeature';
import { sameState } from '../../src/jobs/follow/followChecks';
import { routingFeature } from '../../src/routing/routingFeature';
import { readPoolStates } from '../../src/sources/chainState/chainStateReader';
import { FakeChainPool, FakeChainRpc } from '../fakes/chainRpcServer';
import { nodeRpc } from '../helpers/nodeRpc';
import { createLogger } from '../../src/log/logger';
import { startTestServer, TestServer } from '../helpers/testServer';
import { followStatus, untilFollow } from '../helpers/followStatus';

/**
 * The head follower against a node that lies: answers that are not real ones (null, `0x`, cut
 * short, a revert without the Vault's reason, every id carrying its neighbour's answer, a traded
 * pool read from the block before its trade) fail the step and publish nothing, and once the node
 * answers honestly every pool equals a fresh read; a wrong answer no check can tell is healed by
 * the slow re-read; a `latest` that flips back never moves the served block back.
 */
const VAULT = CHAINS.find((c) => c.id === 1)!.vault;
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const A = { id: `0x${'a1'.repeat(20)}000200000000000000000001`, address: `0x${'a1'.repeat(20)}` };
const B = { id: `0x${'b2'.repeat(20)}000200000000000000000002`, address: `0x${'b2'.repeat(20)}` };
const E18 = 10n ** 18n;
const E6 = 10n ** 6n;
const GET_POOL_TOKENS = new Interface([
  'function getPoolTokens(bytes32 poolId) view returns (address[] tokens, uint256[] balances, uint256 lastChangeBlock)',
]);
const GET_POOL_TOKENS_SELECTOR = GET_POOL_TOKENS.getFunction('getPoolTokens')!.selector;

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
  headBlock: number | null;
  stateBlock: number | null;
  failures: number;
  lastError: string | null;
  stale: boolean;
  malformedAnswers: number;
  headsBehind: number;
  lastHeadBehind: { number: number } | null;
  recheck: { pools: number; mismatches: number; lastMismatch: { poolId: string } | null };
}

const follow = (): Promise<Follow> => followStatus<Follow>(srv.url);
const until = (what: string, ok: (f: Follow) => boolean): Promise<Follow> => untilFollow(srv.url, what, ok);

async function served(id: string): Promise<bigint[]> {
  const pool = (await (await fetch(`${srv.url}/pools/1/${id}`)).json()) as {
    tokens: { balance: string; decimals: number }[];
  };
  return pool.tokens.map((t) => decimalToUnits(t.balance, t.decimals));
}

/** Every pool of the served state against a read of the node now (the node honest again). */
async function expectEveryPoolFresh(): Promise<void> {
  const state = srv.ctx.readModel.chainState(1)!;
  expect(state.block.number).toBe(node.head.number);
  const fresh = await readPoolStates(nodeRpc(node.url), VAULT, srv.ctx.readModel.get(1)!.pools, node.head.number);
  expect([...state.pools.keys()].sort()).toEqual([...fresh.keys()].sort());
  for (const [id, s] of fresh) expect({ id, same: sameState(state.pools.get(id), s) }).toEqual({ id, same: true });
}

const startFollowing = (env: Record<string, string> = {}, options: Parameters<typeof startTestServer>[1] = {}) =>
  startTestServer(
    {
      RPC_URL_1: node.url,
      FOLLOW_INTERVAL_MS: '50',
      FOLLOW_STALE_SECONDS: '30',
      ROUTER_WORKERS: '0',
      FOLLOW_RECHECK_CALLS_PER_SECOND: '0',
      ...env,
    },
    {
      features: [headFollowFeature, routingFeature],
      background: true,
      seed: [{ chainId: 1, pools: [subgraphPool(A, '90', '310000'), subgraphPool(B, '4', '21000')] }],
      ...options,
    },
  );

beforeEach(async () => {
  node = await FakeChainRpc.start(VAULT, [
    chainPool(A, 100n * E18, 300_000n * E6),
    chainPool(B, 5n * E18, 20_000n * E6),
  ]);
});

afterEach(async () => {
  await srv.close();
  await node.close();
});

const lies: [string, (f: FakeChainRpc) => void][] = [
  ['null', (f) => (f.lie = (c) => (c.selector === GET_POOL_TOKENS_SELECTOR ? { result: null } : undefined))],
  ['empty data (0x)', (f) => (f.lie = (c) => (c.selector === GET_POOL_TOKENS_SELECTOR ? { result: '0x' } : undefined))],
  [
    'a result cut short',
    (f) =>
      (f.lie = (c) =>
        c.selector === GET_POOL_TOKENS_SELECTOR
          ? {
              result: GET_POOL_TOKENS.encodeFunctionResult('getPoolTokens', [[WETH, USDC], [1n, 2n], 101n]).slice(
                0,
                2 + 64 * 5,
              ),
            }
          : undefined),
  ],
  [
    "a revert without the Vault's unknown-pool reason",
    (f) =>
      (f.callError = (c) =>
        c.selector === GET_POOL_TOKENS_SELECTOR ? { code: 3, message: 'execution reverted' } : undefined),
  ],
  ["every id carrying its neighbour's answer", (f) => (f.rotateIds = true)],
  ['no answer at all in the batch', (f) => (f.drop = (c) => c.selector === GET_POOL_TOKENS_SELECTOR)],
  ['an eth_call for the new block answered from the block before', (f) => (f.answerFromBlocksBack = 1)],
];

test.each(lies)(
  'a traded pool answered with %s: nothing of the block is published, /readyz counts it, and after the node recovers every pool equals a fresh read',
  async (_what, lie) => {
    srv = await startFollowing();
    await until('the first read', (f) => f.stateBlock === 100);
    lie(node);
    node.pools.get(A.id)!.balances = [101n * E18, 297_030n * E6];
    node.mine([A.id]);
    const failing = await until('a failed poll', (f) => f.failures > 0);
    expect(failing.stateBlock).toBe(100);
    expect(failing.malformedAnswers).toBeGreaterThan(0);
    // The pre-trade balances stay labelled with the block they were read at, not the new one.
    expect(await served(A.id)).toEqual([100n * E18, 300_000n * E6]);

    node.lie = undefined;
    node.callError = undefined;
    node.rotateIds = false;
    node.drop = undefined;
    node.answerFromBlocksBack = 0;
    await until('recovery', (f) => f.stateBlock === 101 && f.failures === 0);
    expect(await served(A.id)).toEqual([101n * E18, 297_030n * E6]);
    await expectEveryPoolFresh();
  },
);

test("a getter that ran out of the aggregate's gas (a failure with no data, as a missing getter's) is asked again alone: the chain's value is served", async () => {
  const fee = new Interface(['function getSwapFeePercentage() view returns (uint256)']).getFunction(
    'getSwapFeePercentage',
  )!.selector;
  node.pools.get(A.id)!.swapFee = 4_000_000_000_000_000n;
  node.mine([]);
  node.outOfGasInside = (c) => c.to === A.address && c.selector === fee;
  srv = await startFollowing();
  await until('the first read', (f) => f.stateBlock === 101);
  const pool = (await (await fetch(`${srv.url}/pools/1/${A.id}`)).json()) as { swapFee: string };
  // Taken as a revert, the field would have stayed the subgraph's 0.003.
  expect(pool.swapFee).toBe('0.004');
  expect((await follow()).failures).toBe(0);
});

test('a wrong answer no check can tell (well-formed balances of another pool) is healed by the slow re-read and counted', async () => {
  // At the first read the node answers B's getPoolTokens with A's balances: well formed, same tokens.
  const a = node.pools.get(A.id)!;
  const askB = GET_POOL_TOKENS.encodeFunctionData('getPoolTokens', [B.id]);
  node.lie = (c) =>
    c.data === askB
      ? { result: GET_POOL_TOKENS.encodeFunctionResult('getPoolTokens', [a.tokens, a.balances, 100n]) }
      : undefined;
  // A pool's calls accrue in 40 ms: a pool or so at each block of this test.
  srv = await startFollowing({ FOLLOW_RECHECK_CALLS_PER_SECOND: '200' });
  await until('the first read', (f) => f.stateBlock === 100);
  expect(await served(B.id)).toEqual([100n * E18, 300_000n * E6]);
  node.lie = undefined;

  // Blocks that name no pool: only the re-read reaches B.
  for (let i = 0; i < 3; i++) {
    node.mine([]);
    await until(`block ${node.head.number}`, (f) => f.stateBlock === node.head.number);
  }
  const f = await follow();
  expect(f.recheck.mismatches).toBe(1);
  expect(f.recheck.lastMismatch?.poolId).toBe(B.id);
  expect(f.recheck.pools).toBeGreaterThanOrEqual(2);
  expect(await served(B.id)).toEqual([5n * E18, 20_000n * E6]);
  await expectEveryPoolFresh();
});

test('a latest that flips 3 blocks back: the served block never goes back, no pool is read for it, /readyz counts the ignored heads', async () => {
  srv = await startFollowing();
  await until('the first read', (f) => f.stateBlock === 100);
  for (let i = 0; i < 4; i++) node.mine([]);
  await until('block 104', (f) => f.stateBlock === 104);
  const calls = () => (node.methodCounts.get('eth_call') ?? 0) + (node.methodCounts.get('eth_getLogs') ?? 0);
  const before = calls();
  let flip = 0;
  node.latestBehind = () => (flip++ % 2 === 0 ? 3 : 0);

  const seen: number[] = [];
  const blockNumbers: number[] = [];
  const sample = async () => {
    seen.push((await follow()).stateBlock!);
    const sor = await fetch(`${srv.url}/sor/1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sellToken: WETH,
        buyToken: USDC,
        orderKind: 'sell',
        amount: '1000000000000000',
        gasPrice: '0',
      }),
    });
    blockNumbers.push(((await sor.json()) as { blockNumber: number }).blockNumber);
  };
  const behind = await until('ignored heads', (f) => f.headsBehind >= 5);
  expect(behind.lastHeadBehind?.number).toBe(101);
  for (let i = 0; i < 10; i++) await sample();
  // A flipping head costs head requests only: no logs, no pool reads.
  expect(calls()).toBe(before);

  // A trade while it flips: the state moves forward to it, and only forward.
  node.pools.get(A.id)!.balances = [101n * E18, 297_030n * E6];
  node.mine([A.id]);
  const deadline = Date.now() + 30_000;
  while (seen.at(-1) !== 105 && Date.now() < deadline) await sample();
  for (let i = 0; i < 10; i++) await sample();
  expect(seen.at(-1)).toBe(105);
  for (const list of [seen, blockNumbers])
    list.forEach((n, i) => expect({ i, n, back: i > 0 && n < list[i - 1]! }).toEqual({ i, n, back: false }));
  expect(await served(A.id)).toEqual([101n * E18, 297_030n * E6]);
});

test('a node that no longer has the state block (its chain went back) is followed back once that lasts past the stale bound', async () => {
  srv = await startFollowing({ FOLLOW_STALE_SECONDS: '1' });
  await until('the first read', (f) => f.stateBlock === 100);
  node.mine([]);
  node.mine([]);
  await until('block 102', (f) => f.stateBlock === 102);
  // The chain restarts two blocks back: block 102 is gone and the node's head is 100 for good.
  node.rewind(2);
  node.pools.get(B.id)!.balances = [6n * E18, 16_700n * E6];
  const back = await until('the rewound chain read again', (f) => f.stateBlock === 100);
  expect(back.headsBehind).toBeGreaterThan(0);
  // B's balances at the new head, read by the full read the rewind needed.
  node.mine([B.id]);
  await until('block 101 of the new chain', (f) => f.stateBlock === 101);
  expect(await served(B.id)).toEqual([6n * E18, 16_700n * E6]);
});

test('/order refused on a stale state (503 STALE_STATE, Retry-After) logs one warning per outage, none per request, and reports nothing to the error tracker', async () => {
  const lines: { severity: string; message: string }[] = [];
  const reported: unknown[] = [];
  srv = await startFollowing(
    { FOLLOW_STALE_SECONDS: '1' },
    {
      logger: createLogger({ debug: false, destination: { write: (l: string) => void lines.push(JSON.parse(l)) } }),
      reportServerError: (err) => reported.push(err),
    },
  );
  await until('the first read', (f) => f.stateBlock === 100);
  const order = () =>
    fetch(`${srv.url}/order/1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        sellToken: WETH,
        buyToken: USDC,
        orderKind: 'sell',
        amount: '1000000000000000',
        gasPrice: '0',
        sender: `0x${'5e'.repeat(20)}`,
      }),
    });
  const refusals = () => lines.filter((l) => l.message === 'refusing requests: operational state');
  const outage = async () => {
    node.failStatus = 503;
    node.mine([]);
    // Back-off 100, 200, 400, 800 ms after the first failure: the fifth is past FOLLOW_STALE_SECONDS (1 s).
    await until('stale on failing polls', (f) => f.failures >= 5 && f.stale);
    const refused = await order();
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(await refused.json()).toEqual({
      error: expect.stringMatching(
        /^the RPC node of chain 1 \(RPC_URL_1\) has failed every read .*; pool state is block 10\d, so no transaction is built on it; retry later$/,
      ),
      code: 503,
      reason: 'STALE_STATE',
    });
    for (let i = 0; i < 4; i++) expect((await order()).status).toBe(503);
    node.failStatus = undefined;
    await until('recovery', (f) => f.failures === 0 && f.stateBlock === node.head.number);
  };
  await outage();
  expect(refusals()).toHaveLength(1);
  expect(refusals()[0]!.severity).toBe('WARNING');
  await outage();
  expect(refusals()).toHaveLength(2);
  expect(lines.filter((l) => l.severity === 'ERROR')).toEqual([]);
  expect(reported).toEqual([]);
});
