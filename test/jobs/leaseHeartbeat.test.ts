import { loadConfig } from '../../src/config/env';
import { runExclusive } from '../../src/jobs/exclusive';
import { silentLogger } from '../../src/log/logger';
import { createContext } from '../../src/server';
import { SqliteStore } from '../../src/store/sqliteStore';

/**
 * A run keeps its lease for as long as it runs, however much longer than the lease's TTL, because
 * it renews the lease while it works; only a holder that stops renewing (a crash) lets the lease
 * lapse. The TTL is shortened here so the run can outlast several of them in a second or two; the
 * service runs the same code with 15 s.
 */
const TTL_MS = 300;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a run lasting five lease lifetimes holds its lease throughout; another owner gets it only once the run ends', async () => {
  const store = new SqliteStore(':memory:', 0);
  const ctx = await createContext(loadConfig({ NETWORKS: '1' }), { logger: silentLogger(), store });
  const lease = { scope: '1', job: 'update-pools', ttlMs: TTL_MS };
  const otherTakes = () => store.acquireLease({ ...lease, owner: 'other-instance:1:run', nowMs: Date.now() });
  let release!: () => void;
  const run = runExclusive(
    ctx,
    { ...lease, busyMessage: 'busy', now: Date.now },
    () => new Promise<string>((resolve) => (release = () => resolve('done'))),
  );

  const refusedAt: boolean[] = [];
  for (let k = 0; k < 5; k++) {
    await sleep(TTL_MS);
    refusedAt.push(!(await otherTakes()));
  }
  expect(refusedAt).toEqual([true, true, true, true, true]);

  release();
  expect(await run).toBe('done');
  expect(await otherTakes()).toBe(true);
});

test('a holder that stops renewing (as a crashed instance does) loses the lease one TTL after its last renewal', async () => {
  const store = new SqliteStore(':memory:', 0);
  const lease = { scope: '1', job: 'update-pools', ttlMs: TTL_MS };
  expect(await store.acquireLease({ ...lease, owner: 'crashed:1:run', nowMs: Date.now() })).toBe(true);
  await sleep(TTL_MS + 50);
  expect(await store.acquireLease({ ...lease, owner: 'other-instance:1:run', nowMs: Date.now() })).toBe(true);
});
