import { updatePools, type PoolUpdateReport } from '../../src/jobs/updatePools';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqliteStore';
import { FakeSubgraph, syntheticPools } from '../fakes/subgraphServer';
import { startTestServer } from '../helpers/testServer';
import { Harness, startHarness, ViewPool } from './poolUpdateHarness';

/**
 * A pool update after the first reads only the pools the subgraph changed since the block the
 * last run began at (`_change_block`), so one trade costs one pool, not the universe. What the
 * store holds afterwards must be what a run reading every pool would have stored: changed pools
 * updated, emptied pools gone, untouched pools as they were.
 */

const POOLS = 1_500;

/**
 * One run, as POST /pools/1/update makes it (which answers 201 and no body), with its report,
 * some minutes after the last: the chain, and the subgraph's indexed block, moved on meanwhile.
 */
function run(h: Harness): Promise<PoolUpdateReport> {
  h.fake.indexBlocks(500);
  return updatePools(h.server.ctx, 1, { waitForRunning: true });
}

function balanceOf(pools: readonly ViewPool[], id: string): string | undefined {
  return pools.find((p) => p.id === id)?.tokens[0]?.balance;
}

describe('pool updates against a subgraph that indexes blocks', () => {
  const pools = syntheticPools(POOLS);
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness(pools, {}, { indexesBlocks: true });
  });
  afterAll(async () => h.close());

  test('the first run reads every pool; the next reads only what changed since, and stores it', async () => {
    const first = await run(h);
    expect(first).toMatchObject({ full: true, fetched: POOLS, written: POOLS });

    const idle = await run(h);
    expect(idle).toMatchObject({ full: false, fetched: 0, written: 0, poolsVersion: first.poolsVersion });

    const id = pools[700]!.id;
    h.fake.updatePool(id, (p) => {
      (p.tokens as { balance: string }[])[0]!.balance = '12345.678';
    });
    h.fake.reset();
    const one = await run(h);
    expect(one).toMatchObject({ full: false, fetched: 1, written: 1, poolsVersion: first.poolsVersion + 1 });
    // One page, asked with the changed-since filter: the universe was not read.
    expect(h.fake.queries).toHaveLength(1);
    expect(h.fake.queries[0]!.returned).toBe(1);
    const listed = (await h.getJson('/pools/1')).body as ViewPool[];
    expect(listed).toHaveLength(POOLS);
    expect(balanceOf(listed, id)).toBe('12345.678');
  });

  test('a pool emptied upstream leaves the store on the next run, as a full read would drop it', async () => {
    const id = pools[42]!.id;
    h.fake.updatePool(id, (p) => {
      p.totalShares = '0';
    });
    const report = await run(h);
    expect(report).toMatchObject({ full: false, fetched: 1, written: 0, removed: 1 });
    const listed = (await h.getJson('/pools/1')).body as ViewPool[];
    expect(listed.map((p) => p.id)).not.toContain(id);
    expect(listed).toHaveLength(POOLS - 1);
  });

  test('after incremental runs the pools served are what an app reading every pool serves', async () => {
    for (const k of [3, 999, 1_200]) {
      h.fake.updatePool(pools[k]!.id, (p) => {
        p.swapFee = '0.0042';
      });
    }
    const report = await run(h);
    expect(report).toMatchObject({ full: false, fetched: 3, written: 3 });
    // A second app, on its own store, that reads every pool of the same subgraph.
    const full = await startHarness(h.fake.getPools(), { SUBGRAPH_FULL_EVERY_SECONDS: '0' }, { indexesBlocks: true });
    try {
      const fresh = await run(full);
      expect(fresh.full).toBe(true);
      const a = (await full.getJson('/pools/1')).body as ViewPool[];
      const b = (await h.getJson('/pools/1')).body as ViewPool[];
      expect(b).toEqual(a);
    } finally {
      await full.close();
    }
  });
});

describe('pool updates against a subgraph that cannot say its block', () => {
  test('every run reads every pool', async () => {
    const h = await startHarness(syntheticPools(300));
    try {
      expect(await run(h)).toMatchObject({ full: true, fetched: 300, written: 300 });
      expect(await run(h)).toMatchObject({ full: true, fetched: 300, written: 0 });
    } finally {
      await h.close();
    }
  });
});

describe('SUBGRAPH_FULL_EVERY_SECONDS', () => {
  test('a run reads every pool again once the last full read is that old', async () => {
    let now = 1_800_000_000_000;
    const h = await startHarness(
      syntheticPools(200),
      { SUBGRAPH_FULL_EVERY_SECONDS: '60' },
      {
        indexesBlocks: true,
        now: () => now,
      },
    );
    try {
      expect((await run(h)).full).toBe(true);
      now += 30_000;
      expect((await run(h)).full).toBe(false);
      now += 31_000;
      expect((await run(h)).full).toBe(true);
      now += 1_000;
      expect((await run(h)).full).toBe(false);
    } finally {
      await h.close();
    }
  });
});

describe('a run that reads every pool from the subgraph', () => {
  test('diffs against the pools the read model holds at the store version, without listing them from the store again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bps-listing-'));
    let listings = 0;
    // The real SQLite store, counting how often every pool is listed.
    class CountingStore extends SqliteStore {
      override async listPools(chainId: number) {
        listings++;
        return super.listPools(chainId);
      }
    }
    const store = new CountingStore(join(dir, 'count.sqlite'), 0);
    const fake = await FakeSubgraph.start(syntheticPools(200));
    const server = await startTestServer({ SUBGRAPH_URL_1: fake.url, SUBGRAPH_FULL_EVERY_SECONDS: '0' }, { store });
    try {
      expect((await updatePools(server.ctx, 1)).written).toBe(200);
      fake.updatePool(syntheticPools(200)[5]!.id, (p) => {
        p.swapFee = '0.0077';
      });
      listings = 0;
      const report = await updatePools(server.ctx, 1);
      expect(report).toMatchObject({ full: true, fetched: 200, written: 1 });
      expect(listings).toBe(0);
      const pool = (await (await fetch(`${server.url}/pools/1/${syntheticPools(200)[5]!.id}`)).json()) as {
        swapFee: string;
      };
      expect(pool.swapFee).toBe('0.0077');
    } finally {
      await server.close();
      await fake.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
