import type { AppContext } from '../appContext';
import { updatePoolsCommand } from './updatePoolsCommand';
import { decoratePoolsCommand, updatePricesCommand } from './priceAndDecorationCommands';

/**
 * Jobs runnable once from the command line (`npm run job -- <name> [--chain <id>]`). Each job
 * module adds its entry here; `run` returns the lines to print (what changed).
 */
export interface JobCommand {
  readonly description: string;
  readonly needsChain: boolean;
  run(ctx: AppContext, chainId: number | undefined): Promise<string[]>;
}

export const JOB_COMMANDS: Record<string, JobCommand> = {
  'update-pools': updatePoolsCommand,
  'update-prices': updatePricesCommand,
  'decorate-pools': decoratePoolsCommand,
};
