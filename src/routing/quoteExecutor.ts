import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import type { RouteOutcome } from './chainRouter';
import {
  isV3Task,
  RouterHost,
  type HostTask,
  type OutcomeOf,
  type QuoteTask,
  type V3QuoteTask,
  type V3RouteOutcome,
} from './routerHost';

/**
 * Where quotes are computed: a worker-thread pool (so the event loop keeps serving `/healthz`,
 * `/pools` and cache hits while the SOR crunches), or the main thread when `ROUTER_WORKERS=0`.
 */
export interface QuoteExecutor {
  readonly kind: 'workers' | 'in-process';
  run(task: QuoteTask): Promise<RouteOutcome>;
  /**
   * Resolves once every quote thread has started and loaded its module; rejects naming why one
   * could not (a Node flag worker threads refuse, a module that throws at load), so a service
   * without working quote threads fails at start instead of answering every quote 500.
   */
  ready(): Promise<void>;
  /** A quote (or warm-up) within the V3 Vault. */
  runV3(task: V3QuoteTask): Promise<V3RouteOutcome>;
  close(): Promise<void>;
}

/**
 * A quote that did not finish in time: its worker thread was stopped (piscina starts another), so
 * a quote that never ends costs one request, not a thread for good.
 */
export class QuoteTimeoutError extends Error {
  override readonly name = 'QuoteTimeoutError';
  constructor(readonly timeoutMs: number) {
    super(`the quote did not finish within ${timeoutMs} ms; its worker thread was stopped`);
  }
}

/** With `ROUTER_WORKERS=0` a quote runs on the event loop itself: nothing can stop it, so no time bound. */
export class InProcessExecutor implements QuoteExecutor {
  readonly kind = 'in-process';
  private readonly host = new RouterHost();

  run(task: QuoteTask): Promise<RouteOutcome> {
    return this.host.quote(task);
  }

  async ready(): Promise<void> {}

  runV3(task: V3QuoteTask): Promise<V3RouteOutcome> {
    return this.host.quoteV3(task);
  }

  async close(): Promise<void> {}
}

/**
 * The compiled service runs `worker/quoteWorker.js`. From sources (tsx, jest) the worker is the
 * `.ts` file and needs a TypeScript loader: tsx's CommonJS hook, required into each worker.
 */
function workerEntry(): { filename: string; execArgv: string[] } {
  const js = join(__dirname, 'worker', 'quoteWorker.js');
  if (existsSync(js)) return { filename: js, execArgv: process.execArgv };
  return tsEntry(join(__dirname, 'worker', 'quoteWorker.ts'));
}

function tsEntry(filename: string): { filename: string; execArgv: string[] } {
  return { filename, execArgv: [...process.execArgv, '--require', require.resolve('tsx/cjs')] };
}

export interface WorkerExecutorOptions {
  /**
   * Longest a quote may take, queueing included (`QUOTE_TIMEOUT_MS`); then it fails with
   * `QuoteTimeoutError` and the thread running it is replaced. Warm-ups (building a router) are
   * not bounded: they are not requests, and a new pool version's build may take a while.
   */
  readonly timeoutMs?: number;
  /** The worker module (a `.ts` file runs through tsx); the service's quote worker by default. */
  readonly entry?: string;
  /** Each thread's old-generation heap in MiB (`ROUTER_THREAD_HEAP_MB`); absent or 0: V8's own limit. */
  readonly heapMb?: number;
  /** Told of a thread that failed with no task in hand (piscina replaces it); unheard, it is dropped. */
  readonly onThreadError?: (e: Error) => void;
}

/** One quote thread: its own piscina (one thread, its own queue) and the tasks handed to it not yet settled. */
interface Lane {
  readonly pool: Piscina<HostTask, OutcomeOf<HostTask>>;
  pending: number;
  /** Per chain (and engine, floor): the warm-up handed to the thread and the newest one waiting behind it. */
  readonly warming: Map<string, Warming>;
  /** Rejects with the thread's first failure outside a task: a module that throws as it loads. */
  readonly failed: Promise<never>;
}

interface Warming {
  next: HostTask | undefined;
  readonly settled: Promise<OutcomeOf<HostTask>>;
}

/**
 * Quote threads with pair affinity. Each thread keeps every pair's candidate paths and carries
 * them to each new pool version on the pair's first quote there (src/domain/swap/engine.ts), so a
 * pair whose quotes go to every thread costs every thread that work at every version. A pair's
 * quotes therefore go to one thread (by a hash of the pair) unless another thread is idle while
 * that one is not, or that one has more than one task more in hand than the least busy one: then
 * to the least busy, so no thread waits while another has a queue, and one pair's burst or one
 * slow quote does not queue the rest behind it. A warm-up (a new pool version's
 * router) goes to every thread, so no thread builds it on a quote.
 */
export class WorkerExecutor implements QuoteExecutor {
  readonly kind = 'workers';
  /** Started on the first task: a process that never routes (jobs, tests of other features) spawns no threads. */
  private lanes: Lane[] | undefined;

  constructor(
    private readonly threads: number,
    private readonly options: WorkerExecutorOptions = {},
  ) {}

  async ready(): Promise<void> {
    const lanes = (this.lanes ??= this.start());
    // The worker module's `ready` export, which takes nothing: answering it means the thread
    // started and the module loaded. A module that throws as it loads may fail the thread before
    // the task reaches it: piscina then starts no other thread and the task would wait forever.
    await Promise.all(
      lanes.map((lane) => Promise.race([lane.pool.run(undefined as never, { name: 'ready' }), lane.failed])),
    );
  }

  // The thread answers each task with its own kind's outcome (`RouterHost.run`).
  run(task: QuoteTask): Promise<RouteOutcome> {
    return this.dispatch(task) as Promise<RouteOutcome>;
  }

