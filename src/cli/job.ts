import { resolveChain } from '../config/chains';
import { ConfigError, loadConfig, processEnv } from '../config/env';
import { JOB_COMMANDS } from '../jobs/commands';
import { createContext } from '../server';
import { parseArgs } from './args';

/** `npm run job -- <name> [--chain <id|name>]`: runs one job once against the configured store. */
async function main(): Promise<void> {
  const { positional, flags } = parseArgs(process.argv.slice(2), ['chain']);
  const name = positional[0];
  const usage = `usage: npm run job -- <${Object.keys(JOB_COMMANDS).join('|')}> [--chain <id|name>]`;
  const command = name ? JOB_COMMANDS[name] : undefined;
  if (!command) throw new Error(name ? `unknown job '${name}'; ${usage}` : usage);
  const chainArg = flags.get('chain');
  const chain = chainArg === undefined ? undefined : resolveChain(chainArg);
  if (chainArg !== undefined && !chain) throw new Error(`--chain: unknown chain '${chainArg}'`);
  if (command.needsChain && !chain) throw new Error(`${name} needs --chain; ${usage}`);
  const env = chain && command.needsChain ? processEnv({ NETWORKS: String(chain.id) }) : processEnv();
  const ctx = await createContext(loadConfig(env));
  try {
    for (const line of await command.run(ctx, chain?.id)) process.stdout.write(`${line}\n`);
  } finally {
    await ctx.store.close();
  }
}

main().catch((e: Error) => {
  process.stderr.write(`${e instanceof ConfigError ? 'configuration error' : 'job failed'}: ${e.message}\n`);
  process.exit(1);
});
