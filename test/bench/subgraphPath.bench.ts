import { updatePools } from '../../src/jobs/updatePools';
import { routingFeature } from '../../src/routing/routingFeature';
import { FakeSubgraph, syntheticPools, syntheticTokens } from '../fakes/subgraphServer';
import { startTestServer } from '../helpers/testServer';
import { figure } from './lib/report';

/**
 * The subgraph path with no node followed: an 11,000-pool universe in which one pool changes
 * upstream between runs. The pool update (the subgraph's indexed block, the pools changed since
 * the last run, the commit, the read model's reload) and the next distinct /sor after it, over
 * HTTP with the quote threads, against a local subgraph that indexes blocks (its `_meta` and
 * `_change_block`). For contrast, the same update with every pool read (SUBGRAPH_FULL_EVERY_SECONDS=0).
 */
const POOLS = 11_000;
const ROUNDS = 8;

export async function run(): Promise<void> {
  const tokens = syntheticTokens({ tokenCount: 64 });
  const pools = syntheticPools(POOLS, { tokenCount: 64 });
  for (const [label, env] of [
    ['changed pools only', {}],
    ['every pool read (SUBGRAPH_FULL_EVERY_SECONDS=0)', { SUBGRAPH_FULL_EVERY_SECONDS: '0' }],
  ] as const) {
    const fake = await FakeSubgraph.start(pools, { indexesBlocks: true });
    // The universe was indexed long before the first run (a chain far past its pools' creation).
    fake.indexBlocks(1_000);
    const server = await startTestServer(
      { NETWORKS: '1', SUBGRAPH_URL_1: fake.url, MIN_LIQUIDITY_USD: '0', ...env },
      { features: [routingFeature] },
    );
    const quote = async (round: number, amount: string): Promise<number> => {
      const t = performance.now();
      const res = await fetch(`${server.url}/sor/1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          sellToken: tokens[round % 8]!.address,
          buyToken: tokens[8 + (round % 8)]!.address,
          orderKind: 'sell',
          amount,
          gasPrice: '0',
        }),
      });
      if (res.status !== 200) throw new Error(`/sor answered ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
      return performance.now() - t;
    };
    try {
      let t = performance.now();
      await updatePools(server.ctx, 1);
      const first = performance.now() - t;
      // Every quote thread builds the first version (from nothing); later versions derive from it.
      await Promise.all([0, 1, 2, 3].map((k) => quote(k, String(1_000_000 - k))));
      const updates: number[] = [];
      const nexts: number[] = [];
      let fetched = 0;
      for (let r = 1; r <= ROUNDS; r++) {
        const id = pools[(r * 1_303) % POOLS]!.id;
        fake.updatePool(id, (p) => {
          const list = p.tokens as { balance: string }[];
          list[0]!.balance = String(Number(list[0]!.balance) * 0.97);
        });
        // A trade's block, some blocks after the last run's.
        fake.indexBlocks(200);
        t = performance.now();
        const report = await updatePools(server.ctx, 1);
        updates.push(performance.now() - t);
        fetched += report.fetched;
        nexts.push(await quote(r, String(1_000_000 + r)));
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      process.stdout.write(`--- ${label} ---\n`);
      figure(`first update of ${POOLS} pools (every pool read)`, first, 'ms');
      figure(`one pool changed: pool update, median (pools fetched: ${fetched / ROUNDS})`, median(updates), 'ms', {
        op: '<',
        value: 50,
      });
      figure('  slowest of the rounds', Math.max(...updates), 'ms');
      figure('one pool changed: next distinct /sor, median', median(nexts), 'ms', { op: '<', value: 50 });
      figure('  slowest of the rounds', Math.max(...nexts), 'ms');
    } finally {
      await server.close();
      await fake.close();
    }
  }
}
