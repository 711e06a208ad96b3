import { FakeSubgraph, syntheticPools } from '../../fakes/subgraphServer';
import { poolUpdateFeature } from '../../../src/jobs/triggers/poolUpdateFeature';
import { startTestServer, TestServer } from '../../helpers/testServer';

/** Polls until `check` holds, failing after `ms`. */
async function eventually(check: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('embedded pool-update schedule', () => {
  let mainnet: FakeSubgraph;
  let polygon: FakeSubgraph;
  let server: TestServer | undefined;

  beforeEach(async () => {
    mainnet = await FakeSubgraph.start(syntheticPools(15));
    polygon = await FakeSubgraph.start(syntheticPools(9, { seed: 'polygon' }));
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await mainnet.close();
    await polygon.close();
  });

  const start = (env: Record<string, string>) =>
    startTestServer(
      { NETWORKS: '1,137', SUBGRAPH_URL_1: mainnet.url, SUBGRAPH_URL_137: polygon.url, ...env },
      {
        background: true,
        // Only this feature's timers: the other features' schedules have upstreams of their own.
        features: [poolUpdateFeature],
      },
    );
  const count = async (chainId: number) =>
    ((await (await fetch(`${server!.url}/pools/${chainId}`)).json()) as unknown[]).length;

  test('runs for every enabled chain at start and again every interval, never overlapping itself', async () => {
    // 0.005 minutes = 300 ms between the end of one run and the start of the next.
    server = await start({ UPDATE_POOLS_INTERVAL_IN_MINUTES: '0.005' });
    await eventually(async () => (await count(1)) === 15 && (await count(137)) === 9);

    // A change upstream shows up with no call from anyone.
    mainnet.setPools(syntheticPools(16));
    await eventually(async () => (await count(1)) === 16);

    // Slower than the interval: runs still follow one another.
    mainnet.faults.delayMs = 500;
    const before = mainnet.requests;
    await eventually(() => mainnet.requests >= before + 3);
    expect(mainnet.maxInFlight).toBe(1);
  });

  test('UPDATE_POOLS_INTERVAL_IN_MINUTES=0 turns the schedule off', async () => {
    server = await start({ UPDATE_POOLS_INTERVAL_IN_MINUTES: '0' });
    // A POST still works, so the feature is mounted; only the timer is off.
    expect((await fetch(`${server.url}/pools/137/update`, { method: 'POST' })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 500));
    expect(mainnet.requests).toBe(0);
  });

  test('JOB_RUNNER=scheduler leaves the schedule to Cloud Scheduler', async () => {
    server = await start({ UPDATE_POOLS_INTERVAL_IN_MINUTES: '0.005', JOB_RUNNER: 'scheduler' });
    expect((await fetch(`${server.url}/pools/137/update`, { method: 'POST' })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 700));
    expect(mainnet.requests).toBe(0);
  });
});
