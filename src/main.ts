import { ConfigError, loadConfig } from './config/env';
import { createContext, startServer } from './server';

/** Process entry point: parse config (one clear line on error), start, stop on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`configuration error: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  const ctx = await createContext(config);
  const running = await startServer(ctx, config.port, { background: true });
  ctx.logger.info(
    { port: config.port, chains: config.chains.map((c) => c.id), store: config.store },
    `listening on ${running.url}`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    ctx.logger.info({ signal }, 'shutting down');
    // Last resort if a step hangs (e.g. an unreachable store): never outlive Cloud Run's SIGKILL silently.
    setTimeout(() => {
      ctx.logger.error('shutdown did not finish in 20 s; exiting');
      process.exit(1);
    }, 20_000).unref();
    running.close().then(
      () => {
        ctx.logger.info('stopped');
        process.exit(0);
      },
      (e: Error) => {
        ctx.logger.error({ err: e.message }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((e: Error) => {
  // A start the configuration cannot hold (too little memory for its pools): one line, no stack.
  if (e instanceof ConfigError) {
    process.stderr.write(`configuration error: ${e.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`fatal: ${e.stack ?? e.message}\n`);
  process.exit(1);
});
