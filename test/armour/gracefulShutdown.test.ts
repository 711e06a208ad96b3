import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
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

  /** The service as `npm start` runs it, in its own process; resolves once it answers /healthz. */
  async function startService(
    env: Record<string, string>,
  ): Promise<{ base: string; exited: Promise<number | null>; output: () => string }> {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // tsx as a loader inside one node process (not the tsx CLI, which runs the service in a
    // grandchild): the signal goes straight to the service and its exit code is the one we see.
    const proc = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
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
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let output = '';
    proc.stdout.on('data', (c: Buffer) => (output += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
    await until(
      'the service to listen',
      async () =>
        await fetch(`${base}/healthz`).then(
          (r) => r.ok,
          () => false,
        ),
      60_000,
    );
    return { base, exited, output: () => output };
  }

  it('on SIGTERM stops accepting, finishes the request in flight, releases the held lease and exits 0', async () => {
    const {
      base,
      exited,
      output: outputOf,
    } = await startService({ SANCTIONS_API_KEY: sanctions.apiKey, SANCTIONS_API_URL: sanctions.url });

    // A pool update against a subgraph that never answers holds the chain's job lease ...
    subgraph.faults = { delayMs: 120_000 };
    const update = fetch(`${base}/pools/1/update`, { method: 'POST' }).then(
      (r) => r.status,
      (e: Error) => e.message,
    );
    await until('the update job to reach the subgraph', () => subgraph.requests > 0);
    expect(leaseRows(dataDir)).toEqual([{ scope: '1', job: expect.any(String) }]);

    // ... and a sanctions check is waiting 2 s for its provider.
    sanctions.faults = { delayMs: 2000 };
    const check = fetch(`${base}/check-wallet?address=${CLEAN}`).then(async (r) => ({
      status: r.status,
      body: await r.json(),
    }));
    await until('the sanctions provider to be asked', () => sanctions.screenings().length > 0);

    child?.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    // No longer accepting new connections.
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();

    // The request in flight still gets its real answer.
    expect(await check).toEqual({ status: 200, body: { is_blocked: false } });

    const code = await exited;
    const output = outputOf();
    expect({ code, output: code === 0 ? '' : output }).toEqual({ code: 0, output: '' });
    // The job never finished, yet its lease is gone: the next instance can run it at once.
    expect(leaseRows(dataDir)).toEqual([]);
    expect(output).toContain('released held job leases');
    // The update itself was cut at the end of the grace period.
    expect(await update).not.toBe(201);
  }, 60_000);

  it('drains keep-alive connections: every one gets Connection: close on its last answer, none is reset, idle ones are closed', async () => {
    const { base, exited, output } = await startService({});
    // 8 clients with one keep-alive connection each, sending requests back to back, as Cloud Run's
    // front end does under load; a client stops once an answer tells it the connection closes.
    const clients = Array.from({ length: 8 }, () => ({
      agent: new Agent({ keepAlive: true, maxSockets: 1 }),
      answered: 0,
      closedBy: '',
    }));
    let signalled = false;
    const answeredAfterSignal: string[] = [];
    const errors: string[] = [];
    const get = (agent: Agent) =>
      new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
        const req = request(`${base}/healthz`, { agent }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end();
      });
    const loops = clients.map(async (c, i) => {
      for (;;) {
        let answer;
        try {
          answer = await get(c.agent);
        } catch (e) {
          errors.push(`client ${i}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
          return;
        }
        c.answered += 1;
        if (signalled) answeredAfterSignal.push(`${answer.status} ${answer.connection ?? '-'}`);
        if (answer.connection === 'close') {
          c.closedBy = 'Connection: close';
          return;
        }
      }
    });
    // One more client made a single request and keeps its connection open, idle.
    const idleAgent = new Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(idleAgent)).status).toBe(200);
    const idleSocket = Object.values(idleAgent.freeSockets).flat()[0];
    const idleClosed = new Promise<string>((resolve) => {
      idleSocket?.once('close', (hadError: boolean) => resolve(hadError ? 'closed with an error' : 'closed'));
    });

    await until('every client to have been answered', () => clients.every((c) => c.answered > 5));
    child?.kill('SIGTERM');
    signalled = true;
    await Promise.all(loops);

    expect(errors).toEqual([]);
    expect(clients.map((c) => c.closedBy)).toEqual(Array(8).fill('Connection: close'));
    // Answers given during the drain were real answers, and the connection ended with the last one.
    expect(answeredAfterSignal.every((a) => a.startsWith('200 '))).toBe(true);
    expect(await idleClosed).toBe('closed');

    const code = await exited;
    expect({ code, output: code === 0 ? '' : output() }).toEqual({ code: 0, output: '' });
    // Nothing waited out the grace period: idle connections were closed, not left to hold the drain.
    expect(output()).not.toContain('still running after the shutdown grace period');
    for (const c of [...clients, { agent: idleAgent }]) c.agent.destroy();
  }, 60_000);
});
