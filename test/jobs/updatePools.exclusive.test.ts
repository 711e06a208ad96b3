import { FakeSubgraph, syntheticPools } from '../fakes/subgraphServer';
import { startTestServer } from '../helpers/testServer';
import { Harness, startHarness, ViewPool } from './poolUpdateHarness';

const BUSY = { error: 'a pool update for chain 1 is already running', code: 500 };

describe('one pool update per chain at a time', () => {
  let h: Harness;
  afterEach(async () => h.close());

  test('two concurrent updates: one 201, one 500 at once with the JSON error; a third afterwards: 201', async () => {
    h = await startHarness(syntheticPools(30));
    // A slow subgraph keeps the first update running while the second arrives.
    h.fake.faults.delayMs = 400;
    const finished: number[] = [];
    const post = async () => {
      const r = await h.update();
      finished.push(r.status);
      return r;
    };
    const [a, b] = await Promise.all([post(), post()]);

    expect([a.status, b.status].sort()).toEqual([201, 500]);
    const busy = a.status === 500 ? a : b;
    expect(busy.json).toEqual(BUSY);
    expect(busy.text).toBe(JSON.stringify(BUSY));
    // The refused call did not wait for the running one.
    expect(finished).toEqual([500, 201]);
    // Only the winner asked the subgraph.
    expect(h.fake.queries).toHaveLength(1);

    h.fake.faults.delayMs = 0;
    expect((await h.update()).status).toBe(201);
  });

  test('updates of different chains do not block each other', async () => {
    const mainnet = await FakeSubgraph.start(syntheticPools(10));
    const polygon = await FakeSubgraph.start(syntheticPools(12, { seed: 'polygon' }));
    const server = await startTestServer({ NETWORKS: '1,137', SUBGRAPH_URL_1: mainnet.url, SUBGRAPH_URL_137: polygon.url });
    h = { close: async () => Promise.all([server.close(), mainnet.close(), polygon.close()]).then(() => undefined) } as Harness;
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

  test('a holder that died without releasing blocks the chain only until its lease expires', async () => {
    let nowMs = Date.UTC(2026, 0, 1);
    h = await startHarness(syntheticPools(20), {}, { now: () => nowMs });
    // Another instance took the lease (60 s) and crashed: nobody renews or releases it.
    const taken = await h.server.ctx.store.acquireLease({ scope: '1', job: 'update-pools', owner: 'crashed-instance', ttlMs: 60_000, nowMs });
    expect(taken).toBe(true);

    const blocked = await h.update();
    expect(blocked.status).toBe(500);
    expect(blocked.json).toEqual(BUSY);
    nowMs += 59_999;
    expect((await h.update()).status).toBe(500);
    expect(h.fake.requests).toBe(0);

    nowMs += 2;
    expect((await h.update()).status).toBe(201);
    expect(((await h.getJson('/pools/1')).body as ViewPool[]).length).toBe(20);
    // The lease was released at the end: the next call needs no expiry.
    expect((await h.update()).status).toBe(201);
  });
});
