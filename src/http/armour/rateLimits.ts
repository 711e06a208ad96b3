import type { RequestHandler } from 'express';
import { rateLimit } from 'express-rate-limit';
import type { Config } from '../../config/env';
import { errorBody } from '../errors';
import { REASONS } from '../errorReasons';
import type { QuoteBudget } from '../quoteBudget';
import { classifyRequest, RequestClass } from './requestClass';

/**
 * Per-client-IP budgets per minute: quotes (`/sor`, `/order`), jobs (the two public job
 * endpoints) and reads (everything else). The client IP is `req.ip`: the peer address, or with
 * `TRUST_PROXY` the address the trusted proxy saw, so a client cannot choose it by sending its own
 * X-Forwarded-For. Counters live in the instance's memory, so a budget is per instance; the
 * deployment's distributed limit is the Cloud Armor policy in front (infra/edgeSecurity.ts), these
 * stay as the second line. A budget of 0 turns that limit off.
 */
const WINDOW_MS = 60_000;

const WHAT: Record<Exclude<RequestClass, 'internal'>, string> = {
  quotes: 'quote (/sor, /order)',
  jobs: 'job',
  reads: 'read',
};

function limiter(
  kind: Exclude<RequestClass, 'internal'>,
  perMinute: number,
  budget?: QuoteBudget,
): RequestHandler | undefined {
  if (perMinute <= 0) return undefined;
  return rateLimit({
    ...(budget ? { store: budget.store } : {}),
    windowMs: WINDOW_MS,
    limit: perMinute,
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    // An X-Forwarded-For the service does not trust (TRUST_PROXY off) is a client's forgery or a
    // direct hit, not a misconfiguration; the library would print a warning for it.
    validate: { xForwardedForHeader: false },
    handler: (_req, res) => {
      const retryAfter = String(res.getHeader('Retry-After') ?? Math.ceil(WINDOW_MS / 1000));
      res.status(429).json(
        errorBody(
          429,
          `too many ${WHAT[kind]} requests from your address (limit ${perMinute} per minute); retry after ${retryAfter} s`,
          {
            reason: REASONS.RATE_LIMITED,
            details: { limitPerMinute: perMinute, retryAfterSeconds: Number(retryAfter) },
          },
        ),
      );
    },
  });
}

/** The limiters; `budget` is the quote budget GraphQL's `sorGetSwapPaths` draws from too. */
export function rateLimits(limits: Config['rateLimits'], budget?: QuoteBudget): RequestHandler {
  const byClass: Partial<Record<RequestClass, RequestHandler>> = {
    quotes: limiter('quotes', limits.quotesPerMinute, budget),
    jobs: limiter('jobs', limits.jobsPerMinute),
    reads: limiter('reads', limits.readsPerMinute),
  };
  return (req, res, next) => {
    const mw = byClass[classifyRequest(req.path)];
    if (!mw) return next();
    return mw(req, res, next);
  };
}
