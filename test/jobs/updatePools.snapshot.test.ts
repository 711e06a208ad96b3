import { compareDecimal, decimalToUnits, unitsToDecimal } from '../../src/domain/decimal';
import { updatePools } from '../../src/jobs/updatePools';
import { JOB_COMMANDS } from '../../src/jobs/commands';
import { describeWithSnapshot, loadSnapshotPools, MAINNET } from '../helpers/snapshot';
import { Harness, startHarness, ViewPool } from './poolUpdateHarness';

interface FilePool {
  id: string;
  address: string;
  totalShares: string;
  tokens: { address: string; balance: string; decimals: number }[];
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describeWithSnapshot('pool update against a subgraph serving the mainnet snapshot', () => {
  const file = loadSnapshotPools() as FilePool[];
  // What graph-node answers to the job's `totalShares_gt: "0"` filter.
  const listed = file.filter((p) => compareDecimal(p.totalShares, '0') > 0).sort(byId);
  let h: Harness;
  // Each update runs two hours after the previous one, so its history points are told apart.
  let nowMs = Date.UTC(2026, 0, 1);
  const nextRun = () => (nowMs += 2 * 3600_000) / 1000;

  beforeAll(async () => {
    h = await startHarness(file, {}, { now: () => nowMs });
  });
  afterAll(async () => h.close());

  test('the first update stores every listed pool and their tokens, and GET /pools/1 shows them', async () => {
    expect(file).toHaveLength(372);
    const res = await h.update();
    expect(res.status).toBe(201);
    expect(res.text).toBe('');

    const pools = (await h.getJson('/pools/1')).body as ViewPool[];
    expect(pools.map((p) => p.id).sort()).toEqual(listed.map((p) => p.id));
    const first = pools.find((p) => p.id === listed[0]!.id)!;
    expect(first.tokens.map((t) => t.balance)).toEqual(
      listed[0]!.tokens.map((t) => unitsToDecimal(decimalToUnits(t.balance, t.decimals), t.decimals)),
    );

    const tokens = (await h.getJson('/tokens/1')).body as { address: string }[];
    const expected = new Set(listed.flatMap((p) => p.tokens.map((t) => t.address.toLowerCase())));
    expect(new Set(tokens.map((t) => t.address))).toEqual(expected);
    expect(expected.has(MAINNET.WETH)).toBe(true);

    // One cursor walk: 1000 per page, never `skip`, each page after the previous one's last id.
    expect(h.fake.queries.map((q) => [q.first, q.skip, q.idGt, q.totalSharesGt])).toEqual([[1000, undefined, '', '0']]);
    const meta = await h.server.ctx.store.getMeta(1);
    expect(meta.poolsVersion).toBe(1);
    expect(meta.jobs['update-pools']?.lastError).toBeNull();
  });

  test('an immediate second update writes no pool and leaves the version where it was', async () => {
    const before = await h.server.ctx.store.getMeta(1);
    const bodyBefore = await (await fetch(`${h.server.url}/pools/1`)).text();

    expect((await h.update()).status).toBe(201);
    const report = await updatePools(h.server.ctx, 1);

    expect(report).toMatchObject({ fetched: listed.length, written: 0, removed: 0, tokensAdded: 0, skipped: [] });
    const after = await h.server.ctx.store.getMeta(1);
    expect(after.poolsVersion).toBe(before.poolsVersion);
    expect(after.tokensVersion).toBe(before.tokensVersion);
    expect(await (await fetch(`${h.server.url}/pools/1`)).text()).toBe(bodyBefore);
  });

  test('one balance changed upstream: only that pool changes, the version moves, GET shows it at once', async () => {
    const target = listed.find((p) => p.tokens.some((t) => t.address === MAINNET.WETH))!;
    const k = target.tokens.findIndex((t) => t.address === MAINNET.WETH);
    const old = target.tokens[k]!;
    // One wei more: the smallest change a subgraph can report.
    const newBalance = unitsToDecimal(decimalToUnits(old.balance, old.decimals) + 1n, old.decimals);
    h.fake.updatePool(target.id, (p) => {
      (p.tokens as { balance: string }[])[k]!.balance = newBalance;
    });
    const versionBefore = (await h.server.ctx.store.getMeta(1)).poolsVersion;
    const before = (await h.getJson('/pools/1')).body as ViewPool[];

    const runAt = nextRun();
    expect((await h.update()).status).toBe(201);

    const after = (await h.getJson('/pools/1')).body as ViewPool[];
    const changed = after.filter((p) => JSON.stringify(p) !== JSON.stringify(before.find((b) => b.id === p.id)));
    expect(changed.map((p) => p.id)).toEqual([target.id]);
    expect((await h.server.ctx.store.getMeta(1)).poolsVersion).toBe(versionBefore + 1);
    const one = (await h.getJson(`/pools/1/${target.id}`)).body as ViewPool;
    expect(one.tokens[k]!.balance).toBe(newBalance);
    // The run wrote exactly one pool: the only history point at its time is that pool's.
    const history = await h.server.ctx.store.readHistory(1, { from: runAt, to: runAt });
    expect(history.map((p) => p.poolId)).toEqual([target.id]);
  });

  test('a pool the subgraph no longer lists disappears after a complete fetch', async () => {
    const gone = listed[5]!;
    h.fake.removePool(gone.id);
    expect((await h.update()).status).toBe(201);
    expect((await h.getJson(`/pools/1/${gone.id}`)).status).toBe(404);
    expect(((await h.getJson('/pools/1')).body as ViewPool[]).length).toBe(listed.length - 1);
  });

  test('the update-pools job command reports what changed', async () => {
    const lines = await JOB_COMMANDS['update-pools']!.run(h.server.ctx, 1);
    const version = (await h.server.ctx.store.getMeta(1)).poolsVersion;
    expect(lines.at(-1)).toContain(
      `chain 1: ${listed.length - 1} pools fetched in 1 pages, 0 written, 0 removed, 0 skipped, 0 tokens added`,
    );
    expect(lines.at(-1)).toContain(`poolsVersion ${version}`);
  });
});

describeWithSnapshot('pool update when the subgraph also lists empty pools', () => {
  const file = loadSnapshotPools() as FilePool[];
  let h: Harness;

  beforeAll(async () => {
    // A subgraph that ignores `totalShares_gt` sends all 372 pools, the 31 empty ones included.
    h = await startHarness(file, {}, { honourTotalSharesFilter: false });
  });
  afterAll(async () => h.close());

  test('all 372 pools are stored, and those without any balance are marked not routable', async () => {
    expect((await h.update()).status).toBe(201);
    const pools = (await h.getJson('/pools/1')).body as ViewPool[];
    expect(pools).toHaveLength(372);
    // Routable means some token other than the pool's own BPT has a balance.
    const emptyIds = file
      .filter((p) =>
        p.tokens.every(
          (t) => t.address.toLowerCase() === p.address.toLowerCase() || compareDecimal(t.balance, '0') === 0,
        ),
      )
      .map((p) => p.id)
      .sort();
    expect(emptyIds.length).toBeGreaterThanOrEqual(31);
    expect(
      pools
        .filter((p) => !p.routable)
        .map((p) => p.id)
        .sort(),
    ).toEqual(emptyIds);
  });
});
