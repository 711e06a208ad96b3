import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '../log/logger';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    log: Logger;
  }
}

/** `res.locals` key the error handler sets on a 5xx that is the setup's state, not a fault. */
export const NOT_A_FAULT = 'notAFault';

/**
 * Request id (from Cloud Run's trace header or `X-Request-Id`, else new), a child logger carrying
 * it, and one access line per request with its latency.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const trace = req.headers['x-cloud-trace-context'];
    const given = req.headers['x-request-id'];
    req.id =
      (typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : undefined) ??
      (typeof trace === 'string' ? trace.split('/')[0] : undefined) ??
      randomUUID();
    req.log = logger.child({ requestId: req.id });
    res.setHeader('X-Request-Id', req.id);
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const latencyMs = Number(process.hrtime.bigint() - start) / 1e6;
      const line = {
        method: req.method,
        path: req.path,
        status: res.statusCode,
        latencyMs: Math.round(latencyMs * 100) / 100,
      };
      // A 5xx the error handler marked as not our fault (an endpoint left unconfigured) is a warning.
      if (res.statusCode >= 500 && res.locals[NOT_A_FAULT] !== true) req.log.error(line, 'request');
      else if (res.statusCode >= 400) req.log.warn(line, 'request');
      else req.log.info(line, 'request');
    });
    next();
  };
}
