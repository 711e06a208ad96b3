import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppContext } from '../../src/appContext';
import { chainById } from '../../src/config/chains';
import type { Address } from '../../src/domain/address';
import type { BlockRef, PoolChainState } from '../../src/domain/chainState';
import type { StoredPool } from '../../src/domain/pool';
import type { ChainReads } from '../../src/domain/poolTypes/chainReads';
import { retimed } from '../../src/jobs/retime';
import { silentLogger } from '../../src/log/logger';
import { ReadModel } from '../../src/readModel/readModel';
import { SqliteStore } from '../../src/store/sqliteStore';
import { storedPool } from '../helpers/poolFixtures';

/**
 * An order on a chain that makes blocks on demand is priced where it lands: the pools whose
 * schedules move with time are evaluated at the chain's clock, published once per clock second,
 * and every answer's `pricedAt` is the time the pools it quoted hold at, whatever the order of
 * concurrent orders or a block the follower publishes meanwhile.
 */
const A = '0x1000000000000000000000000000000000000001000200000000000000000001';
const WETH = '0x00000000000000000000000000000000000000e1' as Address;
const USDC = '0x00000000000000000000000000000000000000c1' as Address;
const devnet = chainById(31337)!;
const mainnet = chainById(1)!;

/** A schedule whose value is its time: the served pool's swap fee says when it was evaluated. */
const clockReads = {
  apply: (pool: StoredPool, own: { at: bigint }) => ({ ...pool, swapFee: String(own.at) }),
  at: (own: { at: bigint }, t: bigint) => (own.at === t ? own : { at: t }),
  movesWithTime: () => true,
} as unknown as ChainReads;

const block = (n: number): BlockRef => {
  const h = (x: number) => `0x${x.toString(16).padStart(64, '0')}`;
  return { number: n, hash: h(n), parentHash: h(n - 1), timestamp: 1_800_000_000 + n };
};
const moving = (at: bigint): PoolChainState => ({
  poolId: A,
  tokens: [
    { address: WETH, balance: 10n ** 18n },
    { address: USDC, balance: 10n ** 9n },
  ],
  own: { reads: clockReads, state: { at } },
});
const token = (address: Address, decimals: number) => ({
  address,
  symbol: null,
  name: null,
  decimals,
  balance: '1',
  weight: '0.5',
  priceRate: '1',
});

let dir: string;
let model: ReadModel;
let ctx: AppContext;
const fee = () => model.get(31337)!.pools[0]!.swapFee;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bps-retime-'));
  const store = new SqliteStore(join(dir, 'test.sqlite'), 50);
  await store.commit(31337, {
    pools: [storedPool({ id: A, tokens: [token(WETH, 18), token(USDC, 6)] })],
    bumpPoolsVersion: true,
  });
  model = new ReadModel({ store, chainIds: [31337], logger: silentLogger(), now: Date.now, checkIntervalMs: 0 });
  await model.start();
  ctx = { readModel: model } as unknown as AppContext;
  // As the follower publishes a block: evaluated at the block after it.
  const b = block(10);
  model.setChainState(31337, { block: b, pools: new Map([[A, moving(BigInt(b.timestamp + 1))]]) });
});
afterEach(() => {
  model.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('an order asked later than the block after the head is priced at the clock, and says so', () => {
  const head = block(10);
  const at = head.timestamp + 30;
  const t = retimed(ctx, devnet, model.get(31337)!, at);
  expect(t.pricedAt).toBe(at);
  expect(t.snap.pools[0]!.swapFee).toBe(String(at));
  expect(fee()).toBe(String(at));
});

test('concurrent orders: one whose clock is older quotes at the state time, never labelled with its own', () => {
  const head = block(10);
  const snap = model.get(31337)!;
  const later = retimed(ctx, devnet, snap, head.timestamp + 20);
  const earlier = retimed(ctx, devnet, snap, head.timestamp + 10);
  expect(earlier.pricedAt).toBe(head.timestamp + 20);
  expect(earlier.snap).toBe(later.snap);
  expect(earlier.snap.pools[0]!.swapFee).toBe(String(earlier.pricedAt));
});

test('a block published meanwhile: the order stays at its own block and its own time', () => {
  const snap = model.get(31337)!;
  const next = block(11);
  model.setChainState(31337, { block: next, pools: new Map([[A, moving(BigInt(next.timestamp + 1))]]) });
  const t = retimed(ctx, devnet, snap, next.timestamp + 40);
  expect(t.snap).toBe(snap);
  expect(t.pricedAt).toBe(block(10).timestamp + 1);
  expect(t.snap.pools[0]!.swapFee).toBe(String(t.pricedAt));
  expect(fee()).toBe(String(next.timestamp + 1));
});

test('a chain on a timer is priced at its next slot: nothing is evaluated again', () => {
  const snap = model.get(31337)!;
  const t = retimed(ctx, mainnet, snap, block(10).timestamp + 30);
  expect(t.snap).toBe(snap);
  expect(fee()).toBe(String(block(10).timestamp + 1));
});
