import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqliteStore';
import { applyChanges, makePool, storeContract } from './storeContract';

let dir: string;
storeContract(
  'SqliteStore',
  async () => {
    dir = mkdtempSync(join(tmpdir(), 'bps-sqlite-'));
    return new SqliteStore(join(dir, 'store.sqlite'), 20);
  },
  async () => rmSync(dir, { recursive: true, force: true }),
);

describe('SqliteStore across processes', () => {
  test('a commit by another connection (e.g. `npm run seed`) reaches meta listeners', async () => {
    const d = mkdtempSync(join(tmpdir(), 'bps-sqlite-'));
    const server = new SqliteStore(join(d, 's.sqlite'), 20);
    const seeder = new SqliteStore(join(d, 's.sqlite'), 0);
    const seen: number[] = [];
    server.onMetaChange(1, (m) => seen.push(m.poolsVersion));
    await seeder.commit(1, { pools: [makePool(1)], bumpPoolsVersion: true });
    const deadline = Date.now() + 3000;
    while (seen.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([1]);
    expect(await server.listPools(1)).toHaveLength(1);
    await seeder.close();
    await server.close();
    rmSync(d, { recursive: true, force: true });
  });
});

describe('SqliteStore on a file written by an earlier version', () => {
  test('leases from before leases recorded their start still work, and new ones record it', async () => {
    const d = mkdtempSync(join(tmpdir(), 'bps-sqlite-'));
    const old = new Database(join(d, 's.sqlite'));
    old.exec(
      'CREATE TABLE leases (scope TEXT NOT NULL, job TEXT NOT NULL, owner TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (scope, job)) WITHOUT ROWID',
    );
    old.prepare('INSERT INTO leases VALUES (?, ?, ?, ?)').run('1', 'update-pools', 'old-instance:1', 5_000);
    old.close();
    const store = new SqliteStore(join(d, 's.sqlite'), 0);
    expect(await store.readLease('1', 'update-pools')).toEqual({
      owner: 'old-instance:1',
      acquiredAtMs: 0,
      expiresAtMs: 5_000,
    });
    expect(
      await store.acquireLease({ scope: '1', job: 'update-pools', owner: 'new:1', ttlMs: 15_000, nowMs: 6_000 }),
    ).toBe(true);
    expect(await store.readLease('1', 'update-pools')).toEqual({
      owner: 'new:1',
      acquiredAtMs: 6_000,
      expiresAtMs: 21_000,
    });
    await store.close();
    rmSync(d, { recursive: true, force: true });
  });
});

describe('SqliteStore pool changes', () => {
  let d: string;
  beforeEach(() => {
    d = mkdtempSync(join(tmpdir(), 'bps-sqlite-'));
  });
  afterEach(() => rmSync(d, { recursive: true, force: true }));

  test('a file written before pool rows carried versions answers changes only from its first commit here', async () => {
    const old = new Database(join(d, 's.sqlite'));
    old.exec(`
      CREATE TABLE chains (chain_id INTEGER PRIMARY KEY, pools_version INTEGER NOT NULL,
        tokens_version INTEGER NOT NULL, jobs TEXT NOT NULL);
      CREATE TABLE pools (chain_id INTEGER NOT NULL, id TEXT NOT NULL, doc TEXT NOT NULL,
        PRIMARY KEY (chain_id, id)) WITHOUT ROWID;
    `);
    old.prepare('INSERT INTO chains VALUES (1, 4, 0, ?)').run('{}');
    for (const i of [1, 2, 3])
      old.prepare('INSERT INTO pools VALUES (1, ?, ?)').run(makePool(i).id, JSON.stringify(makePool(i)));
    old.close();

    const store = new SqliteStore(join(d, 's.sqlite'), 0);
    expect(await store.listPools(1)).toEqual([makePool(1), makePool(2), makePool(3)]);
    // The old rows say nothing of when they were written.
    expect(await store.listPoolChanges(1, 4)).toBeUndefined();
    await store.commit(1, {
      pools: [makePool(2, { swapFee: '0.02' })],
      deletePoolIds: [makePool(3).id],
      bumpPoolsVersion: true,
    });
    // A reader at 4 may have missed a write the old code made at 4 without bumping: still unknown.
    expect(await store.listPoolChanges(1, 4)).toBeUndefined();
    const held = await store.listPools(1);
    await store.commit(1, { pools: [makePool(1, { swapFee: '0.01' })], bumpPoolsVersion: true });
    const changes = await store.listPoolChanges(1, 5);
    expect(changes).toMatchObject({ version: 6, deletedIds: [], total: 2 });
    expect(applyChanges(held, changes!)).toEqual(await store.listPools(1));
    await store.close();
  });

  test('pruned tombstones make versions from before them unanswerable, later ones still answer', async () => {
    const store = new SqliteStore(join(d, 's.sqlite'), 0, 3);
    await store.commit(1, { pools: [1, 2, 3, 4].map((i) => makePool(i)), bumpPoolsVersion: true }); // 1
    await store.commit(1, { deletePoolIds: [makePool(1).id], bumpPoolsVersion: true }); // 2
    await store.commit(1, { pools: [makePool(2, { swapFee: '0.02' })], bumpPoolsVersion: true }); // 3
    await store.commit(1, { pools: [makePool(3, { swapFee: '0.03' })], bumpPoolsVersion: true }); // 4
    expect((await store.listPoolChanges(1, 1))?.deletedIds).toEqual([makePool(1).id]);
    await store.commit(1, { pools: [makePool(4, { swapFee: '0.04' })], bumpPoolsVersion: true }); // 5: drops version 2's tombstone
    expect(await store.listPoolChanges(1, 1)).toBeUndefined();
    expect((await store.listPoolChanges(1, 2))?.pools.map((p) => p.symbol).sort()).toEqual(['P2', 'P3', 'P4']);
    await store.close();
  });
});
