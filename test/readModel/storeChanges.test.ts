import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BlockRef } from '../../src/domain/chainState';
import type { StoredPool } from '../../src/domain/pool';
import { silentLogger } from '../../src/log/logger';
import type { ChainSnapshot } from '../../src/readModel/chainSnapshot';
import { ReadModel } from '../../src/readModel/readModel';
import { poolDelta } from '../../src/routing/poolVersions';
import { SqliteStore } from '../../src/store/sqliteStore';
import { makePool, makeToken } from '../store/storeContract';

/**
 * A reload after a commit reads only what changed: the pools the commit left alone keep their
 * objects (so the quote threads get a delta of the changed pools only), and the snapshot is the one
 * a full load from the store gives.
 */
let dir: string;
let store: SqliteStore;
let model: ReadModel;
const models: ReadModel[] = [];
const stores: SqliteStore[] = [];

function open(pollMs = 0, changeVersionsKept?: number): SqliteStore {
  const s = new SqliteStore(join(dir, 'test.sqlite'), pollMs, changeVersionsKept);
  stores.push(s);
  return s;
}

async function startModel(on: SqliteStore, checkIntervalMs = 0): Promise<ReadModel> {
  const m = new ReadModel({ store: on, chainIds: [1], logger: silentLogger(), checkIntervalMs });
  models.push(m);
  await m.start();
  return m;
}

/** What a read model that loads everything from the store now shows. */
async function fullLoad(): Promise<ChainSnapshot> {
  return (await startModel(open())).get(1)!;
}

function shared(a: ChainSnapshot, b: ChainSnapshot): string[] {
  return b.pools.filter((p) => a.poolsById.get(p.id) === p).map((p) => p.symbol!);
}

const POOLS = 40;
const all = Array.from({ length: POOLS }, (_, i) => makePool(i + 1));

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bps-storechanges-'));
  store = open();
  await store.commit(1, {
    pools: all,
    tokens: [makeToken('0x00000000000000000000000000000000000000aa')],
    bumpPoolsVersion: true,
    bumpTokensVersion: true,
  });
  model = await startModel(store);
});

