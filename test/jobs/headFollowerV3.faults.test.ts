import { AbiCoder, id, zeroPadValue } from 'ethers';
import { CHAINS, vaultOf } from '../../src/config/chains';
import { headFollowFeature } from '../../src/jobs/triggers/headFollowFeature';
import { sameState } from '../../src/jobs/follow/followChecks';
import { readPoolStates, V3_VAULT_READS } from '../../src/sources/chainState/chainStateReader';
import { readBuffers } from '../../src/sources/chainState/v3/bufferReads';
import { FakeChainRpc, type FakeCall } from '../fakes/chainRpcServer';
import { FakeV3Vault } from '../fakes/v3VaultFake';
import { nodeRpc } from '../helpers/nodeRpc';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { followStatus, untilFollow } from '../helpers/followStatus';
import {
  buffer,
  catalogueStable,
  catalogueWeighted,
  S,
  stable,
  USDT,
  W,
  WAUSDC,
  weighted,
} from '../helpers/v3FollowFixtures';

/**
 * The head follower's V3 reads against a node that lies while a V3 swap, a buffer wrap or an
 * unwrap is mined: a null, empty (`0x`) or cut-short answer, another call's answer and an answer
 * from the block before each fail the step, are counted in /readyz, and publish nothing; once the
 * node is honest every V3 pool and buffer equals a fresh read of the chain, with the slow re-read
 * off. A pool or buffer the chain refuses after a good answer is reported and asked again at the
 * next block; a wrong answer no check can tell is healed by the slow re-read.
 */
const MAINNET = CHAINS.find((c) => c.id === 1)!;
const V3_VAULT = vaultOf(MAINNET, 3)!.toLowerCase();
const sel = (signature: string) => id(signature).slice(0, 10);
const GET_POOL_TOKEN_INFO = sel('getPoolTokenInfo(address)');
const TOTAL_SUPPLY = sel('totalSupply(address)');
const GET_BUFFER_BALANCE = sel('getBufferBalance(address)');
const GET_BUFFER_ASSET = sel('getBufferAsset(address)');
const CONVERT_TO_ASSETS = sel('convertToAssets(uint256)');
const abi = AbiCoder.defaultAbiCoder();

interface Follow {
  stateBlock: number | null;
  failures: number;
  malformedAnswers: number;
  recheck: { pools: number; mismatches: number; lastMismatch: { poolId: string } | null };
  dropped: { pools: number; buffers: number; last: { id: string; reason: string } | null };
}

let node: FakeChainRpc;
let v3: FakeV3Vault;
let srv: TestServer;

const follow = (): Promise<Follow> => followStatus<Follow>(srv.url);
const until = (what: string, ok: (f: Follow) => boolean): Promise<Follow> => untilFollow(srv.url, what, ok);

/** A V3 Vault as the fixtures start: the chain before the test's trade. */
function vaultBefore(): FakeV3Vault {
  const v = new FakeV3Vault(V3_VAULT);
  v.addPool(weighted());
  v.addPool(stable());
  v.addBuffer(buffer());
  v.erc20Decimals.set(USDT, 6);
  return v;
}

/** The node's honest answer to `c` now (for lies built from it). */
const honest = (c: FakeCall & { data?: string }): string => v3.call({ to: c.to!, data: c.data! })!;

const start = (env: Record<string, string> = {}) =>
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
      features: [headFollowFeature],
      background: true,
      seed: [{ chainId: 1, pools: [catalogueWeighted(), catalogueStable()] }],
    },
  );

beforeEach(async () => {
  node = await FakeChainRpc.start(MAINNET.vault, []);
  v3 = vaultBefore();
  node.contractCall = v3.call;
});

afterEach(async () => {
  await srv.close();
  await node.close();
});

