import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Helmet's defaults everywhere (strict CSP, HSTS, nosniff, frame and referrer policies), with two
 * adjustments: responses may be read cross-origin (the API is public and CORS-open), and
 * `/graphql` gets a CSP that lets GraphiQL load its bundle and workers from unpkg and run its
 * inline bootstrap script.
 */
const crossOriginResourcePolicy = { policy: 'cross-origin' as const };

const GRAPHIQL_CDN = 'https://unpkg.com';

const api = helmet({ crossOriginResourcePolicy });

const graphiql = helmet({
  crossOriginResourcePolicy,
  contentSecurityPolicy: {
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'", "'unsafe-inline'", GRAPHIQL_CDN],
      'style-src': ["'self'", "'unsafe-inline'", GRAPHIQL_CDN],
      'img-src': ["'self'", 'data:', GRAPHIQL_CDN, 'https://raw.githubusercontent.com'],
      'font-src': ["'self'", 'data:', GRAPHIQL_CDN],
      'connect-src': ["'self'", GRAPHIQL_CDN],
      'worker-src': ["'self'", 'blob:'],
      // The demo and tests serve plain http on loopback; upgrading would break GraphiQL's own fetches.
      'upgrade-insecure-requests': null,
    },
  },
});

export const securityHeaders: RequestHandler = (req, res, next) =>
  (/^\/graphql(\/|$)/i.test(req.path) ? graphiql : api)(req, res, next);
