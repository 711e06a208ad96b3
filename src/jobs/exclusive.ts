import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { AppContext } from '../appContext';
import { appStateKey } from '../appState';
import type { Store } from '../store/Store';

/**
 * Runs a job under a store lease so that it runs once at a time across every instance
 * (docs/ARCHITECTURE.md, "Jobs and leases"): acquire or fail at once, renew while running,
 * release in `finally`.
 * The lease lives 15 s and is renewed every 5 s, so a crashed holder blocks the job for at most
 * 15 s after its last renewal.
 */
export class JobAlreadyRunning extends Error {
  override readonly name: string = 'JobAlreadyRunning';
  constructor(
    message: string,
    /** When the caller may try again: when the holder's lease would expire if it died now. */
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

export const LEASE_TTL_MS = 15_000;

/** Identifies this process in lease documents (useful when reading them in the console). */
export const PROCESS_OWNER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

/** A lease owner is `<instance>:<run>`; the instance part is what an operator can look for. */
function instanceOf(owner: string): string {
  const cut = owner.lastIndexOf(':');
  return cut > 0 ? owner.slice(0, cut) : owner;
}

async function busy(store: Store, opts: ExclusiveOptions): Promise<JobAlreadyRunning> {
  const lease = await store.readLease(opts.scope, opts.job).catch(() => undefined);
  if (!lease) return new JobAlreadyRunning(`${opts.busyMessage}; retry after 1 s`, 1);
  const retryAfter = Math.max(1, Math.ceil((lease.expiresAtMs - opts.now()) / 1000));
  return new JobAlreadyRunning(
    `${opts.busyMessage} (since ${new Date(lease.acquiredAtMs).toISOString()} on instance ${instanceOf(lease.owner)}); retry after ${retryAfter} s`,
    retryAfter,
  );
}

export interface ExclusiveOptions {
  readonly scope: string;
  readonly job: string;
  /** What the caller is told when the job is already running. */
  readonly busyMessage: string;
  readonly ttlMs?: number;
  readonly now: () => number;
  /**
   * Unix ms (real clock) up to which a caller that finds the job running waits instead of failing
   * at once: a run in this process is joined (its result or error is the caller's), a run elsewhere
   * is waited out until its lease frees and then this caller runs the job itself. Timers and the
   * CLI leave it unset: a busy job is a skipped tick or a message for them.
   */
  readonly waitUntil?: number;
}

/** How a job is called: the endpoints and the scheduler wait for a run in flight, timers and the CLI do not. */
export interface JobCallOptions {
  /**
   * Wait for a run already in flight (and answer its result) instead of failing at once, within
   * the job's deadline: what callers who want the data updated (POST, the scheduler) need.
   */
  readonly waitForRunning?: boolean;
}

/** How often a caller waiting for another instance's run looks at the lease again. */
const WAIT_POLL_MS = 250;

interface HeldLease {
  readonly scope: string;
  readonly job: string;
  readonly owner: string;
  /** Settles with the run's outcome, for callers that join it. */
  readonly done: Promise<unknown>;
}

/**
 * Leases the app currently holds (and their runs), so its callers can join a run and its shutdown
 * can release them. Per app: another app in the same process is another instance to this one.
 */
const HELD_LEASES = appStateKey('job leases held', () => new Map<string, HeldLease>());

function runningHere(held: ReadonlyMap<string, HeldLease>, opts: ExclusiveOptions): HeldLease | undefined {
  for (const l of held.values()) if (l.scope === opts.scope && l.job === opts.job) return l;
  return undefined;
}

export async function runExclusive<T>(
  ctx: AppContext,
  opts: ExclusiveOptions,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const store = ctx.store;
  for (;;) {
    const inFlight = opts.waitUntil !== undefined ? runningHere(ctx.state.get(HELD_LEASES), opts) : undefined;
    if (inFlight) return (await settledBy(inFlight.done, opts.waitUntil as number, () => busy(store, opts))) as T;
    const owner = `${PROCESS_OWNER}:${randomUUID().slice(0, 8)}`;
    if (
      await store.acquireLease({
        scope: opts.scope,
        job: opts.job,
        owner,
        ttlMs: opts.ttlMs ?? LEASE_TTL_MS,
        nowMs: opts.now(),
      })
    ) {
      return runHeld(ctx, opts, owner, fn);
    }
    const until = opts.waitUntil;
    if (until === undefined || Date.now() >= until) throw await busy(store, opts);
    await new Promise((r) => setTimeout(r, Math.min(WAIT_POLL_MS, Math.max(0, until - Date.now()))));
  }
}

/** The run's outcome, or the busy error once `until` passes first. */
async function settledBy(done: Promise<unknown>, until: number, onTimeout: () => Promise<Error>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const late = Symbol('late');
  try {
    const outcome = await Promise.race([
      done,
      new Promise<typeof late>((resolve) => (timer = setTimeout(() => resolve(late), Math.max(0, until - Date.now())))),
    ]);
    if (outcome === late) throw await onTimeout();
    return outcome;
  } finally {
    clearTimeout(timer);
  }
}

function runHeld<T>(
  ctx: AppContext,
  opts: ExclusiveOptions,
  owner: string,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const { store } = ctx;
  const held = ctx.state.get(HELD_LEASES);
  const lease = { scope: opts.scope, job: opts.job, owner, ttlMs: opts.ttlMs ?? LEASE_TTL_MS };
  const key = `${opts.scope}/${opts.job}/${owner}`;
  const execute = async (): Promise<T> => {
    const abort = new AbortController();
    const renew = setInterval(
      () => {
        store.renewLease({ ...lease, nowMs: opts.now() }).then(
          (ok) => {
            if (!ok) abort.abort(new Error(`lost the ${opts.job} lease for ${opts.scope}`));
          },
          () => undefined, // a missed renewal is retried on the next tick; the lease outlives two misses
        );
      },
      Math.max(50, Math.floor(lease.ttlMs / 3)),
    );
    renew.unref();
    try {
      return await fn(abort.signal);
    } catch (e) {
      // Every job runs through here (endpoint, timer, Cloud Tasks, CLI): one place to report failures.
      ctx.errorTracker.reportJobFailure(e, {
        job: opts.job,
        chainId: /^\d+$/.test(opts.scope) ? Number(opts.scope) : undefined,
      });
      throw e;
    } finally {
      clearInterval(renew);
      held.delete(key);
      await store.releaseLease(opts.scope, opts.job, owner).catch(() => undefined);
    }
  };
  // Registered before the run starts, so a caller arriving at any point of it can join.
  let start!: (run: Promise<T>) => void;
  const done = new Promise<T>((resolve) => (start = resolve));
  held.set(key, { scope: opts.scope, job: opts.job, owner, done });
  start(execute());
  return done;
}

/** Releases every lease the app holds (graceful shutdown), so the next instance need not wait for them to expire. */
export async function releaseAllHeldLeases(ctx: AppContext): Promise<number> {
  const held = ctx.state.get(HELD_LEASES);
  const all = [...held.entries()];
  held.clear();
  await Promise.all(all.map(([, l]) => ctx.store.releaseLease(l.scope, l.job, l.owner).catch(() => undefined)));
  return all.length;
}
