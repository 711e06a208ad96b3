import type { RequestHandler } from 'express';
import helmet from 'helmet';

/**
 * Helmet's defaults on every answer (strict CSP, HSTS, nosniff, frame and referrer policies), except
 * that answers may be read cross-origin: the API is public and CORS-open. The GraphiQL page at
 * `/graphql` replaces the CSP with its own, which allows exactly its inline scripts and blob:
 * workers; JSON answers on that path keep the strict one.
 */
export const securityHeaders: RequestHandler = helmet({ crossOriginResourcePolicy: { policy: 'cross-origin' } });
