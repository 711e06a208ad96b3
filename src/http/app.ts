import compression from 'compression';
import express, { Express, Router } from 'express';
import type { AppContext } from '../appContext';
import { appStateKey } from '../appState';
import { refuseDeclaredOversizedBody, requireJsonBody } from './bodyChecks';
import { requireHostHeader } from './clientError';
import { cors } from './cors';
import { ClientError, errorHandler, notFoundHandler, type RefusalLog, ServerErrorReporter } from './errors';
import { exceedsJsonDepth, MAX_JSON_DEPTH } from './jsonDepth';
import { requestLog } from './requestLog';
import { healthRouter } from './routes/health';
import { poolsRouter } from './routes/pools';
import { tokensRouter } from './routes/tokens';

export const JSON_BODY_LIMIT_BYTES = 32 * 1024;

/** The operational refusals this app last logged, per scope (`OperationalRefusal`). */
const refusalLogKey = appStateKey('operational refusals logged', (): RefusalLog => new Map());

export interface AppOptions {
  /** Routers of later features (routing, GraphQL, jobs, sanctions, simulator), mounted in order. */
  readonly routers?: readonly Router[];
  /** Middleware that must run before the routes (rate limits, auth). */
  readonly before?: readonly express.RequestHandler[];
  readonly reportServerError?: ServerErrorReporter;
}

/** The Express app: pure wiring of middleware and routers around an `AppContext`. */
export function createApp(ctx: AppContext, options: AppOptions = {}): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // Off unless configured: reached directly, a forged X-Forwarded-For would pick the client's
  // address (and with it a fresh rate budget). The Pulumi program sets 1 for Cloud Run's front end.
  const trust = ctx.config.trustProxy;
  app.set('trust proxy', Array.isArray(trust) ? [...trust] : trust);

  app.use(requestLog(ctx.logger));
  app.use(cors);
  app.use(requireHostHeader);
  // Before anything that could wait: a declared body over the limit is answered at once.
  app.use(refuseDeclaredOversizedBody(JSON_BODY_LIMIT_BYTES));
  app.use(healthRouter(ctx));
  for (const mw of options.before ?? []) app.use(mw);
  // The read routes send bodies compressed once per data version; they sit before compression()
  // so it does not wrap responses it would never touch.
  app.use(poolsRouter(ctx));
  app.use(tokensRouter(ctx));
  // Only bodies worth it: a quote answer (1-4 KB) gzips to a few hundred bytes, but the zlib stream
  // compression() opens per response cost 16 % of the request thread under quote load.
  app.use(compression({ threshold: 8192 }));
  app.use(
    express.json({
      limit: JSON_BODY_LIMIT_BYTES,
      strict: false,
      type: ['application/json', 'application/*+json'],
      // Thousands of nested brackets fit in 32 KB; nothing downstream should recurse over them.
      verify: (_req, _res, raw) => {
        if (exceedsJsonDepth(raw)) {
          throw new ClientError(
            400,
            'entity.too.deep',
            `JSON body nested deeper than ${MAX_JSON_DEPTH} levels; send a flatter body`,
          );
        }
      },
    }),
  );

  app.use(requireJsonBody);

  for (const r of options.routers ?? []) app.use(r);

  app.use(notFoundHandler);
  app.use(errorHandler(options.reportServerError, ctx.state.get(refusalLogKey)));
  return app;
}
