import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqliteStore';
import { makePool, storeContract } from './storeContract';

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
