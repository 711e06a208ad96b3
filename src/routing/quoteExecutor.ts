import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Piscina } from 'piscina';
import type { RouteOutcome } from './v2/chainRouter';
import {
  isV3Task,
  RouterHost,
  type HostTask,
  type OutcomeOf,
  type QuoteTask,
  type V3QuoteTask,
  type V3RouteOutcome,
} from './routerHost';
import { withTimeLimit } from '../lifecycle/timeLimit';

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
  /**
   * Work for idle threads: a V3 universe's models at a time quotes will ask for (the next block's),
   * built ahead in slices that run only while the thread has no quote or warm-up waiting. Each
   * thread keeps the newest per chain. Resolves with what the first thread reported once it is
   * done (or dropped for a newer one).
   */
  prepareV3(task: V3QuoteTask): Promise<V3RouteOutcome | undefined>;
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

  /** The event loop has no idle thread to spare: the next block's build waits for its warm-up. */
  async prepareV3(): Promise<undefined> {
    return undefined;
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

/** Which queue a task waits in. */
type Vault = 'v2' | 'v3';

/** A task waiting for a thread, with its caller's promise. */
interface Waiting {
  readonly task: HostTask;
  readonly vault: Vault;
  /** Arrival order: a thread takes the older of its own next task and the shared one. */
  readonly seq: number;
  /** The thread a quote's pair hashes to (`pairHash`), which it goes to when that thread is free first. */
  readonly home: Lane | undefined;
  readonly signal: AbortSignal | undefined;
  readonly resolve: (outcome: OutcomeOf<HostTask>) => void;
  readonly reject: (error: unknown) => void;
  /** Takes the task out of the queue it waits in when its time bound passes before it starts. */
  onAbort: () => void;
}

/** Idle work one thread keeps for a chain: the newest task, run in slices until the thread reports it done. */
interface IdleWork {
  readonly task: HostTask;
  readonly done: (outcome: OutcomeOf<HostTask> | undefined) => void;
}

/** One quote thread: its own piscina (one thread, handed one task at a time) and what waits for it alone. */
interface Lane {
  readonly pool: Piscina<HostTask, OutcomeOf<HostTask>>;
  running: boolean;
  /** Tasks for this thread alone (warm-ups), per Vault. */
  readonly own: Record<Vault, Waiting[]>;
  /** The Vault of the last task it ran: the other one's goes next when both wait. */
  lastServed: Vault;
  /** Per chain: the idle work (`prepareV3`) the thread runs when no task waits. */
  readonly idle: Map<string, IdleWork>;
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
 * How far into the shared queue a thread that frees looks for a quote of a pair hashed to it,
 * before it takes the oldest: the pair's candidates are carried to a new version on its own
 * thread, and a quote passed over waits for at most this many others.
 */
const AFFINITY_WINDOW = 4;

/**
 * Quote threads with pair affinity, fed from one queue per Vault. Each thread keeps every pair's
 * candidate paths and carries them to each new pool version on the pair's first quote there
 * (src/domain/swap/engine.ts), so a pair whose quotes go to every thread costs every thread that
 * work at every version. A quote therefore goes to its pair's thread (by a hash of the pair) when
 * that one is free, else to any free thread; when none is, it waits in its Vault's queue, and the
 * first thread to finish takes it (or a quote of a pair hashed to it among the next few), so no
 * quote waits for one busy thread while another frees. The two Vaults' queues take turns on each
 * thread, so one Vault's load never queues the other's quotes behind it: a V2 quote under a V3
 * load waits for the first thread to finish its task, not for the V3 quotes before it. The
 * queues are ours, not piscina's, which is handed one task at a time: its own queue put a task
 * with an abort signal (each quote's time bound) that it could not start at once in front of
 * those already waiting, so under a steady load the oldest quote waited for every later one. A
 * warm-up (a new pool version's router) goes to every thread, so no thread builds it on a quote;
 * idle work (`prepareV3`) runs only on a thread nothing waits for.
 */
export class WorkerExecutor implements QuoteExecutor {
  readonly kind = 'workers';
  /** Started on the first task: a process that never routes (jobs, tests of other features) spawns no threads. */
  private lanes: Lane[] | undefined;
  /** Quotes waiting for any thread, per Vault, oldest first. */
  private readonly shared: Record<Vault, Waiting[]> = { v2: [], v3: [] };
  private seq = 0;

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

  async prepareV3(task: V3QuoteTask): Promise<V3RouteOutcome | undefined> {
    const lanes = (this.lanes ??= this.start());
    const key = `${task.chain.id}|v3`;
    const outcomes = await Promise.all(
      lanes.map(
        (lane) =>
          new Promise<OutcomeOf<HostTask> | undefined>((done) => {
            lane.idle.get(key)?.done(undefined);
            lane.idle.set(key, { task, done });
            this.pump(lane);
          }),
      ),
    );
    return outcomes[0] as V3RouteOutcome | undefined;
  }

  private async dispatch(task: HostTask): Promise<OutcomeOf<HostTask>> {
    const lanes = (this.lanes ??= this.start());
    // Every thread builds the same models, so each reports the same broken ones: the first
    // thread's outcome speaks for all.
    if (task.warmOnly) return (await Promise.all(lanes.map((lane) => this.warm(lane, task))))[0]!;
    const { timeoutMs } = this.options;
    const home = lanes[pairHash(task) % lanes.length]!;
    if (timeoutMs === undefined) return this.enqueue(task, home, undefined);
    return withTimeLimit(timeoutMs, 'quote time bound', async (signal) => {
      try {
        return await this.enqueue(task, home, signal);
      } catch (e) {
        // Piscina stops the thread of an aborted task that is running; one still waiting leaves its queue.
        if (signal.aborted) throw new QuoteTimeoutError(timeoutMs);
        throw e;
      }
    });
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
        let outcome = await this.enqueue(task, undefined, undefined, lane);
        for (let next = warming.next; next; next = warming.next) {
          warming.next = undefined;
          outcome = await this.enqueue(next, undefined, undefined, lane);
        }
        return outcome;
      } finally {
        lane.warming.delete(key);
      }
    })();
    lane.warming.set(key, warming as Warming);
    return warming.settled;
  }

  /**
   * Queues a task: on `only` (that thread alone), else for any thread, its pair's `home` first. A
   * quote with a free thread starts at once.
   */
  private enqueue(
    task: HostTask,
    home: Lane | undefined,
    signal: AbortSignal | undefined,
    only?: Lane,
  ): Promise<OutcomeOf<HostTask>> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const vault: Vault = isV3Task(task) ? 'v3' : 'v2';
      const queue = only ? only.own[vault] : this.shared[vault];
      const waiting: Waiting = { task, vault, seq: this.seq++, home, signal, resolve, reject, onAbort: () => {} };
      waiting.onAbort = () => {
        const at = queue.indexOf(waiting);
        if (at < 0) return;
        queue.splice(at, 1);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', waiting.onAbort, { once: true });
      queue.push(waiting);
      if (only) return this.pump(only);
      // The pair's thread when it is free, else any free one.
      const lanes = this.lanes ?? [];
      for (const lane of home ? [home, ...lanes] : lanes) {
        if (!lane.running) this.pump(lane);
        if (!queue.includes(waiting)) return;
      }
    });
  }

  /** The next task for a thread that has none: the Vaults' queues in turn (its own and the shared, older first), then idle work. */
  private pump(lane: Lane): void {
    if (lane.running || !this.lanes?.includes(lane)) return;
    const v2 = this.nextFor(lane, 'v2');
    const v3 = this.nextFor(lane, 'v3');
    const next = v2 && v3 ? (lane.lastServed === 'v2' ? v3 : v2) : (v2 ?? v3);
    if (next) {
      lane.lastServed = next.waiting.vault;
      next.queue.splice(next.queue.indexOf(next.waiting), 1);
      this.begin(lane, next.waiting);
      return;
    }
    const [key, work] = lane.idle.entries().next().value ?? [];
    if (key === undefined || work === undefined) return;
    lane.running = true;
    lane.pool
      .run(work.task)
      .then(
        (outcome) => {
          // A slice that left work over keeps its place, unless a newer task took it meanwhile.
          if (lane.idle.get(key) !== work) return;
          if ('more' in outcome && outcome.more === true) return;
          lane.idle.delete(key);
          work.done(outcome);
        },
        () => {
          if (lane.idle.get(key) !== work) return;
          lane.idle.delete(key);
          work.done(undefined);
        },
      )
      .finally(() => this.finished(lane));
  }

  /** The task of one Vault a thread would take next, and the queue it waits in. */
  private nextFor(lane: Lane, vault: Vault): { readonly waiting: Waiting; readonly queue: Waiting[] } | undefined {
    const own = lane.own[vault][0];
    const shared = this.shared[vault];
    let pick = shared[0];
    for (let k = 0; k < Math.min(shared.length, AFFINITY_WINDOW); k++)
      if (shared[k]!.home === lane) {
        pick = shared[k];
        break;
      }
    if (own && (!pick || own.seq < pick.seq)) return { waiting: own, queue: lane.own[vault] };
    return pick ? { waiting: pick, queue: shared } : undefined;
  }

  private begin(lane: Lane, next: Waiting): void {
    next.signal?.removeEventListener('abort', next.onAbort);
    lane.running = true;
    lane.pool
      .run(next.task, next.signal ? { signal: next.signal } : {})
      .then(next.resolve, next.reject)
      .finally(() => this.finished(lane));
  }

  private finished(lane: Lane): void {
    lane.running = false;
    this.pump(lane);
  }

  private start(): Lane[] {
    const { filename, execArgv } = this.options.entry ? tsEntry(this.options.entry) : workerEntry();
    // Quote threads run at a lower OS priority (Linux nice +10): when the CPU is contended, the
    // event loop serving /healthz, /pools and cached quotes wins over the SOR's number crunching.
    return Array.from({ length: this.threads }, () => {
      const pool = new Piscina<HostTask, OutcomeOf<HostTask>>({
        filename,
        execArgv,
        minThreads: 1,
        maxThreads: 1,
        idleTimeout: 60_000,
        niceIncrement: 10,
        ...(this.options.heapMb ? { resourceLimits: threadLimits(this.options.heapMb) } : {}),
      });
      return {
        pool,
        running: false,
        own: { v2: [], v3: [] },
        lastServed: 'v2' as Vault,
        idle: new Map(),
        warming: new Map(),
        failed: threadFailure(pool, this.options.onThreadError),
      };
    });
  }

  async close(): Promise<void> {
    const lanes = this.lanes ?? [];
    this.lanes = undefined;
    const waiting = [...this.shared.v2, ...this.shared.v3, ...lanes.flatMap((l) => [...l.own.v2, ...l.own.v3])];
    this.shared.v2.length = 0;
    this.shared.v3.length = 0;
    for (const lane of lanes) {
      lane.own.v2.length = 0;
      lane.own.v3.length = 0;
      for (const work of lane.idle.values()) work.done(undefined);
      lane.idle.clear();
    }
    for (const w of waiting) w.reject(new Error('Terminating worker thread'));
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
