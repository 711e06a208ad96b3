import type { FeatureFactory } from '../feature';
import { jobsAuth } from './jobsAuth';
import { rateLimits } from './rateLimits';
import { securityHeaders } from './securityHeaders';

/**
 * The service's armour, run before every route except the health checks: security headers, then
 * per-IP rate limits (so secret guessing is throttled too), then the job-endpoint secret.
 */
export const armourFeature: FeatureFactory = (ctx) => ({
  name: 'armour',
  before: [securityHeaders, rateLimits(ctx.config.rateLimits), jobsAuth(ctx.config.jobsSecret)],
});