  runV3(task: V3QuoteTask): Promise<V3RouteOutcome> {
    return this.dispatch(task) as Promise<V3RouteOutcome>;
  }

  private async dispatch(task: HostTask): Promise<OutcomeOf<HostTask>> {
    const lanes = (this.lanes ??= this.start());
    // Every thread builds the same models, so each reports the same broken ones: the first
    // thread's outcome speaks for all.
    if (task.warmOnly) return (await Promise.all(lanes.map((lane) => this.warm(lane, task))))[0]!;
    const { timeoutMs } = this.options;
    const lane = this.laneFor(lanes, task);
    if (timeoutMs === undefined) return this.send(lane, task);
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await this.send(lane, task, signal);
    } catch (e) {
      // Piscina stops the thread of an aborted task that is running (and drops one still queued).
      if (signal.aborted) throw new QuoteTimeoutError(timeoutMs);
      throw e;
    }
  }

  /**
   * A warm-up on one thread. Versions can come faster than a thread builds them (a 250 ms chain, a
   * thread busy with a slow quote): a thread that has a warm-up in hand keeps only the newest one
   * waiting behind it, so it never builds versions already outdated while quotes queue behind them
   * (a skipped version's pools reach the thread inside the next one's deltas).
   */
  private warm(lane: Lane, task: HostTask): Promise<OutcomeOf<HostTask>> {
    const key = isV3Task(task) ? `${task.chain.id}|v3` : `${task.chain.id}|${task.engine}|${task.minLiquidityUsd}`;
    const inHand = lane.warming.get(key);
    if (inHand) {
      inHand.next = task;
      return inHand.settled;
    }
    const warming: { next: HostTask | undefined; settled?: Promise<OutcomeOf<HostTask>> } = { next: undefined };
    warming.settled = (async () => {
      try {
        let outcome = await this.send(lane, task);
        for (let next = warming.next; next; next = warming.next) {
          warming.next = undefined;
          outcome = await this.send(lane, next);
        }
        return outcome;
      } finally {
        lane.warming.delete(key);
      }
    })();
    lane.warming.set(key, warming as Warming);
    return warming.settled;
  }

  private async send(lane: Lane, task: HostTask, signal?: AbortSignal): Promise<OutcomeOf<HostTask>> {
    lane.pending++;
    try {
      return await lane.pool.run(task, signal ? { signal } : {});
    } finally {
      lane.pending--;
    }
  }

  private laneFor(lanes: readonly Lane[], task: HostTask): Lane {
    const preferred = lanes[pairHash(task) % lanes.length]!;
    let least = preferred;
    for (const lane of lanes) if (lane.pending < least.pending) least = lane;
    // A thread with nothing to do takes the task; among busy ones the pair's own thread may be one task behind.
    if (preferred.pending === 0 || (least.pending > 0 && preferred.pending <= least.pending + 1)) return preferred;
    return least;
  }

  private start(): Lane[] {
    const { filename, execArgv } = this.options.entry ? tsEntry(this.options.entry) : workerEntry();
    // Quote threads run at a lower OS priority (Linux nice +10): when the CPU is contended, the
    // event loop serving /healthz, /pools and cached quotes wins over the SOR's number crunching.
    // stricterFIFO: without it piscina moves a task it could not hand out to the back of the
    // queue, so under load some quotes wait for every later one (seconds at 8 in flight).
    return Array.from({ length: this.threads }, () => {
      const pool = new Piscina<HostTask, OutcomeOf<HostTask>>({
        filename,
        execArgv,
        minThreads: 1,
        maxThreads: 1,
        idleTimeout: 60_000,
        niceIncrement: 10,
        stricterFIFO: true,
        ...(this.options.heapMb ? { resourceLimits: threadLimits(this.options.heapMb) } : {}),
      });
      return { pool, pending: 0, warming: new Map(), failed: threadFailure(pool, this.options.onThreadError) };
    });
  }

  async close(): Promise<void> {
    const lanes = this.lanes ?? [];
    this.lanes = undefined;
    await Promise.all(lanes.map((lane) => lane.pool.destroy()));
  }
}

/**
 * A piscina emits `error` for a thread that fails with no task in hand; with no listener that is
 * an uncaught error that ends the process. The first one rejects the promise returned.
 */
function threadFailure(pool: Piscina, told: ((e: Error) => void) | undefined): Promise<never> {
  let reject!: (e: Error) => void;
  const failed = new Promise<never>((_, r) => (reject = r));
  // Only `ready()` awaits it: a failure after the start is told, not left unhandled.
  failed.catch(() => undefined);
  pool.on('error', (e: Error) => {
    reject(e);
    told?.(e);
  });
  return failed;
}

/** The same for a pair whichever way its tokens are spelt (FNV-1a over the lower-cased addresses, then mixed). */
function pairHash(task: HostTask): number {
  let h = 0x811c9dc5;
  for (const s of [task.sellToken, task.buyToken]) {
    for (let k = 0; k < s.length; k++) {
      h ^= s.charCodeAt(k) | 0x20;
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x3e;
  }
  // FNV's low bits follow the characters' low bits alone: mix before taking a remainder.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * A capped thread's heap: the old generation as configured, and a young generation of 8 MiB
 * (V8's default is several times that): a thread's young garbage then holds at most that much
 * resident memory (`npm run bench -- memory` measures the whole).
 */
function threadLimits(heapMb: number): { maxOldGenerationSizeMb: number; maxYoungGenerationSizeMb: number } {
  return { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: 8 };
}

export function createExecutor(workers: number, options: WorkerExecutorOptions = {}): QuoteExecutor {
  return workers > 0 ? new WorkerExecutor(workers, options) : new InProcessExecutor();
}
