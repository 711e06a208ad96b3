import type { Server } from 'node:http';

/**
 * Graceful stop of the HTTP server: refuse new connections at once, let requests in flight finish
 * for up to `graceMs`, then cut whatever is left. Keep-alive sockets are closed as soon as they go
 * idle, so a client that keeps its connection open does not hold the process.
 *
 * Cloud Run sends SIGKILL 10 s after SIGTERM: 8 s for requests leaves time to stop timers, release
 * leases and close the store before that.
 */
export const SHUTDOWN_GRACE_MS = 8_000;
/** What is left of Cloud Run's 10 s for stopping background work once requests are done. */
export const BACKGROUND_STOP_MS = 1_500;

export async function drainHttpServer(server: Server, graceMs = SHUTDOWN_GRACE_MS): Promise<{ forced: boolean }> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const sweep = setInterval(() => server.closeIdleConnections(), 100);
  let timer: NodeJS.Timeout | undefined;
  const forced = await Promise.race([
    closed.then(() => false),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(true), graceMs);
    }),
  ]);
  clearInterval(sweep);
  clearTimeout(timer);
  if (forced) {
    server.closeAllConnections();
    await closed;
  }
  return { forced };
}

/** Waits for `work`, but no longer than `ms`; true when it finished in time. */
export async function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([
    work.then(() => true, () => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return done;
}