/** Every V3 pool and buffer served equals a read of the node now (honest again). */
async function expectEveryPoolAndBufferFresh(): Promise<void> {
  const state = srv.ctx.readModel.chainState(1)!;
  expect(state.block.number).toBe(node.head.number);
  const rpc = nodeRpc(node.url);
  const pools = srv.ctx.readModel.get(1)!.pools;
  const fresh = await readPoolStates(rpc, V3_VAULT, pools, node.head.number, undefined, V3_VAULT_READS);
  expect([...state.pools.keys()].sort()).toEqual([...fresh.keys()].sort());
  for (const [poolId, s] of fresh)
    expect({ poolId, same: sameState(state.pools.get(poolId), s) }).toEqual({ poolId, same: true });
  const { buffers } = await readBuffers(rpc, V3_VAULT, [WAUSDC, USDT], node.head.number);
  expect(state.buffers).toEqual(buffers);
}

type Lie = (node: FakeChainRpc, before: FakeV3Vault) => void;

const onCall =
  (selector: string, answer: (c: FakeCall & { data?: string }) => unknown): Lie =>
  (n) =>
    (n.lie = (c) => (c.selector === selector ? { result: answer(c) } : undefined));

/** `eth_call`s answered from the block before the one asked: the V3 Vault and tokens as they were. */
const blockBefore: Lie = (n, before) => {
  n.answerFromBlocksBack = 1;
  n.contractCall = (c) => (c.block < n.head.number ? before.call(c) : v3.call(c));
};

const lyingModes = (selector: string, another: (c: FakeCall & { data?: string }) => unknown): [string, Lie][] => [
  ['null', onCall(selector, () => null)],
  ['empty data (0x)', onCall(selector, () => '0x')],
  ['a result cut short', onCall(selector, (c) => honest(c).slice(0, -2))],
  ["another call's answer", onCall(selector, another)],
  ['the block before', blockBefore],
];

/** The trades each lie meets: a swap in the stable pool, a wrap and an unwrap of its buffer. */
const trades: [string, string, (c: FakeCall & { data?: string }) => unknown, () => void][] = [
  [
    'a V3 swap (getPoolTokenInfo)',
    GET_POOL_TOKEN_INFO,
    // The weighted pool's token info for the stable pool's.
    () => v3.call({ to: V3_VAULT, data: GET_POOL_TOKEN_INFO + abi.encode(['address'], [W]).slice(2) }),
    () => {
      v3.pools.get(S)!.balancesRaw = [960_000_000n, 1_009_000_000n];
      node.mine([], [v3.swapLog(S)]);
    },
  ],
  [
    'a buffer wrap (getBufferBalance)',
    GET_BUFFER_BALANCE,
    // The balances the other way round, as another token's buffer could hold them.
    () =>
      abi.encode(
        ['uint256', 'uint256'],
        [v3.buffers.get(WAUSDC)!.wrappedBalance, v3.buffers.get(WAUSDC)!.underlyingBalance],
      ),
    () => {
      const b = v3.buffers.get(WAUSDC)!;
      b.underlyingBalance += 100_000_000n;
      b.wrappedBalance -= 90_000_000n;
      node.mine([], [v3.wrapLog(WAUSDC)]);
    },
  ],
  [
    'a buffer wrap (getBufferAsset)',
    GET_BUFFER_ASSET,
    // The buffer's balances read as an address.
    (c) => honest({ ...c, data: GET_BUFFER_BALANCE + c.data!.slice(10) }),
    () => {
      const b = v3.buffers.get(WAUSDC)!;
      b.underlyingBalance += 50_000_000n;
      b.wrappedBalance -= 45_000_000n;
      node.mine([], [v3.wrapLog(WAUSDC)]);
    },
  ],
  [
    'a buffer unwrap (convertToAssets)',
    CONVERT_TO_ASSETS,
    // The token's totalSupply for its share price.
    () => abi.encode(['uint256'], [v3.buffers.get(WAUSDC)!.token.totalSupply]),
    () => {
      const b = v3.buffers.get(WAUSDC)!;
      b.underlyingBalance -= 100_000_000n;
      b.wrappedBalance += 90_000_000n;
      b.token.totalAssets += 7_000_000n;
      node.mine([], [v3.unwrapLog(WAUSDC)]);
    },
  ],
];

