import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/**
 * Graceful stop of the HTTP server without resetting a single keep-alive connection.
 *
 * A client on a keep-alive connection may send its next request at any moment; if the server
 * closes the connection at that moment the client sees ECONNRESET (and a proxy turns it into a
 * 502). So a draining server closes a connection only where no request can be racing it:
 * - every answer given from the start of the drain carries `Connection: close`, including the
 *   requests already in flight, so the client knows the connection ends with that answer;
 * - a connection with nothing in flight is closed once it has stayed idle for `IDLE_CLOSE_MS`
 *   (a busy client has sent its next request long before);
 * - whatever is still running after `graceMs` is cut.
 *
 * Cloud Run sends SIGKILL 10 s after SIGTERM: 8 s for requests leaves time to stop timers, release
 * leases and close the store before that.
 */
export const SHUTDOWN_GRACE_MS = 8_000;
/** What is left of Cloud Run's 10 s for stopping background work once requests are done. */
export const BACKGROUND_STOP_MS = 1_500;
/** A connection idle this long during the drain is closed. */
export const IDLE_CLOSE_MS = 500;

export interface HttpDrain {
  /**
   * Stops accepting connections, then waits until every connection has closed (or `graceMs`
   * passed); an idle one is closed after `idleCloseMs` of the drain.
   */
  drain(graceMs?: number, idleCloseMs?: number): Promise<{ forced: boolean }>;
}

interface Connection {
  /** The answer being written on this connection, if any. */
  busy: ServerResponse | undefined;
  idleSince: number;
}

/** Call right after creating the server, so every connection and request is seen. */
export function drainable(server: Server): HttpDrain {
  const connections = new Map<Socket, Connection>();
  let draining = false;

  server.on('connection', (socket: Socket) => {
    connections.set(socket, { busy: undefined, idleSince: Date.now() });
    socket.once('close', () => connections.delete(socket));
  });
  // Before the app's own listener, which may answer synchronously.
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const conn = connections.get(req.socket);
    if (conn) conn.busy = res;
    if (draining) res.setHeader('Connection', 'close');
    res.once('close', () => {
      if (conn && conn.busy === res) {
        conn.busy = undefined;
        conn.idleSince = Date.now();
      }
    });
  });

  return {
    async drain(graceMs = SHUTDOWN_GRACE_MS, idleCloseMs = IDLE_CLOSE_MS) {
      draining = true;
      const startedAt = Date.now();
      for (const conn of connections.values()) {
        if (conn.busy && !conn.busy.headersSent) conn.busy.setHeader('Connection', 'close');
      }
      // net.Server's close only stops accepting; http.Server's would also drop idle keep-alive
      // connections at once, which is exactly the race described above.
      const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
      const closeIdle = () => {
        const now = Date.now();
        for (const [socket, conn] of connections) {
          if (!conn.busy && now - Math.max(conn.idleSince, startedAt) >= idleCloseMs) socket.destroy();
        }
      };
      const sweep = setInterval(closeIdle, 50);
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
        for (const socket of connections.keys()) socket.destroy();
        await closed;
      }
      return { forced };
    },
  };
}

/** Waits for `work`, but no longer than `ms`; true when it finished in time. */
export async function within(ms: number, work: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const done = await Promise.race([
    work.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]);
  clearTimeout(timer);
  return done;
}
