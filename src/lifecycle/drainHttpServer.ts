import type { Server } from 'node:http';

/**
 * Graceful stop of the HTTP server: refuse new connections at once, let requests in flight finish
 * for up to `graceMs` (Cloud Run allows 10 s after SIGTERM), then cut whatever is left.
 * Keep-alive sockets are closed as soon as they go idle, so a client that keeps its connection
 * open does not hold the process.
 */
export const SHUTDOWN_GRACE_MS = 10_000;

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
