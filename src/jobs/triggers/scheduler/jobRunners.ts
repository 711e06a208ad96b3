import { decoratePools } from '../../decoratePools';
import { updatePools } from '../../updatePools';
import { updatePrices } from '../../updatePrices';
import type { JobRunners } from './routes';

/**
 * The jobs behind the internal endpoints: the same functions, and leases, as the public routes. A
 * scheduled run that finds the job in flight waits for that run and answers its result, so the
 * scheduler sees success instead of retrying a busy answer.
 */
export const INTERNAL_JOB_RUNNERS: JobRunners = {
  updatePools: (ctx, chainId) => updatePools(ctx, chainId, { waitForRunning: true }),
  decoratePools,
  updatePrices: (ctx) => updatePrices(ctx, { waitForRunning: true }),
};
