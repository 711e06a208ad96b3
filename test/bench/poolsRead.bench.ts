import autocannon from 'autocannon';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from '../../src/store/sqliteStore';
import { seedStore } from '../helpers/testServer';
import { HAS_SNAPSHOT, loadSnapshotPools, SNAPSHOT_FILE } from '../helpers/snapshot';
import { figure } from './lib/report';
import { startServerProcess } from './lib/serverProcess';
import { createServer, get } from 'node:http';
import { freePort } from '../helpers/freePort';

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
  const server = await startServerProcess({
    NETWORKS: '1',
    DATA_DIR: dir,
    UPDATE_POOLS_INTERVAL_IN_MINUTES: '0',
    DECORATE_POOLS_INTERVAL_IN_MINUTES: '0',
    PRICE_INTERVAL_SECONDS: '0',
    RATE_LIMIT_READS_PER_MINUTE: '0',
  });
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
    await baseline(server.url);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The load generator's own ceiling for these bytes: a bare node:http server (no Express, no
 * routing) sending exactly the gzip body the service sent. autocannon spends far more CPU on
 * binary bodies than on JSON text of the same size (measured: ~1,300 vs ~8,000 req/s for 48 KB on
 * this machine), and it shares the 2 cores with the server, so the service's compressed figure is
 * read against this one.
 */
async function baseline(serviceUrl: string): Promise<void> {
  const body = await rawBody(`${serviceUrl}/pools/1`, 'gzip');
  const port = await freePort();
  const bare = createServer((_req, r) => {
    r.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': body.length });
    r.end(body);
  });
  await new Promise<void>((resolve) => bare.listen(port, '127.0.0.1', resolve));
  try {
    await autocannon({ url: `http://127.0.0.1:${port}/`, connections: 8, duration: 2 });
    const r = await autocannon({ url: `http://127.0.0.1:${port}/`, connections: 8, duration: 8 });
    figure(`bare node:http, same ${body.length}-byte gzip body, requests/s`, r.requests.average, 'req/s');
    figure('bare node:http, same gzip body, p50 latency', r.latency.p50, 'ms');
  } finally {
    bare.close();
  }
}

function rawBody(url: string, encoding: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks)));
    }).on('error', reject);
  });
}