afterEach(async () => {
  for (const m of models.splice(0)) m.stop();
  for (const s of stores.splice(0)) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

test('one pool changed of many: the new snapshot keeps every other pool object and equals a full load', async () => {
  const before = model.get(1)!;
  await store.commit(1, { pools: [makePool(7, { swapFee: '0.07' })], bumpPoolsVersion: true });
  const after = await model.refresh(1);
  expect(after.poolsVersion).toBe(2);
  expect(after.poolsById.get(makePool(7).id)!.swapFee).toBe('0.07');
  expect(shared(before, after)).toHaveLength(POOLS - 1);
  expect(shared(before, after)).not.toContain('P7');
  const full = await fullLoad();
  expect(after.pools).toEqual(full.pools);
  expect(after.tokens).toEqual(full.tokens);
  // What the quote threads receive: one pool.
  const delta = poolDelta(before.pools, after.pools);
  expect(delta.upserts.map((p) => p.spec.id)).toEqual([makePool(7).id]);
  expect(delta.removed).toEqual([]);
  // The store's pools at that version, for the jobs.
  expect(model.storePools(1)).toEqual({ version: 2, pools: full.pools });
  expect(model.storePools(1)!.pools).toBe(after.pools);
});

test('deletions and additions land in id order; a pool written again unchanged keeps its object', async () => {
  const before = model.get(1)!;
  await store.commit(1, {
    pools: [makePool(0), makePool(20), makePool(1000), makePool(15, { isPaused: true })],
    deletePoolIds: [makePool(1).id, makePool(30).id],
    bumpPoolsVersion: true,
  });
  const after = await model.refresh(1);
  const full = await fullLoad();
  expect(after.pools).toEqual(full.pools);
  expect(after.pools.map((p) => p.id)).toEqual([...after.pools.map((p) => p.id)].sort());
  expect(after.poolsById.has(makePool(1).id)).toBe(false);
  expect(after.poolsById.has(makePool(1000).id)).toBe(true);
  expect(after.poolsById.get(makePool(20).id)).toBe(before.poolsById.get(makePool(20).id));
  expect(shared(before, after)).toHaveLength(POOLS - 3); // minus two deleted, one changed
  // Nothing changed at all: the same pools array, and the `/pools` body is not serialized again.
  const body = after.poolsBody;
  await store.commit(1, { pools: [makePool(20)], bumpPoolsVersion: true });
  const unchanged = await model.refresh(1);
  expect(unchanged.poolsVersion).toBe(3);
  expect(unchanged.pools).toBe(after.pools);
  expect(unchanged.poolsBody).toBe(body);
});

test('a write that does not bump the version shows with the next bump', async () => {
  await store.commit(1, { pools: [makePool(3, { name: 'quiet' })] });
  expect((await model.refresh(1)).poolsById.get(makePool(3).id)!.name).toBe('Pool 3');
  await store.commit(1, { pools: [makePool(4, { name: 'loud' })], bumpPoolsVersion: true });
  const after = await model.refresh(1);
  expect(after.poolsById.get(makePool(3).id)!.name).toBe('quiet');
  expect(after.poolsById.get(makePool(4).id)!.name).toBe('loud');
  expect(after.pools).toEqual((await fullLoad()).pools);
});

test('a commit whose notification is lost (another process, no polling) is picked up by the periodic check', async () => {
  const reader = open(0);
  const watching = await startModel(reader, 30);
  const before = watching.get(1)!;
  const writer = open(0);
  await writer.commit(1, {
    pools: [makePool(9, { swapFee: '0.09' })],
    deletePoolIds: [makePool(10).id],
    bumpPoolsVersion: true,
  });
  const deadline = Date.now() + 5000;
  while (watching.get(1)!.poolsVersion < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  const after = watching.get(1)!;
  expect(after.poolsVersion).toBe(2);
  expect(shared(before, after)).toHaveLength(POOLS - 2);
  expect(after.pools).toEqual((await fullLoad()).pools);
});

test('the chain state set by the follower stays laid over pools reloaded from the store', async () => {
  const POOL_A = makePool(5).id;
  const weth = makePool(5).tokens[0]!.address;
  const usdc = makePool(5).tokens[1]!.address;
  const block: BlockRef = { number: 100, hash: `0x${'1'.repeat(64)}`, parentHash: `0x${'0'.repeat(64)}`, timestamp: 1 };
  const set = model.setChainState(1, {
    block,
    pools: new Map([
      [
        POOL_A,
        {
          poolId: POOL_A,
          tokens: [
            { address: weth, balance: 42n * 10n ** 18n },
            { address: usdc, balance: 7n * 10n ** 6n },
          ],
        },
      ],
    ]),
  })!;
  const chainA = set.poolsById.get(POOL_A)!;
  expect(chainA.tokens.map((t) => t.balance)).toEqual(['42', '7']);

  // Another pool changes in the store: the chain's pool object stays as it was.
  await store.commit(1, { pools: [makePool(6, { swapFee: '0.06' })], bumpPoolsVersion: true });
  const other = await model.refresh(1);
  expect(other.block?.number).toBe(100);
  expect(other.poolsById.get(POOL_A)).toBe(chainA);
  expect(shared(set, other)).toHaveLength(POOLS - 1);

  // The followed pool changes in the store: its new store fields, the chain's balances.
  await store.commit(1, { pools: [makePool(5, { swapFee: '0.05' })], bumpPoolsVersion: true });
  const same = await model.refresh(1);
  const a = same.poolsById.get(POOL_A)!;
  expect(a.swapFee).toBe('0.05');
  expect(a.tokens.map((t) => t.balance)).toEqual(['42', '7']);
  // The store's pools stay without the chain state.
  const stored: StoredPool = model.storePools(1)!.pools.find((p) => p.id === POOL_A)!;
  expect(stored).toEqual(makePool(5, { swapFee: '0.05' }));
});

test('when the store cannot say what changed (pruned tombstones), every pool is read and the result is the same', async () => {
  const pruning = open(0, 1);
  const m = await startModel(pruning);
  const before = m.get(1)!;
  await pruning.commit(1, { deletePoolIds: [makePool(2).id], bumpPoolsVersion: true });
  await pruning.commit(1, { deletePoolIds: [makePool(3).id], bumpPoolsVersion: true });
  await pruning.commit(1, { pools: [makePool(4, { swapFee: '0.04' })], bumpPoolsVersion: true });
  expect(await pruning.listPoolChanges(1, 1)).toBeUndefined();
  const after = await m.refresh(1);
  expect(after.poolsVersion).toBe(4);
  expect(after.pools).toEqual((await fullLoad()).pools);
  expect(shared(before, after)).toHaveLength(0);
});
