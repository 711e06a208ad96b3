import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { SQLITE_FILE_NAME } from '../../src/store/createStore';
import { FakeSanctionsProvider, startFakeChainalysis } from '../fakes/sanctionsProviders';
import { FakeSubgraph } from '../fakes/subgraphServer';
import { freePort } from '../helpers/freePort';

const ROOT = join(__dirname, '..', '..');
const CLEAN = '0xBA12222222228d8Ba445958a75a0704d566BF2C8';


async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function leaseRows(dataDir: string): { scope: string; job: string }[] {
  const db = new Database(join(dataDir, SQLITE_FILE_NAME), { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT scope, job FROM leases').all() as { scope: string; job: string }[];
  } finally {
    db.close();
  }
}

describe('graceful shutdown of the service process', () => {
  let subgraph: FakeSubgraph;
  let sanctions: FakeSanctionsProvider;
  let child: ChildProcess | undefined;
  let dataDir: string;

  beforeAll(async () => {
    subgraph = await FakeSubgraph.start([]);
    sanctions = await startFakeChainalysis();
    dataDir = mkdtempSync(join(tmpdir(), 'bps-shutdown-'));
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await subgraph.close();
    await sanctions.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('on SIGTERM stops accepting, finishes the request in flight, releases the held lease and exits 0', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // tsx as a loader inside one node process (not the tsx CLI, which runs the service in a
    // grandchild): the signal goes straight to the service and its exit code is the one we see.
    child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: {
        PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
        HOME: process.env.HOME,
        NETWORKS: '1',
        DATA_DIR: dataDir,
        PORT: String(port),
        SUBGRAPH_URL_1: subgraph.url,
        PRICE_API_URL: 'http://127.0.0.1:1',
        UPDATE_POOLS_INTERVAL_IN_MINUTES: '0',
        DECORATE_POOLS_INTERVAL_IN_MINUTES: '0',
        PRICE_INTERVAL_SECONDS: '0',
        SANCTIONS_API_KEY: sanctions.apiKey,
        SANCTIONS_API_URL: sanctions.url,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child?.once('exit', (code) => resolve(code)));

    await until('the service to listen', async () => (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)), 60_000);

    // A pool update against a subgraph that never answers holds the chain's job lease ...
    subgraph.faults = { delayMs: 120_000 };
    const update = fetch(`${base}/pools/1/update`, { method: 'POST' }).then((r) => r.status, (e: Error) => e.message);
    await until('the update job to reach the subgraph', () => subgraph.requests > 0);
    expect(leaseRows(dataDir)).toEqual([{ scope: '1', job: expect.any(String) }]);

    // ... and a sanctions check is waiting 2 s for its provider.
    sanctions.faults = { delayMs: 2000 };
    const check = fetch(`${base}/check-wallet?address=${CLEAN}`).then(async (r) => ({ status: r.status, body: await r.json() }));
    await until('the sanctions provider to be asked', () => sanctions.screenings().length > 0);

    child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    // No longer accepting new connections.
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();

    // The request in flight still gets its real answer.
    expect(await check).toEqual({ status: 200, body: { is_blocked: false } });

    const code = await exited;
    expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
    // The job never finished, yet its lease is gone: the next instance can run it at once.
    expect(leaseRows(dataDir)).toEqual([]);
    expect(output).toContain('released held job leases');
    // The update itself was cut at the end of the grace period.
    expect(await update).not.toBe(201);
  }, 60_000);
});
