import type { FeatureFactory } from '../feature';
import { QuoteBudget, quoteBudgetKey } from '../quoteBudget';
import { jobsAuth } from './jobsAuth';
import { rateLimits } from './rateLimits';
import { securityHeaders } from './securityHeaders';

/**
 * The service's armour, run before every route except the health checks: security headers, then
 * per-IP rate limits (so secret guessing is throttled too), then the job-endpoint secret.
 */
export const armourFeature: FeatureFactory = (ctx) => {
  const { quotesPerMinute } = ctx.config.rateLimits;
  const budget = quotesPerMinute > 0 ? new QuoteBudget(quotesPerMinute) : undefined;
  ctx.state.get(quoteBudgetKey).current = budget;
  return {
    name: 'armour',
    before: [securityHeaders, rateLimits(ctx.config.rateLimits, budget), jobsAuth(ctx.config.jobsSecret)],
  };
};
