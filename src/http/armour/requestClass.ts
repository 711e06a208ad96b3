/**
 * Which rate budget a request draws from. Express matches routes case-insensitively and with an
 * optional trailing slash, so these patterns do too (otherwise `/POOLS/1/Update` would slip past
 * the job protection).
 */
export type RequestClass = 'quotes' | 'jobs' | 'reads' | 'internal';

const JOB_PATHS = [/^\/pools\/[^/]+\/update\/?$/i, /^\/tokens\/update\/?$/i];
const QUOTE_PATHS = /^\/(sor|order)(\/|$)/i;
// Cloud Scheduler/Tasks endpoints authenticate with OIDC and are paced by the queue itself.
const INTERNAL_PATHS = /^\/internal\//i;

export function isJobPath(path: string): boolean {
  return JOB_PATHS.some((p) => p.test(path));
}

export function classifyRequest(path: string): RequestClass {
  if (isJobPath(path)) return 'jobs';
  if (QUOTE_PATHS.test(path)) return 'quotes';
  if (INTERNAL_PATHS.test(path)) return 'internal';
  return 'reads';
}
