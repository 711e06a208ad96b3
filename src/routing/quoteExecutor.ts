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
  return {
    filename: join(__dirname, 'worker', 'quoteWorker.ts'),
    execArgv: [...process.execArgv, '--require', require.resolve('tsx/cjs')],
  };
}

export class WorkerExecutor implements QuoteExecutor {
  readonly kind = 'workers';
  /** Started on the first quote: a process that never routes (jobs, tests of other features) spawns no threads. */
  private pool: Piscina<QuoteTask, RouteOutcome> | undefined;

  constructor(private readonly threads: number) {}

  run(task: QuoteTask): Promise<RouteOutcome> {
    this.pool ??= this.start();
    return this.pool.run(task);
  }

  private start(): Piscina<QuoteTask, RouteOutcome> {
    const { filename, execArgv } = workerEntry();
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

export function createExecutor(workers: number): QuoteExecutor {
  return workers > 0 ? new WorkerExecutor(workers) : new InProcessExecutor();
}
