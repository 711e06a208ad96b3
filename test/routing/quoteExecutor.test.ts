import { join } from 'node:path';
import { QuoteTimeoutError, WorkerExecutor } from '../../src/routing/quoteExecutor';
import type { QuoteTask } from '../../src/routing/routerHost';

/**
 * A quote that never ends does not hold its request or its worker thread: past the executor's
 * time bound the request fails with `QuoteTimeoutError` (the routes answer 503), piscina replaces
 * the thread, and the next quotes are answered.
 */

const STUCK_WORKER = join(__dirname, '..', 'fakes', 'stuckQuoteWorker.ts');

function task(sellToken: string): QuoteTask {
  return {
    chain: { id: 1, vault: '0x', wrappedNative: '0x' },
    pools: { key: 'p', base: { key: 'p', data: new SharedArrayBuffer(0) }, deltas: [] },
    pricesKey: 't',
    prices: new SharedArrayBuffer(0),
    minLiquidityUsd: 0,
    engine: 'own',
    sellToken,
    buyToken: 'b',
    orderKind: 'sell',
    amount: '1',
    gasPrice: '0',
    timestamp: 0,
  };
}

describe('WorkerExecutor with a time bound', () => {
  let executor: WorkerExecutor;
  beforeAll(async () => {
    // One thread: the quotes after the stuck one can only be answered on its replacement. The
    // bound leaves room for a thread's start on a busy machine (it counts queueing too).
    executor = new WorkerExecutor(1, { timeoutMs: 5000, entry: STUCK_WORKER });
    await executor.run(task('warm'));
  });
  afterAll(async () => {
    await executor.close();
  });

  test('a quote that never ends fails with QuoteTimeoutError naming the bound', async () => {
    const failure = await executor.run(task('stuck')).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(QuoteTimeoutError);
    expect((failure as QuoteTimeoutError).timeoutMs).toBe(5000);
    expect((failure as Error).message).toMatch(/did not finish within 5000 ms/);
  });

  test('the thread it held is replaced: later quotes are answered', async () => {
    const outcome = await executor.run(task('a'));
    expect(outcome.info.tokenIn).toBe('a');
    const again = await Promise.all([executor.run(task('c')), executor.run(task('d'))]);
    expect(again.map((o) => o.info.tokenIn)).toEqual(['c', 'd']);
  });

  test('a quote queued behind a stuck one is bounded too (queueing counts), and the next is answered', async () => {
    const [stuck, queued] = await Promise.allSettled([executor.run(task('stuck')), executor.run(task('stuck'))]);
    expect(stuck.status === 'rejected' && stuck.reason instanceof QuoteTimeoutError).toBe(true);
    expect(queued.status === 'rejected' && queued.reason instanceof QuoteTimeoutError).toBe(true);
    expect((await executor.run(task('e'))).info.tokenIn).toBe('e');
  });
});
