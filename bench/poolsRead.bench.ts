import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../src/store/sqliteStore';
import { seedStore } from '../test/helpers/testServer';
import { HAS_SNAPSHOT, loadSnapshotPools, SNAPSHOT_FILE } from '../test/helpers/snapshot';
import { figure } from './lib/report';
import { startServerProcess } from './lib/serverProcess';

/** GET /pools/1 with the 372 mainnet pools over loopback: throughput, latency, server RSS. */
export async function run(): Promise<void> {
  if (!HAS_SNAPSHOT) {
    process.stdout.write(`skipped: ${SNAPSHOT_FILE} is absent\n`);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), 'bps-bench-'));
  const store = new SqliteStore(join(dir, 'balancer-pools.sqlite'), 0);
  await seedStore(store, 1, loadSnapshotPools());
  await store.close();
  const server = await startServerProcess({ NETWORKS: '1', DATA_DIR: dir, UPDATE_POOLS_INTERVAL_IN_MINUTES: '0', DECORATE_POOLS_INTERVAL_IN_MINUTES: '0', PRICE_INTERVAL_SECONDS: '0', RATE_LIMIT_READS_PER_MINUTE: '0' });
  try {
    for (const [label, headers] of [
      ['GET /pools/1 (gzip)', { 'accept-encoding': 'gzip' }],
      ['GET /pools/1 (identity)', {}],
    ] as const) {
      await autocannon({ url: `${server.url}/pools/1`, connections: 8, duration: 2, headers }); // warm-up
      const r = await autocannon({ url: `${server.url}/pools/1`, connections: 8, duration: 8, headers });
      if (r.non2xx > 0 || r.errors > 0) throw new Error(`${label}: ${r.non2xx} non-2xx, ${r.errors} errors`);
      figure(`${label} requests/s (8 connections)`, r.requests.average, 'req/s', { op: '>=', value: 1500 });
      figure(`${label} p50 latency`, r.latency.p50, 'ms', { op: '<', value: 3 });
      figure(`${label} p99 latency`, r.latency.p99, 'ms');
    }
    figure('server RSS after load', server.rssMiB(), 'MiB');
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
