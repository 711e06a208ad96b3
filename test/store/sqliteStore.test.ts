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