/**
 * Every mode with the slow re-read off, and the block before with it on too (it must not mask it);
 * the block before is one lie for the whole Vault, met once per trade.
 */
const cases = trades.flatMap(([trade, selector, another, mine]) =>
  lyingModes(selector, another)
    .filter(([mode]) => mode !== 'the block before' || selector !== GET_BUFFER_ASSET)
    .flatMap(([mode, lie]) => [
      [trade, mode, 'off', lie, mine] as const,
      ...(mode === 'the block before' ? [[trade, mode, 'on', lie, mine] as const] : []),
    ]),
);

test.each(cases)(
  '%s answered with %s (slow re-read %s): the step fails, /readyz counts it, and once the node is honest every V3 pool and buffer is the chain',
  async (_trade, _mode, recheck, lie, mine) => {
    srv = await start({ FOLLOW_RECHECK_CALLS_PER_SECOND: recheck === 'on' ? '200' : '0' });
    await until('the first read', (f) => f.stateBlock === 100);
    const served = srv.ctx.readModel.chainState(1)!;
    lie(node, vaultBefore());
    mine();
    const failing = await until('a failed poll', (f) => f.failures > 0);
    expect(failing.malformedAnswers).toBeGreaterThan(0);
    // Nothing of the lying block is served.
    expect(srv.ctx.readModel.chainState(1)).toBe(served);

    node.lie = undefined;
    node.answerFromBlocksBack = 0;
    node.contractCall = v3.call;
    await until('recovery', (f) => f.stateBlock === node.head.number && f.failures === 0);
    await expectEveryPoolAndBufferFresh();
    expect((await follow()).dropped).toEqual({ pools: 0, buffers: 0, last: null });
  },
);

test('a buffer whose token refuses its share price after a good answer is dropped, said in /readyz, and back at the next block', async () => {
  srv = await start();
  await until('the first read', (f) => f.stateBlock === 100);
  node.callError = (c) => (c.selector === CONVERT_TO_ASSETS ? { code: 3, message: 'execution reverted' } : undefined);
  node.mine([]);
  const dropped = await until('the drop', (f) => f.dropped.buffers === 1 && f.stateBlock === 101);
  expect(dropped.stateBlock).toBe(101);
  expect(dropped.dropped.last).toMatchObject({ id: WAUSDC, reason: expect.stringMatching(/convertToAssets/) });
  expect(srv.ctx.readModel.chainState(1)!.buffers?.has(WAUSDC)).toBe(false);

  node.callError = undefined;
  node.mine([]);
  await until('block 102', (f) => f.stateBlock === 102);
  expect(srv.ctx.readModel.chainState(1)!.buffers?.has(WAUSDC)).toBe(true);
  await expectEveryPoolAndBufferFresh();
  expect((await follow()).dropped.buffers).toBe(1);
});

test('a pool the Vault refuses after a good answer is dropped, said in /readyz, and back at the next block', async () => {
  srv = await start();
  await until('the first read', (f) => f.stateBlock === 100);
  const notRegistered = sel('PoolNotRegistered(address)') + zeroPadValue(S, 32).slice(2);
  node.callError = (c) =>
    c.selector === GET_POOL_TOKEN_INFO && node.head.number === 101
      ? { code: 3, message: 'execution reverted', data: notRegistered }
      : undefined;
  v3.pools.get(S)!.balancesRaw = [960_000_000n, 1_009_000_000n];
  node.mine([], [v3.swapLog(S)]);
  const dropped = await until('the drop', (f) => f.dropped.pools === 1 && f.stateBlock === 101);
  expect(dropped.dropped.last).toMatchObject({ id: S, reason: expect.stringMatching(/refused/) });
  expect(srv.ctx.readModel.chainState(1)!.pools.has(S)).toBe(false);

  node.mine([]);
  await until('block 102', (f) => f.stateBlock === 102);
  expect(srv.ctx.readModel.chainState(1)!.pools.has(S)).toBe(true);
  await expectEveryPoolAndBufferFresh();
});

