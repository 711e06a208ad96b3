import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizePool } from '../../src/domain/normalizePool';
import type { StoredPool } from '../../src/domain/pool';
import { silentLogger } from '../../src/log/logger';
import type { ChainSnapshot } from '../../src/readModel/chainSnapshot';
import { ReadModel } from '../../src/readModel/readModel';
import { poolDelta, PoolVersions } from '../../src/routing/poolVersions';
import { SqliteStore } from '../../src/store/sqliteStore';
import { syntheticPools } from '../fakes/syntheticPools';
import { figure } from './lib/report';

/**
 * One pool changed in an 11,000-pool synthetic universe, on the store and read-model side: the
 * commit, the time until the read model's snapshot shows it (notification, the changes since the
 * held version, the merge, the snapshot), and the quote threads' input for that snapshot, which
 * is a one-pool delta because the other pools keep their objects. Against it, what a reload of
 * every pool costs (the store read alone, and the delta it makes: every pool).
 */
const POOLS = 11_000;
const ROUNDS = 10;

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bps-bench-storedelta-'));
  const store = new SqliteStore(join(dir, 'bench.sqlite'), 0);
  const model = new ReadModel({ store, chainIds: [1], logger: silentLogger(), checkIntervalMs: 0 });
  try {
    const pools: StoredPool[] = syntheticPools(POOLS, { tokenCount: 64 }).flatMap((p) => {
      const n = normalizePool(p as never);
      return n.ok ? [n.pool] : [];
    });
    let t = performance.now();
    await store.commit(1, { pools, bumpPoolsVersion: true });
    figure(`seed ${pools.length} pools (one commit)`, performance.now() - t, 'ms');
    t = performance.now();
    await model.start();
    figure('read model first load (every pool)', performance.now() - t, 'ms');
    const versions = new PoolVersions();
    let snap = model.get(1)!;
    versions.input(1, snap.poolsVersion, snap.pools);

    let commit = 0;
    let visible = 0;
    let input = 0;
    let changes = 0;
    const deltaSizes = new Set<number>();
    for (let r = 1; r <= ROUNDS; r++) {
      const p = snap.pools[(r * 1_009) % snap.pools.length]!;
      const changed: StoredPool = {
        ...p,
        tokens: p.tokens.map((x) => ({
          ...x,
          balance: x.balance.replace(/^(\d)/, (d) => String((Number(d) % 9) + 1)),
        })),
      };
      const reloaded = new Promise<ChainSnapshot>((resolve) => {
        const off = model.onReload((next) => {
          if (next.poolsVersion <= snap.poolsVersion) return;
          off();
          resolve(next);
        });
      });
      t = performance.now();
      await store.commit(1, { pools: [changed], bumpPoolsVersion: true, ifPoolsVersion: snap.poolsVersion });
      const committed = performance.now();
      const next = await reloaded;
      const shown = performance.now();
      const inputStart = performance.now();
      versions.input(1, next.poolsVersion, next.pools);
      input += performance.now() - inputStart;
      commit += committed - t;
      visible += shown - t;
      const delta = poolDelta(snap.pools, next.pools);
      deltaSizes.add(delta.upserts.length + delta.removed.length);
      t = performance.now();
      await store.listPoolChanges(1, snap.poolsVersion);
      changes += performance.now() - t;
      snap = next;
    }
    figure('one pool changed: store.commit', commit / ROUNDS, 'ms');
    figure('one pool changed: listPoolChanges since previous', changes / ROUNDS, 'ms');
    figure('one pool changed: commit until snapshot shows it', visible / ROUNDS, 'ms', { op: '<', value: 50 });
    figure('one pool changed: worker input (PoolVersions)', input / ROUNDS, 'ms', { op: '<', value: 50 });
    process.stdout.write(`one pool changed: worker delta sizes (pools)          ${[...deltaSizes].join(', ')}\n`);

    t = performance.now();
    const everything = await store.listPools(1);
    figure('for comparison: listPools (every pool)', performance.now() - t, 'ms');
    const whole = poolDelta(snap.pools, everything);
    process.stdout.write(
      `for comparison: worker delta after a full reload       ${whole.upserts.length + whole.removed.length}\n`,
    );
  } finally {
    model.stop();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
