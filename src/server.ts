import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from './appContext';
import type { Config } from './config/env';
import { createApp, AppOptions } from './http/app';
import { createLogger, Logger } from './log/logger';
import { ReadModel } from './readModel/readModel';
import { createStore } from './store/createStore';
import type { Store } from './store/Store';

/** Composition root: config -> store -> read model -> context. */
export async function createContext(
  config: Config,
  deps: { logger?: Logger; store?: Store; now?: () => number } = {},
): Promise<AppContext> {
  const logger = deps.logger ?? createLogger({ debug: config.debug });
  const store = deps.store ?? (await createStore(config));
  const now = deps.now ?? Date.now;
  const readModel = new ReadModel(store, config.chains.map((c) => c.id), logger);
  return { config, logger, store, readModel, now };
}

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  readonly ctx: AppContext;
  close(): Promise<void>;
}

/** Loads the read model, then listens. `port` 0 picks a free port (tests). */
export async function startServer(ctx: AppContext, port: number, options: AppOptions = {}, host?: string): Promise<RunningServer> {
  await ctx.readModel.start();
  const app = createApp(ctx, options);
  const server = createServer(app);
  // Keep-alive longer than Cloud Run's front end so it never reuses a socket we just closed.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  const url = `http://${addr.address.includes(':') ? `[${addr.address}]` : addr.address}:${addr.port}`;
  return {
    server,
    url,
    ctx,
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      ctx.readModel.stop();
      await ctx.store.close();
    },
  };
}
