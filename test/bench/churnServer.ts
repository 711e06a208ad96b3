import { createInterface } from 'node:readline';
import { updatePools } from '../../src/jobs/updatePools';
import { routingFeature } from '../../src/routing/routingFeature';
import { seededRandom } from '../e2e/helpers/randomOrders';
import { FakeSubgraph } from '../fakes/subgraphServer';
import { loadSnapshotPools } from '../helpers/snapshot';
import { snapshotCopies } from '../helpers/snapshotCopies';
import { startTestServer } from '../helpers/testServer';

/**
 * Child process of `poolChurn.bench.ts`: the service with its routing feature over BENCH_COPIES
 * (default 10) copies of the mainnet snapshot sharing its hubs (test/helpers/snapshotCopies.ts),
 * read from a local subgraph that indexes blocks, on a free loopback port. Prints
 * `READY <url> <pools>`. Reads commands on stdin: `churn` starts changing one pool every
 * BENCH_CHURN_MS (default 250) through the pool update (a trade's balances upstream, then
 * `updatePools`, as the scheduled job runs it, on this process's main thread); `still` stops and
 * prints `UPDATES <ms,ms,...>`. Stops on SIGTERM.
 */
const COPIES = Number(process.env.BENCH_COPIES ?? 10);
const CHURN_MS = Number(process.env.BENCH_CHURN_MS ?? 250);

async function main(): Promise<void> {
  const pools = snapshotCopies(loadSnapshotPools(), COPIES) as { id: string }[];
  const fake = await FakeSubgraph.start(pools, { indexesBlocks: true });
  fake.indexBlocks(1_000);
  const env: Record<string, string> = { NETWORKS: '1', SUBGRAPH_URL_1: fake.url, MIN_LIQUIDITY_USD: '0' };
  for (const k of ['ROUTER_WORKERS', 'ROUTER_ENGINE'] as const)
    if (process.env[k] !== undefined) env[k] = process.env[k];
  const server = await startTestServer(env, { features: [routingFeature] });
  const first = await updatePools(server.ctx, 1);
  // Let the threads build the first version's routers before the first timed request.
  await new Promise((r) => setTimeout(r, 1500));
  process.stdout.write(`READY ${server.url} ${first.fetched}\n`);

  const random = seededRandom(5);
  let churning = false;
  let updates: number[] = [];
  const churn = async () => {
    while (churning) {
      const due = performance.now() + CHURN_MS;
      const id = pools[Math.floor(random() * pools.length)]!.id;
      // A trade: one balance up, another down.
      const up = 1 + random() * 0.02;
      fake.updatePool(id, (p) => {
        const tokens = p.tokens as { balance: string }[];
        tokens[0]!.balance = String(Number(tokens[0]!.balance) * up);
        if (tokens[1]) tokens[1].balance = String(Number(tokens[1].balance) / up);
      });
      const t = performance.now();
      await updatePools(server.ctx, 1);
      updates.push(performance.now() - t);
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  };
  let running: Promise<void> = Promise.resolve();
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'churn' && !churning) {
      churning = true;
      updates = [];
      running = churn();
    } else if (line === 'still') {
      churning = false;
      void running.then(() => process.stdout.write(`UPDATES ${updates.map((u) => u.toFixed(1)).join(',')}\n`));
    }
  });
  process.on('SIGTERM', () => {
    churning = false;
    void running
      .then(() => server.close())
      .then(() => fake.close())
      .then(() => process.exit(0));
  });
}

if (require.main === module) {
  main().catch((e: Error) => {
    process.stderr.write(`churn server failed: ${e.stack ?? e.message}\n`);
    process.exit(1);
  });
}
