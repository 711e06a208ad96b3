import { join } from 'node:path';
import { WorkerExecutor } from '../../src/routing/quoteExecutor';
import { routingFeature } from '../../src/routing/routingFeature';
import { createLogger } from '../../src/log/logger';
import { describeWithSnapshot, loadSnapshotPools } from '../helpers/snapshot';
import { startTestServer } from '../helpers/testServer';

/**
 * Quote threads that cannot start fail the service's start, instead of a service that says it is
 * ready and answers every quote 500: a Node flag worker threads refuse, a worker module that throws
 * as it loads.
 */

const BROKEN_WORKER = join(__dirname, '..', 'fakes', 'brokenQuoteWorker.ts');

test('a worker module that throws as it loads fails ready(), naming the error; the service worker starts', async () => {
  // The thread may fail before or after the ready task reaches it: either way ready() rejects, at
  // every try, and nothing escapes as an uncaught error.
  for (let n = 0; n < 6; n++) {
    const told: string[] = [];
    const broken = new WorkerExecutor(2, { entry: BROKEN_WORKER, onThreadError: (e) => told.push(e.message) });
    await expect(broken.ready()).rejects.toThrow('this quote worker cannot load');
    await broken.close();
    expect(told.every((m) => m.includes('this quote worker cannot load'))).toBe(true);
  }
  const working = new WorkerExecutor(2);
  await expect(working.ready()).resolves.toBeUndefined();
  await working.close();
});

test('a Node flag worker threads refuse (--trace-gc) fails the start, naming ROUTER_WORKERS', async () => {
  const flags = [...process.execArgv];
  process.execArgv.push('--trace-gc');
  try {
    const started = startTestServer({ ROUTER_WORKERS: '1' }, { features: [routingFeature], background: true });
    await expect(started).rejects.toThrow(
      /^routing: the 1 quote threads \(ROUTER_WORKERS=1\) could not start: .*--trace-gc.*set ROUTER_WORKERS=0/,
    );
  } finally {
    process.execArgv.splice(0, process.execArgv.length, ...flags);
  }
  // The same service starts once the flag is gone.
  const srv = await startTestServer({ ROUTER_WORKERS: '1' }, { features: [routingFeature], background: true });
  expect((await fetch(`${srv.url}/healthz`)).status).toBe(200);
  await srv.close();
});

describeWithSnapshot('a clean stop', () => {
  test('a router build the stop cuts short logs no error', async () => {
    const lines: string[] = [];
    const logger = createLogger({ debug: false, destination: { write: (l: string) => void lines.push(l) } });
    const srv = await startTestServer(
      { ROUTER_WORKERS: '1' },
      { features: [routingFeature], background: true, logger, seed: [{ chainId: 1, pools: loadSnapshotPools() }] },
    );
    // The start hands the quote thread the catalogue's router to build (seconds for the mainnet
    // snapshot); the stop terminates that thread under it.
    await srv.close();
    const errors = lines
      .map((l) => JSON.parse(l) as { severity: string; message: string })
      .filter((l) => l.severity === 'ERROR');
    expect(errors).toEqual([]);
  });
});