test('a V3 answer no check can tell (a plausible other supply) is healed by the slow re-read and counted', async () => {
  // At the first read the node answers the weighted pool's supply with another figure.
  const askW = TOTAL_SUPPLY + abi.encode(['address'], [W]).slice(2);
  node.lie = (c) => (c.data === askW ? { result: abi.encode(['uint256'], [199n * 10n ** 18n]) } : undefined);
  srv = await start({ FOLLOW_RECHECK_CALLS_PER_SECOND: '200' });
  await until('the first read', (f) => f.stateBlock === 100);
  expect(srv.ctx.readModel.chainState(1)!.pools.get(W)!.totalSupply).toBe(199n * 10n ** 18n);
  node.lie = undefined;
  // Blocks that name no pool: only the re-read reaches the weighted pool (the stable one's rate
  // provider has it read at every block).
  for (let i = 0; i < 4; i++) {
    node.mine([]);
    await until(`block ${node.head.number}`, (f) => f.stateBlock === node.head.number);
  }
  const f = await follow();
  expect(f.recheck.mismatches).toBe(1);
  expect(f.recheck.lastMismatch?.poolId).toBe(W);
  await expectEveryPoolAndBufferFresh();
});

test('a buffer an answer hid (a zero asset at the first read) is found by the slow re-read, counted and served', async () => {
  node.lie = (c) =>
    c.selector === GET_BUFFER_ASSET ? { result: abi.encode(['address'], [`0x${'0'.repeat(40)}`]) } : undefined;
  srv = await start({ FOLLOW_RECHECK_CALLS_PER_SECOND: '200' });
  await until('the first read', (f) => f.stateBlock === 100);
  expect(srv.ctx.readModel.chainState(1)!.buffers?.has(WAUSDC)).toBe(false);
  node.lie = undefined;
  // Blocks that name no buffer: only the re-read asks about the token again.
  for (let i = 0; i < 10 && srv.ctx.readModel.chainState(1)!.buffers?.has(WAUSDC) !== true; i++) {
    node.mine([]);
    await until(`block ${node.head.number}`, (f) => f.stateBlock === node.head.number);
  }
  const f = await follow();
  expect(f.recheck.mismatches).toBeGreaterThanOrEqual(1);
  expect(f.recheck.lastMismatch?.poolId).toBe(WAUSDC);
  await expectEveryPoolAndBufferFresh();
});

test("a buffer whose tokens' own answers keep disagreeing fails a few tries, then is refused alone and the chain goes on", async () => {
  srv = await start();
  await until('the first read', (f) => f.stateBlock === 100);
  // A token anyone can deploy: its share price is its totalSupply, which its previews exceed, at every block.
  onCall(CONVERT_TO_ASSETS, () => abi.encode(['uint256'], [v3.buffers.get(WAUSDC)!.token.totalSupply]))(node, v3);
  node.mine([]);
  const refused = await until('the buffer refused', (f) => f.stateBlock === 101);
  expect(refused.failures).toBe(0);
  expect(refused.malformedAnswers).toBeGreaterThan(0);
  expect(refused.dropped.buffers).toBe(1);
  expect(refused.dropped.last).toMatchObject({ id: WAUSDC, reason: expect.stringMatching(/reads in a row/) });
  expect(srv.ctx.readModel.chainState(1)!.buffers?.has(WAUSDC)).toBe(false);

  node.lie = undefined;
  node.mine([]);
  await until('block 102', (f) => f.stateBlock === 102);
  await expectEveryPoolAndBufferFresh();
});

test('an add of nothing (every amount 0) leaves the pool as it was, and the step goes on', async () => {
  srv = await start();
  await until('the first read', (f) => f.stateBlock === 100);
  node.mine([], [v3.liquidityAddedLog(S, [0n, 0n])]);
  const after = await until('block 101', (f) => f.stateBlock === 101);
  expect(after.failures).toBe(0);
  expect(after.malformedAnswers).toBe(0);
  await expectEveryPoolAndBufferFresh();
});
