import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Address } from '../../src/domain/address';
import { applyChainState, type BlockRef, type PoolChainState } from '../../src/domain/chainState';
import { silentLogger } from '../../src/log/logger';
import { ReadModel } from '../../src/readModel/readModel';
import { SqliteStore } from '../../src/store/sqliteStore';
import { storedPool } from '../helpers/poolFixtures';

/**
 * The chain's state laid over the store's pools: what a followed node says wins over the
 * subgraph's values, also after a reload from the store, and a block that changes no pool keeps
 * the pools (and every cache built on them) as they were.
 */
const WETH = '0x00000000000000000000000000000000000000e1' as Address;
const USDC = '0x00000000000000000000000000000000000000c1' as Address;
const POOL_A = '0x1000000000000000000000000000000000000001000200000000000000000001';
const POOL_B = '0x2000000000000000000000000000000000000002000200000000000000000002';

const token = (address: Address, decimals: number, balance: string) => ({
  address,
  symbol: null,
  name: null,
  decimals,
  balance,
  weight: '0.5',
  priceRate: '1',
});

function pools(balanceA: string) {
  return [
    storedPool({ id: POOL_A, tokens: [token(WETH, 18, balanceA), token(USDC, 6, '2000')] }),
    storedPool({ id: POOL_B, tokens: [token(WETH, 18, '5'), token(USDC, 6, '10000')] }),
  ];
}

function block(n: number): BlockRef {
  const h = (x: number) => `0x${x.toString(16).padStart(64, '0')}`;
  return { number: n, hash: h(n), parentHash: h(n - 1), timestamp: 1_700_000_000 + 12 * n };
}

const stateA = (weth: bigint, usdc: bigint, swapFee?: bigint): PoolChainState => ({
  poolId: POOL_A,
  tokens: [
    { address: WETH, balance: weth },
    { address: USDC, balance: usdc },
  ],
  ...(swapFee === undefined ? {} : { swapFee }),
});

let dir: string;
let store: SqliteStore;
let model: ReadModel;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bps-chainstate-'));
  store = new SqliteStore(join(dir, 'test.sqlite'), 50);
  await store.commit(1, { pools: pools('1'), bumpPoolsVersion: true });
  model = new ReadModel({ store, chainIds: [1], logger: silentLogger(), now: Date.now, checkIntervalMs: 0 });
  await model.start();
});

afterEach(() => {
  model.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('balances and fee read at a block replace the stored ones exactly, tagged with the block', () => {
  const before = model.get(1)!;
  expect(before.block).toBeNull();
  const snap = model.setChainState(1, {
    block: block(100),
    pools: new Map([[POOL_A, stateA(1_234_567_890_123_456_789n, 2_500_000_001n, 2_500_000_000_000_000n)]]),
  })!;
  expect(snap.block?.number).toBe(100);
  const a = snap.poolsById.get(POOL_A)!;
  expect(a.tokens.map((t) => t.balance)).toEqual(['1.234567890123456789', '2500.000001']);
  expect(a.swapFee).toBe('0.0025');
  // A pool the follower has not read keeps the subgraph's values.
  expect(snap.poolsById.get(POOL_B)).toBe(before.poolsById.get(POOL_B));
  expect(snap.poolsById.get(POOL_B)!.tokens[0]!.balance).toBe('5');
});

test('a reload from the store (a subgraph update with older balances) keeps the chain values', async () => {
  model.setChainState(1, { block: block(100), pools: new Map([[POOL_A, stateA(3n * 10n ** 18n, 7_000_000n)]]) });
  await store.commit(1, { pools: pools('1.5'), bumpPoolsVersion: true });
  const reloaded = await model.refresh(1);
  expect(reloaded.poolsVersion).toBe(2);
  expect(reloaded.block?.number).toBe(100);
  expect(reloaded.poolsById.get(POOL_A)!.tokens.map((t) => t.balance)).toEqual(['3', '7']);
});

test('a block that changes no pool keeps the pools array; one that changes a pool rebuilds only that pool', () => {
  const s = stateA(2n * 10n ** 18n, 3_000_000n);
  const first = model.setChainState(1, { block: block(100), pools: new Map([[POOL_A, s]]) })!;
  const same = model.setChainState(1, { block: block(101), pools: new Map([[POOL_A, s]]) })!;
  expect(same.block?.number).toBe(101);
  expect(same.pools).toBe(first.pools);
  const moved = model.setChainState(1, {
    block: block(102),
    pools: new Map([[POOL_A, stateA(1n, 1n)]]),
  })!;
  expect(moved.pools).not.toBe(first.pools);
  expect(moved.poolsById.get(POOL_B)).toBe(first.poolsById.get(POOL_B));
  expect(moved.poolsById.get(POOL_A)!.tokens[0]!.balance).toBe('0.000000000000000001');
});

test('a pool the chain lists with other tokens than the catalogue stays as the subgraph has it', () => {
  const stored = pools('1')[0]!;
  const other = applyChainState(stored, {
    poolId: POOL_A,
    tokens: [
      { address: WETH, balance: 1n },
      { address: '0x00000000000000000000000000000000000000d1', balance: 1n },
    ],
  });
  expect(other).toBe(stored);
});

test('a pool whose every balance is zero on chain is not routable', () => {
  const stored = pools('1')[0]!;
  expect(applyChainState(stored, stateA(0n, 0n)).routable).toBe(false);
  expect(applyChainState(stored, stateA(0n, 1n)).routable).toBe(true);
});
