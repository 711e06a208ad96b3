import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import type { RouteOutcome } from './chainRouter';
import { RouterHost, type QuoteTask } from './routerHost';

/**
 * Where quotes are computed: a worker-thread pool (so the event loop keeps serving `/healthz`,
 * `/pools` and cache hits while the SOR crunches), or the main thread when `ROUTER_WORKERS=0`.
 */
export interface QuoteExecutor {
  readonly kind: 'workers' | 'in-process';
  run(task: QuoteTask): Promise<RouteOutcome>;
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
}

export class WorkerExecutor implements QuoteExecutor {
  readonly kind = 'workers';
  /** Started on the first quote: a process that never routes (jobs, tests of other features) spawns no threads. */
  private pool: Piscina<QuoteTask, RouteOutcome> | undefined;

  constructor(
    private readonly threads: number,
    private readonly options: WorkerExecutorOptions = {},
  ) {}

  async run(task: QuoteTask): Promise<RouteOutcome> {
    this.pool ??= this.start();
    const { timeoutMs } = this.options;
    if (timeoutMs === undefined || task.warmOnly) return this.pool.run(task);
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await this.pool.run(task, { signal });
    } catch (e) {
      // Piscina stops the thread of an aborted task that is running (and drops one still queued).
      if (signal.aborted) throw new QuoteTimeoutError(timeoutMs);
      throw e;
    }
  }

  private start(): Piscina<QuoteTask, RouteOutcome> {
    const { filename, execArgv } = this.options.entry ? tsEntry(this.options.entry) : workerEntry();
    const threads = this.threads;
    // Quote threads run at a lower OS priority (Linux nice +10): when the CPU is contended, the
    // event loop serving /healthz, /pools and cached quotes wins over the SOR's number crunching.
    // stricterFIFO: without it piscina moves a task it could not hand out to the back of the
    // queue, so under load some quotes wait for every later one (seconds at 8 in flight).
    return new Piscina({
      filename,
      execArgv,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: 60_000,
      niceIncrement: 10,
      stricterFIFO: true,
    });
  }

  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }
}

export function createExecutor(workers: number, timeoutMs?: number): QuoteExecutor {
  return workers > 0
    ? new WorkerExecutor(workers, timeoutMs === undefined ? {} : { timeoutMs })
    : new InProcessExecutor();
}
