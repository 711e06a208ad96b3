import { decoratePools } from '../jobs/decoratePools';
import { updatePools } from '../jobs/updatePools';
import { updatePrices } from '../jobs/updatePrices';
import type { JobRunners } from './routes';

/** The jobs behind the internal endpoints: the same functions, and leases, as the public routes. */
export const INTERNAL_JOB_RUNNERS: JobRunners = { updatePools, decoratePools, updatePrices };
