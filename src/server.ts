import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppContext } from './appContext';
import { AppState } from './appState';
import { ConfigError, type Config } from './config/env';
import { memoryShortfall } from './config/memoryNeed';
import { FEATURES } from './features';
import type { Feature, FeatureFactory } from './http/feature';
import { createApp, AppOptions } from './http/app';
import { answerClientError, answerExpectation } from './http/clientError';
import type { ServerErrorReporter } from './http/errors';
import { releaseAllHeldLeases } from './jobs/exclusive';
import { BACKGROUND_STOP_MS, drainable, within } from './lifecycle/drainHttpServer';
import { ErrorTrackerSlot } from './log/errorTracker';
import { createLogger, Logger } from './log/logger';
import { ReadModel } from './readModel/readModel';
import { createStore } from './store/createStore';
import type { Store } from './store/Store';

/** Composition root: config -> store -> read model -> context (a fresh one per app, with its own state). */
export async function createContext(
  config: Config,
  deps: { logger?: Logger; store?: Store; now?: () => number } = {},
): Promise<AppContext> {
  const logger = deps.logger ?? createLogger({ debug: config.debug });
  const store = deps.store ?? (await createStore(config));
  const now = deps.now ?? Date.now;
  const readModel = new ReadModel({ store, chainIds: config.chains.map((c) => c.id), logger });
  return { config, logger, store, readModel, now, errorTracker: new ErrorTrackerSlot(), state: new AppState() };
}

export interface RunningServer {
  readonly server: Server;
  readonly url: string;
  readonly ctx: AppContext;
  close(): Promise<void>;
}

export interface StartOptions extends AppOptions {
  /** Features to mount; all of FEATURES by default. */
  readonly features?: readonly FeatureFactory[];
  /** Start background work (embedded timers). The process entry point does; tests usually don't. */
  readonly background?: boolean;
  readonly host?: string;
  /**
   * How long the stop waits before closing an idle keep-alive connection (IDLE_CLOSE_MS in
   * lifecycle/drainHttpServer.ts). A test whose clients are done can close at once.
   */
  readonly idleCloseMs?: number;
}

/**
 * Fails the start, before any quote thread builds its routers, when the loaded pools need more
 * memory than the instance has: an OOM kill later would name no cause.
 */
function refuseTooLittleMemory(ctx: AppContext): void {
  const poolsByChain = new Map(ctx.config.chains.map((c) => [c.id, ctx.readModel.get(c.id)?.pools.length ?? 0]));
  const shortfall = memoryShortfall({
    poolsByChain,
    threads: ctx.config.routing.workers,
    limitMib: ctx.config.memoryLimitMib,
  });
  if (shortfall) throw new ConfigError(shortfall);
}

/** Loads the read model, builds the features, then listens. `port` 0 picks a free port (tests). */
export async function startServer(ctx: AppContext, port: number, options: StartOptions = {}): Promise<RunningServer> {
  await ctx.readModel.start();
  try {
    refuseTooLittleMemory(ctx);
  } catch (e) {
    ctx.readModel.stop();
    await ctx.store.close();
    throw e;
  }
  const features: Feature[] = [];
  for (const make of options.features ?? FEATURES) features.push(await make(ctx));
  const app = createApp(ctx, {
    ...options,
    routers: [...features.flatMap((f) => f.routers ?? []), ...(options.routers ?? [])],
    before: [...features.flatMap((f) => f.before ?? []), ...(options.before ?? [])],
    reportServerError: combineReporters([...features.map((f) => f.reportServerError), options.reportServerError]),
  });
  const { requestTimeoutMs, headersTimeoutMs } = ctx.config.http;
  const server = createServer(
    {
      // A client gets this long to send a whole request, and its headers, before a 408 (Node's
      // defaults, 300 s and 60 s, let a stalled upload hold a connection for minutes). The
      // timeouts are checked every connectionsCheckingInterval, so that is a fraction of them.
      requestTimeout: requestTimeoutMs,
      headersTimeout: headersTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(5_000, Math.floor(headersTimeoutMs / 4))),
      // Node's check answers a bare 400; the app's requireHostHeader answers it as JSON.
      requireHostHeader: false,
    },
    app,
  );
  // Parser refusals (431, 400, 408) answered as JSON like every other error.
  server.on('clientError', answerClientError(ctx.logger));
  server.on('checkExpectation', answerExpectation(ctx.logger));
  const drain = drainable(server);
  // Keep-alive longer than Cloud Run's front end so it never reuses a socket we just closed.
  server.keepAliveTimeout = 65_000;
  const stopBackground = async () => {
    // Stop timers, then give back any lease a still-running job holds so the next instance need
    // not wait for it to expire.
    const stopBy = Date.now() + BACKGROUND_STOP_MS;
    for (const f of [...features].reverse()) {
      if (f.stop && !(await within(Math.max(0, stopBy - Date.now()), Promise.resolve(f.stop())))) {
        ctx.logger.warn({ feature: f.name }, 'feature did not stop in time');
      }
    }
    const released = await releaseAllHeldLeases(ctx);
    if (released > 0) ctx.logger.info({ released }, 'released held job leases');
    ctx.readModel.stop();
    await ctx.store.close();
  };
  // Features start before the server listens: one that cannot start (quote threads that do not
  // load) fails the start with nothing left running, and a signal never meets a half-started app.
  if (options.background)
    try {
      for (const f of features) await f.start?.();
    } catch (e) {
      await stopBackground();
      throw e;
    }
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, options.host, () => resolve());
    });
  } catch (e) {
    // A port already taken: the started background work stops too.
    await stopBackground();
    throw e;
  }
  const close = async () => {
    // Stop accepting, let requests in flight finish (bounded) and close every keep-alive
    // connection cleanly, then stop the background work.
    const { forced } = await drain.drain(undefined, options.idleCloseMs);
    if (forced) ctx.logger.warn('requests still running after the shutdown grace period were cut');
    await stopBackground();
  };
  const addr = server.address() as AddressInfo;
  const url = `http://${addr.address.includes(':') ? `[${addr.address}]` : addr.address}:${addr.port}`;
  return { server, url, ctx, close };
}

function combineReporters(reporters: readonly (ServerErrorReporter | undefined)[]): ServerErrorReporter | undefined {
  const all = reporters.filter((r): r is ServerErrorReporter => r !== undefined);
  if (all.length === 0) return undefined;
  return (err, req, status) => {
    for (const report of all) report(err, req, status);
  };
}
