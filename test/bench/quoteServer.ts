import { readFileSync } from 'node:fs';
import { graphqlFeature } from '../../src/graphql/feature';
import { routingFeature } from '../../src/routing/routingFeature';
import { SNAPSHOT_FILE } from '../helpers/snapshot';
import { startTestServer } from '../helpers/testServer';
import { v3BenchChainState } from './v3QuoteUniverse';

/**
 * Child process of `quotes.bench.ts`: the service with its routing and GraphQL features on a temp SQLite store
 * seeded with the mainnet snapshot, on a free loopback port. Runs apart from the load generator
 * so the generator does not steal the server's event loop. The V3 universe of `v3QuoteUniverse.ts`
 * is laid over the snapshot as the follower lays the chain's state. Prints `READY <url>`; stops
 * on SIGTERM.
 */

async function main(): Promise<void> {
  const pools = JSON.parse(readFileSync(SNAPSHOT_FILE, 'utf8')) as unknown[];
  const env: Record<string, string> = {};
  for (const k of ['ROUTER_WORKERS', 'ROUTER_ENGINE', 'QUOTE_TIMEOUT_MS'] as const)
    if (process.env[k] !== undefined) env[k] = process.env[k];
  const server = await startTestServer(env, {
    seed: [{ chainId: 1, pools }],
    features: [routingFeature, graphqlFeature],
  });
  server.ctx.readModel.setChainState(1, v3BenchChainState());
  // Let the worker finish building the router before the first timed request.
  await new Promise((r) => setTimeout(r, 1500));
  process.stdout.write(`READY ${server.url}\n`);
  process.on('SIGTERM', () => {
    void server.close().then(() => process.exit(0));
  });
}

if (require.main === module) {
  main().catch((e: Error) => {
    process.stderr.write(`quote server failed: ${e.stack ?? e.message}\n`);
    process.exit(1);
  });
}
