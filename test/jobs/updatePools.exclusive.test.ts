import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { SQLITE_FILE_NAME } from '../../src/store/createStore';
import { SqliteStore } from '../../src/store/sqliteStore';
import { FakeSubgraph, syntheticPools } from '../fakes/subgraphServer';
import { ROOT } from '../helpers/runCli';
import { startTestServer } from '../helpers/testServer';
import { Harness, startHarness, ViewPool } from './poolUpdateHarness';

describe('one pool update per chain at a time', () => {
  let h: Harness;
  afterEach(async () => h.close());

  test('a second update while one runs waits for it and answers its result: both 201, one walk of the subgraph', async () => {
    h = await startHarness(syntheticPools(30));
    // A slow subgraph keeps the first update running while the second arrives.
    h.fake.faults.delayMs = 400;
    const [a, b] = await Promise.all([h.update(), h.update()]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(h.fake.queries).toHaveLength(1);
    // The result was there when the waiting caller got its 201.
    expect(((await h.getJson('/pools/1')).body as ViewPool[]).length).toBe(30);
  });

  test("a second update while one runs gets that run's failure (502 naming the subgraph), not a busy answer", async () => {
    h = await startHarness(syntheticPools(30), { SUBGRAPH_RETRIES: '0' });
    h.fake.faults = { delayMs: 400, failPage: 1 };
    const [a, b] = await Promise.all([h.update(), h.update()]);
    expect([a.status, b.status]).toEqual([502, 502]);
    expect(b.json).toEqual({
      error: expect.stringContaining('subgraph: answered HTTP 500'),
      code: 502,
      reason: 'UPSTREAM_FAILED',
    });
    expect(h.fake.queries).toHaveLength(1);
  });

  test('an update while another instance runs it waits for that lease to free, then runs: 201', async () => {
    h = await startHarness(syntheticPools(12));
    const store = h.server.ctx.store;
    const nowMs = Date.now();
    expect(
      await store.acquireLease({
        scope: '1',
        job: 'update-pools',
        owner: 'other-instance:1:run',
        ttlMs: 15_000,
        nowMs,
      }),
    ).toBe(true);
    const update = h.update();
    await new Promise((r) => setTimeout(r, 700));
    expect(h.fake.requests).toBe(0);
    await store.releaseLease('1', 'update-pools', 'other-instance:1:run');
    expect((await update).status).toBe(201);
    expect(((await h.getJson('/pools/1')).body as ViewPool[]).length).toBe(12);
  });

  test('updates of different chains do not block each other', async () => {
    const mainnet = await FakeSubgraph.start(syntheticPools(10));
    const polygon = await FakeSubgraph.start(syntheticPools(12, { seed: 'polygon' }));
    const server = await startTestServer({
      NETWORKS: '1,137',
      SUBGRAPH_URL_1: mainnet.url,
      SUBGRAPH_URL_137: polygon.url,
    });
    h = {
      close: async () => Promise.all([server.close(), mainnet.close(), polygon.close()]).then(() => undefined),
    } as Harness;
    mainnet.faults.delayMs = 300;
    polygon.faults.delayMs = 300;
    const [r1, r137] = await Promise.all([
      fetch(`${server.url}/pools/1/update`, { method: 'POST' }),
      fetch(`${server.url}/pools/137/update`, { method: 'POST' }),
    ]);
    expect([r1.status, r137.status]).toEqual([201, 201]);
    expect(((await (await fetch(`${server.url}/pools/137`)).json()) as unknown[]).length).toBe(12);
    expect(((await (await fetch(`${server.url}/pools/1`)).json()) as unknown[]).length).toBe(10);
  });

  test('a holder that died without releasing: the answer names it, since when, and when to retry; the chain frees 15 s after its last renewal', async () => {
    let nowMs = Date.UTC(2026, 0, 1);
    // The clock stands still, so the dead lease never frees while a caller waits: it gives up at its deadline.
    h = await startHarness(syntheticPools(20), { UPDATE_POOLS_DEADLINE_SECONDS: '1' }, { now: () => nowMs });
    // Another instance took the lease and crashed: nobody renews or releases it.
    const taken = await h.server.ctx.store.acquireLease({
      scope: '1',
      job: 'update-pools',
      owner: '10.0.0.7:4242:abcd1234:run00001',
      ttlMs: 15_000,
      nowMs,
    });
    expect(taken).toBe(true);

    nowMs += 3_000;
    const blocked = await h.update();
    expect({ status: blocked.status, json: blocked.json, retryAfter: blocked.retryAfter }).toEqual({
      status: 503,
      json: {
        error:
          'a pool update for chain 1 is already running (since 2026-01-01T00:00:00.000Z on instance 10.0.0.7:4242:abcd1234); retry after 12 s',
        code: 503,
        reason: 'JOB_RUNNING',
        details: { retryAfterSeconds: 12 },
      },
      retryAfter: '12',
    });
    nowMs += 11_999;
    expect((await h.update()).status).toBe(503);
    expect(h.fake.requests).toBe(0);

    nowMs += 2;
    expect((await h.update()).status).toBe(201);
    expect(((await h.getJson('/pools/1')).body as ViewPool[]).length).toBe(20);
    // The lease was released at the end: the next call needs no expiry.
    expect((await h.update()).status).toBe(201);
  });

  test('a holder killed mid-run leaves a lease that expires within 15 s of the kill', async () => {
    const fake = await FakeSubgraph.start(syntheticPools(5));
    fake.faults.delayMs = 120_000;
    const dataDir = mkdtempSync(join(tmpdir(), 'bps-crash-'));
    h = {
      close: async () => {
        await fake.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    } as Harness;
    // The job command in its own process, as an instance running the job would be.
    const holder = spawn(process.execPath, ['--import', 'tsx', 'src/cli/job.ts', 'update-pools', '--chain', '1'], {
      cwd: ROOT,
      env: {
        PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        HOME: process.env.HOME,
        NETWORKS: '1',
        DATA_DIR: dataDir,
        SUBGRAPH_URL_1: fake.url,
      },
      stdio: 'ignore',
    });
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    const deadline = Date.now() + 30_000;
    while (fake.requests === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(fake.requests).toBeGreaterThan(0);

    holder.kill('SIGKILL');
    const killedAt = Date.now();
    await exited;
    const store = new SqliteStore(join(dataDir, SQLITE_FILE_NAME), 0);
    try {
      const lease = await store.readLease('1', 'update-pools');
      expect(lease).toBeDefined();
      expect(lease!.expiresAtMs - killedAt).toBeLessThanOrEqual(15_000);
      // Until then the lease is what the next caller sees: it answers busy, naming the dead holder.
    } finally {
      await store.close();
    }
    // A service on the same data, asked right after the crash: it waits out the dead lease and runs.
    fake.faults.delayMs = 0;
    const server = await startTestServer(
      { NETWORKS: '1', SUBGRAPH_URL_1: fake.url },
      { store: new SqliteStore(join(dataDir, SQLITE_FILE_NAME), 50) },
    );
    try {
      const res = await fetch(`${server.url}/pools/1/update`, { method: 'POST' });
      expect(res.status).toBe(201);
      expect(Date.now() - killedAt).toBeLessThan(15_000 + 5_000);
    } finally {
      await server.close();
    }
  }, 60_000);
});
