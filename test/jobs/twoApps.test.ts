import { loadConfig } from '../../src/config/env';
import { errorTrackingFeature } from '../../src/errorTracking/feature';
import { poolUpdateFeature } from '../../src/jobs/triggers/poolUpdateFeature';
import { runExclusive } from '../../src/jobs/exclusive';
import { UPDATE_POOLS_JOB } from '../../src/jobs/updatePools';
import { appStateKey } from '../../src/appState';
import { silentLogger } from '../../src/log/logger';
import { createContext } from '../../src/server';
import { SqliteStore } from '../../src/store/sqliteStore';
import { startFakeSentryIngest } from '../fakes/sentryIngest';
import { FakeSubgraph, syntheticPools } from '../fakes/subgraphServer';
import { startTestServer } from '../helpers/testServer';

/**
 * Two apps in one process (tests, workers) are two instances: what one holds while it runs (job
 * leases, caches, its error tracker) lives in its own AppContext and is invisible to the other.
 */
describe('two apps in one process', () => {
  it('app A holding the pool-update lease does not make app B answer 503 or wait, and B closing does not free it', async () => {
    const subgraph = await FakeSubgraph.start(syntheticPools(10));
    const a = await startTestServer({ SUBGRAPH_URL_1: subgraph.url }, { features: [poolUpdateFeature] });
    const b = await startTestServer({ SUBGRAPH_URL_1: subgraph.url }, { features: [poolUpdateFeature] });
    let finish!: () => void;
    const holding = runExclusive(
      a.ctx,
      { scope: '1', job: UPDATE_POOLS_JOB, busyMessage: 'busy', now: a.ctx.now },
      () => new Promise<void>((r) => (finish = r)),
    );
    try {
      expect(await a.ctx.store.readLease('1', UPDATE_POOLS_JOB)).toBeDefined();
      expect(
        await fetch(`${a.url}/pools/1/update`, { method: 'POST', signal: AbortSignal.timeout(300) }).catch(
          () => 'waiting',
        ),
      ).toBe('waiting');

      expect((await fetch(`${b.url}/pools/1/update`, { method: 'POST' })).status).toBe(201);
      await b.close();
      expect(await a.ctx.store.readLease('1', UPDATE_POOLS_JOB)).toBeDefined();
    } finally {
      finish();
      await holding;
      await a.close();
      await subgraph.close();
    }
  });

  it("a failed job of an app without error tracking is not reported by another app's tracker", async () => {
    const ingest = await startFakeSentryIngest();
    const failing = await FakeSubgraph.start([]);
    failing.faults = { failPage: 1 };
    const tracked = await startTestServer({ ERRORTRACKER_DSN: ingest.dsn }, { features: [errorTrackingFeature] });
    const untracked = await startTestServer(
      { SUBGRAPH_URL_1: failing.url, SUBGRAPH_RETRIES: '0' },
      { features: [poolUpdateFeature] },
    );
    try {
      expect((await fetch(`${untracked.url}/pools/1/update`, { method: 'POST' })).status).toBe(502);
      await new Promise((r) => setTimeout(r, 300));
      expect(ingest.events).toHaveLength(0);
    } finally {
      await Promise.all([tracked.close(), untracked.close()]);
      await Promise.all([failing.close(), ingest.close()]);
    }
  });

  it('each context owns its state: the same key gives each app its own value', async () => {
    const config = loadConfig({ NETWORKS: '1' });
    const [one, two] = await Promise.all(
      [0, 1].map(() => createContext(config, { logger: silentLogger(), store: new SqliteStore(':memory:', 0) })),
    );
    const counter = appStateKey('test counter', () => ({ n: 0 }));
    one!.state.get(counter).n += 1;
    expect(one!.state.get(counter).n).toBe(1);
    expect(two!.state.get(counter).n).toBe(0);
    await Promise.all([one!.store.close(), two!.store.close()]);
  });
});
