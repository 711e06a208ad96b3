import type { AppContext } from '../appContext';

/**
 * A job runnable once from the command line (`npm run job -- <name> [--chain <id>]`); `run`
 * returns the lines to print (what changed). Its own file so the command modules and the list in
 * commands.ts do not import each other.
 */
export interface JobCommand {
  readonly description: string;
  readonly needsChain: boolean;
  run(ctx: AppContext, chainId: number | undefined): Promise<string[]>;
}
