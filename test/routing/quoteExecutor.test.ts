import { createHook } from 'node:async_hooks';
import { join } from 'node:path';
import { QuoteTimeoutError, WorkerExecutor } from '../../src/routing/quoteExecutor';
import type { QuoteTask, V3QuoteTask } from '../../src/routing/routerHost';

/**
 * A quote that never ends does not hold its request or its worker thread: past the executor's
 * time bound the request fails with `QuoteTimeoutError` (the routes answer 503), piscina replaces
 * the thread, and the next quotes are answered.
 */

const STUCK_WORKER = join(__dirname, '..', 'fakes', 'stuckQuoteWorker.ts');
const THREAD_WORKER = join(__dirname, '..', 'fakes', 'threadQuoteWorker.ts');

function task(sellToken: string, more: Partial<QuoteTask> = {}): QuoteTask {
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
    ...more,
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

/**
 * An answered quote leaves nothing behind for the rest of its time bound. With a timer per quote
 * kept for the whole bound, the main thread held the last 30 s of quotes' timers at a steady rate.
 */
describe('WorkerExecutor after answered quotes', () => {
  let executor: WorkerExecutor;
  beforeAll(async () => {
    executor = new WorkerExecutor(1, { timeoutMs: 60_000, entry: THREAD_WORKER });
    await executor.run(task('warm'));
  });
  afterAll(async () => {
    await executor.close();
  });

  test('200 answered quotes leave no timer waiting', async () => {
    const live = new Set<number>();
    const hook = createHook({
      init: (id, type) => {
        if (type === 'Timeout') live.add(id);
      },
      destroy: (id) => {
        live.delete(id);
      },
    }).enable();
    try {
      for (let k = 0; k < 200; k += 20) {
        const answers = await Promise.all(Array.from({ length: 20 }, (_, j) => executor.run(task(`t${k + j}`))));
        expect(answers.map((a) => a.info.tokenIn)).toEqual(Array.from({ length: 20 }, (_, j) => `t${k + j}`));
      }
      // Destroy hooks run after the current tick.
      for (let k = 0; k < 5; k++) await new Promise((r) => setImmediate(r));
    } finally {
      hook.disable();
    }
    expect(live.size).toBeLessThan(10);
  });
});

/**
 * Each thread carries a pair's candidates to a new pool version on the pair's first quote there,
 * so a pair's quotes go to one thread (the work is done once per version, not once per thread),
 * unless another thread is idle or much less busy; a new version's warm-up reaches every thread.
 */
describe('WorkerExecutor with two threads', () => {
  let executor: WorkerExecutor;
  const answeredBy = async (t: QuoteTask) => (await executor.run(t)).info.tokenOut.split(':');
  beforeAll(() => {
    executor = new WorkerExecutor(2, { entry: THREAD_WORKER });
  });
  afterAll(async () => {
    await executor.close();
  });

  test("a pair's quotes, one after another, go to one thread; pairs spread over both", async () => {
    const threads = new Set<string>();
    for (let p = 0; p < 16; p++) {
      const seen = new Set<string>();
      for (let n = 0; n < 4; n++) seen.add((await answeredBy(task(`0xa${p}`, { buyToken: `0xB${p}` })))[0]!);
      expect(seen.size).toBe(1);
      threads.add([...seen][0]!);
      // Spelt in other cases, the same pair.
      expect((await answeredBy(task(`0xA${p}`, { buyToken: `0xb${p}` })))[0]).toBe([...seen][0]);
    }
    expect(threads.size).toBe(2);
  });

  test('a warm-up reaches every thread', async () => {
    await executor.run(task('warm', { warmOnly: true }));
    const warmed = new Map<string, string>();
    for (let p = 0; p < 16; p++) {
      const [thread, warmUps] = await answeredBy(task(`0xc${p}`));
      warmed.set(thread!, warmUps!);
    }
    expect([...warmed.values()]).toEqual(['1', '1']);
  });

  test('warm-ups arriving while a thread is busy: it builds the newest one, not each version in turn', async () => {
    const warmUpsOf = async () => {
      const seen = new Map<string, number>();
      for (let p = 0; p < 16; p++) {
        const [thread, warmUps] = await answeredBy(task(`0xe${p}`));
        seen.set(thread!, Number(warmUps));
      }
      return seen;
    };
    const before = await warmUpsOf();
    const release = new SharedArrayBuffer(4);
    const held = executor.run(task('0xe0', { amount: 'hold', prices: release }));
    const versions = [1, 2, 3, 4, 5].map(() => executor.run(task('warm', { warmOnly: true })));
    Atomics.store(new Int32Array(release), 0, 1);
    Atomics.notify(new Int32Array(release), 0);
    await Promise.all([held, ...versions]);
    const after = await warmUpsOf();
    // Each thread builds the first version it was handed and then only the newest: two, not five.
    expect([...after].map(([thread, n]) => n - before.get(thread)!)).toEqual([2, 2]);
  });

  test("when the pair's thread is busy and the other idle, its next quote goes to the other thread", async () => {
    const release = new SharedArrayBuffer(4);
    const [home] = await answeredBy(task('0xd1'));
    const held = [executor.run(task('0xd1', { amount: 'hold', prices: release }))];
    const [other] = await answeredBy(task('0xd1'));
    expect(other).not.toBe(home);
    Atomics.store(new Int32Array(release), 0, 1);
    Atomics.notify(new Int32Array(release), 0);
    const outcomes = await Promise.all(held);
    expect(outcomes.map((o) => o.info.tokenOut.split(':')[0])).toEqual([home]);
  });

  test("with both threads busy, a quote goes to the first that frees, not to its pair's", async () => {
    const releases = [new SharedArrayBuffer(4), new SharedArrayBuffer(4)];
    const release = (k: number) => {
      Atomics.store(new Int32Array(releases[k]!), 0, 1);
      Atomics.notify(new Int32Array(releases[k]!), 0);
    };
    const [home] = await answeredBy(task('0xf1'));
    // The first hold takes the pair's thread, the second the other one.
    const first = executor.run(task('0xf1', { amount: 'hold', prices: releases[0]! }));
    const second = executor.run(task('0xf1', { amount: 'hold', prices: releases[1]! }));
    const waiting = answeredBy(task('0xf1'));
    release(1);
    const [other] = await waiting;
    expect(other).not.toBe(home);
    release(0);
    expect((await first).info.tokenOut.split(':')[0]).toBe(home);
    expect((await second).info.tokenOut.split(':')[0]).toBe(other);
  });
});

function v3Task(sellToken: string, more: Partial<V3QuoteTask> = {}): V3QuoteTask {
  return {
    vault: 3,
    chain: { id: 1, vault: '0x', wrappedNative: '0x' },
    universe: { key: 'u', base: { key: 'u', data: new SharedArrayBuffer(0) }, deltas: [] },
    pricesKey: 't',
    prices: new SharedArrayBuffer(0),
    sellToken,
    buyToken: 'b',
    orderKind: 'sell',
    amount: '1',
    gasPrice: '0',
    timestamp: 0,
    ...more,
  };
}

/**
 * What waits for a busy thread, and in which order. Every quote carries its time bound (as the
 * service's do, `QUOTE_TIMEOUT_MS`), which is what piscina's own queue served newest first.
 */
describe('WorkerExecutor queues, one thread', () => {
  let executor: WorkerExecutor;
  beforeAll(() => {
    executor = new WorkerExecutor(1, { timeoutMs: 600_000, entry: THREAD_WORKER });
  });
  afterAll(async () => {
    await executor.close();
  });
  const hold = () => {
    const release = new SharedArrayBuffer(4);
    return {
      prices: release,
      release: () => {
        Atomics.store(new Int32Array(release), 0, 1);
        Atomics.notify(new Int32Array(release), 0);
      },
    };
  };

  test('quotes waiting for a busy thread run in the order they came', async () => {
    const { prices, release } = hold();
    const done: string[] = [];
    const held = executor.run(task('held', { amount: 'hold', prices }));
    const waiting = ['q1', 'q2', 'q3', 'q4', 'q5'].map((t) =>
      executor.runV3(v3Task(t)).then((o) => void done.push(o.info.tokenIn)),
    );
    release();
    await Promise.all([held, ...waiting]);
    expect(done).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
  });

  test('a V2 quote waiting behind V3 quotes goes next: the Vaults take turns', async () => {
    const { prices, release } = hold();
    const done: string[] = [];
    const track = (p: Promise<{ info: { tokenIn: string } }>) => p.then((o) => void done.push(o.info.tokenIn));
    const held = executor.runV3(v3Task('held', { amount: 'hold', prices }));
    const waiting = [
      ...['a', 'b', 'c'].map((t) => track(executor.runV3(v3Task(t)))),
      track(executor.run(task('v2'))),
      track(executor.runV3(v3Task('d'))),
    ];
    release();
    await Promise.all([held, ...waiting]);
    expect(done).toEqual(['v2', 'a', 'b', 'c', 'd']);
  });

  test('idle work runs in slices, only while no quote waits, and the newest per chain replaces the older', async () => {
    const { prices, release } = hold();
    const held = executor.run(task('held', { amount: 'hold', prices }));
    const older = executor.prepareV3(v3Task('older', { prepare: true, amount: '3' }));
    const idle = executor.prepareV3(v3Task('idle', { prepare: true, amount: '3' }));
    const quote = executor.run(task('quote'));
    release();
    await held;
    // The quote asked while the thread was busy runs before any slice.
    const slicesBefore = Number((await quote).info.tokenOut.split(':')[2]);
    expect(await older).toBeUndefined();
    const outcome = await idle;
    expect(outcome?.info.tokenIn).toBe('idle');
    expect(Number(outcome!.info.tokenOut.split(':')[2]) - slicesBefore).toBe(3);
    const after = await executor.run(task('after'));
    expect(Number(after.info.tokenOut.split(':')[2]) - slicesBefore).toBe(3);
  });
});
