import type { JobCommand } from './jobCommand';
import { updatePoolsCommand } from './updatePoolsCommand';
import { decoratePoolsCommand, updatePricesCommand } from './priceAndDecorationCommands';

/** Jobs runnable once from the command line; each job module adds its entry here. */
export const JOB_COMMANDS: Record<string, JobCommand> = {
  'update-pools': updatePoolsCommand,
  'update-prices': updatePricesCommand,
  'decorate-pools': decoratePoolsCommand,
};
