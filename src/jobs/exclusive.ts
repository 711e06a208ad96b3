import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { reportJobFailure } from '../errorTracking/ErrorTracker';
import type { Store } from '../store/Store';

/**
 * Runs a job under a store lease so that it runs once at a time across every instance
 * (DESIGN section 3): acquire or fail at once, renew while running, release in `finally`.
 * A crashed holder blocks only until its lease expires.
 */
export class JobAlreadyRunning extends Error {}

/** Identifies this process in lease documents (useful when reading them in the console). */
export const PROCESS_OWNER = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;

export interface ExclusiveOptions {
  readonly scope: string;
  readonly job: string;
  /** What the caller is told when the job is already running. */
  readonly busyMessage: string;
  readonly ttlMs?: number;
  readonly now: () => number;
}

/** Leases this process currently holds, so shutdown can release them. */
const held = new Map<string, { store: Store; scope: string; job: string; owner: string }>();

export async function runExclusive<T>(store: Store, opts: ExclusiveOptions, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const ttlMs = opts.ttlMs ?? 60_000;
  const owner = `${PROCESS_OWNER}:${randomUUID().slice(0, 8)}`;
  const lease = { scope: opts.scope, job: opts.job, owner, ttlMs };
  if (!(await store.acquireLease({ ...lease, nowMs: opts.now() }))) throw new JobAlreadyRunning(opts.busyMessage);
  const key = `${opts.scope}/${opts.job}/${owner}`;
  held.set(key, { store, scope: opts.scope, job: opts.job, owner });
  const abort = new AbortController();
  const renew = setInterval(() => {
    store.renewLease({ ...lease, nowMs: opts.now() }).then(
      (ok) => {
        if (!ok) abort.abort(new Error(`lost the ${opts.job} lease for ${opts.scope}`));
      },
      () => undefined, // a missed renewal is retried on the next tick; the lease has slack
    );
  }, Math.max(50, Math.floor(ttlMs / 3)));
  renew.unref();
  try {
    return await fn(abort.signal);
  } catch (e) {
    // Every job runs through here (endpoint, timer, Cloud Tasks, CLI): one place to report failures.
    reportJobFailure(e, { job: opts.job, chainId: /^\d+$/.test(opts.scope) ? Number(opts.scope) : undefined });
    throw e;
  } finally {
    clearInterval(renew);
    held.delete(key);
    await store.releaseLease(opts.scope, opts.job, owner).catch(() => undefined);
  }
}

/**
 * Releases every lease this process holds (graceful shutdown); with `store`, only the leases held
 * in that store (a server closing in a test process must not free another server's jobs).
 */
export async function releaseAllHeldLeases(store?: Store): Promise<number> {
  const all = [...held.entries()].filter(([, l]) => store === undefined || l.store === store);
  for (const [key] of all) held.delete(key);
  await Promise.all(all.map(([, l]) => l.store.releaseLease(l.scope, l.job, l.owner).catch(() => undefined)));
  return all.length;
}
