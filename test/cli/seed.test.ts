import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { silentLogger } from '../../src/log/logger';
import { loadConfig } from '../../src/config/env';
import { createContext, startServer } from '../../src/server';
import { SqliteStore } from '../../src/store/sqliteStore';
import { Emulator, firestoreStore, startEmulator } from '../helpers/firestoreEmulator';
import { runCli } from '../helpers/runCli';
import { describeWithSnapshot, SNAPSHOT_FILE } from '../helpers/snapshot';

describeWithSnapshot('npm run seed', () => {
  let dir: string;
  let emulator: Emulator;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bps-seed-'));
    emulator = await startEmulator();
  });
  afterAll(async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  async function poolsBody(store: SqliteStore | ReturnType<typeof firestoreStore>): Promise<string> {
    const ctx = await createContext(loadConfig({ NETWORKS: '1' }), { logger: silentLogger(), store });
    const srv = await startServer(ctx, 0, { host: '127.0.0.1', features: [] });
    try {
      return (await request(srv.url).get('/pools/1').expect(200)).text;
    } finally {
      await srv.close();
    }
  }

  test('seeds SQLite and Firestore from the snapshot; both serve the same GET /pools/1 body', async () => {
    const sqlite = await runCli('src/cli/seed.ts', ['--chain', '1', '--file', SNAPSHOT_FILE], {
      STORE: 'sqlite',
      DATA_DIR: dir,
    });
    expect(sqlite.stderr).toBe('');
    expect(sqlite.code).toBe(0);
    expect(sqlite.stdout).toMatch(
      /seeded chain 1 \(mainnet\) into sqlite: 372 pools read, 372 written, 0 skipped, \d+ new tokens .*poolsVersion 1/,
    );

    const project = `seed-test-${process.pid}`;
    const fs = await runCli('src/cli/seed.ts', ['--chain', 'mainnet', '--file', SNAPSHOT_FILE], {
      STORE: 'firestore',
      FIRESTORE_EMULATOR_HOST: emulator.host,
      GOOGLE_CLOUD_PROJECT: project,
    });
    expect(fs.code).toBe(0);
    expect(fs.stdout).toMatch(/into firestore: 372 pools read, 372 written/);

    const fromSqlite = await poolsBody(new SqliteStore(join(dir, 'balancer-pools.sqlite'), 0));
    const fromFirestore = await poolsBody(firestoreStore(emulator.client(project)));
    expect(JSON.parse(fromSqlite)).toHaveLength(372);
    expect(fromFirestore).toBe(fromSqlite);

    // Seeding the same file again changes nothing and keeps the version.
    const again = await runCli('src/cli/seed.ts', ['--chain', '1', '--file', SNAPSHOT_FILE], {
      STORE: 'sqlite',
      DATA_DIR: dir,
    });
    expect(again.stdout).toMatch(/372 pools read, 0 written, 0 skipped, 0 new tokens .*poolsVersion 1/);
  });

  test('bad input is refused with a clear message and stores nothing', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ notPools: [] }));
    const r = await runCli('src/cli/seed.ts', ['--chain', '1', '--file', bad], {
      STORE: 'sqlite',
      DATA_DIR: join(dir, 'other'),
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/seed failed: expected an array of pools or an object with a "pools" array/);
    const noChain = await runCli('src/cli/seed.ts', ['--chain', 'moon', '--file', bad], {
      STORE: 'sqlite',
      DATA_DIR: dir,
    });
    expect(noChain.stderr).toMatch(/--chain: unknown chain 'moon'/);
  });
});
