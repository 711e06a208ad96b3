import { CHAINS } from '../../src/config/chains';
import { headFollowFeature } from '../../src/jobs/triggers/headFollowFeature';
import { FakeChainRpc } from '../fakes/chainRpcServer';
import { startTestServer, type TestServer } from '../helpers/testServer';

/**
 * `/readyz?serving=chain`, Cloud Run's startup probe (infra/service.ts): a new instance is not
 * ready while a followed chain's first full read runs, and is once the chain's state is served,
 * exact at the node's block; a node that keeps failing does not hold the instance back.
 */
const VAULT = CHAINS.find((c) => c.id === 1)!.vault;
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const A = { id: `0x${'a1'.repeat(20)}000200000000000000000001`, address: `0x${'a1'.repeat(20)}` };

let node: FakeChainRpc;
let srv: TestServer | undefined;

beforeEach(async () => {
  node = await FakeChainRpc.start(VAULT, [
    {
      id: A.id,
      address: A.address,
      tokens: [WETH, USDC],
      balances: [10n ** 20n, 3n * 10n ** 11n],
      swapFee: 3n * 10n ** 15n,
    },
  ]);
});
afterEach(async () => {
  await srv?.close();
  await node.close();
});

const start = () =>
  startTestServer(
    { RPC_URL_1: node.url, FOLLOW_INTERVAL_MS: '50', ROUTER_WORKERS: '0', FOLLOW_RECHECK_CALLS_PER_SECOND: '0' },
    {
      features: [headFollowFeature],
      background: true,
      seed: [
        {
          chainId: 1,
          pools: [
            {
              id: A.id,
              address: A.address,
              poolType: 'Weighted',
              swapFee: '0.003',
              totalShares: '1000',
              tokens: [
                { address: WETH, symbol: 'WETH', decimals: 18, balance: '90', weight: '0.5', priceRate: '1' },
                { address: USDC, symbol: 'USDC', decimals: 6, balance: '310000', weight: '0.5', priceRate: '1' },
              ],
            },
          ],
        },
      ],
    },
  );

interface Readyz {
  status: string;
  error?: string;
  chains: { follow: { serving: string; stateBlock: number | null; failures: number } }[];
}

async function probe(): Promise<{ status: number; body: Readyz }> {
  const res = await fetch(`${srv!.url}/readyz?serving=chain`);
  return { status: res.status, body: (await res.json()) as Readyz };
}

async function untilReady(): Promise<{ status: number; body: Readyz }[]> {
  const seen: { status: number; body: Readyz }[] = [];
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const p = await probe();
    seen.push(p);
    if (p.status === 200) return seen;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`never ready: ${JSON.stringify(seen[seen.length - 1])}`);
}

test('not ready while the first full read runs; ready once the chain state is served at the head', async () => {
  // A node far away: the first read takes several of its round trips.
  node.delayMs = 300;
  srv = await start();
  const seen = await untilReady();
  const waiting = seen.find((p) => p.status === 503);
  expect(waiting?.body.error).toMatch(/first full read of chain 1/);
  expect(waiting?.body.chains[0]!.follow.serving).toBe('subgraph');
  const ready = seen[seen.length - 1]!;
  expect(ready.body.chains[0]!.follow).toMatchObject({ serving: 'chain', stateBlock: node.head.number });
  // The plain readiness answer did not wait: the read model was loaded all along.
  expect((await fetch(`${srv.url}/readyz`)).status).toBe(200);
});

test('a node failing from the start does not hold the instance back past a few polls', async () => {
  node.failStatus = 503;
  srv = await start();
  const seen = await untilReady();
  expect(seen[seen.length - 1]!.body.chains[0]!.follow).toMatchObject({ serving: 'subgraph', stateBlock: null });
  expect(seen[seen.length - 1]!.body.chains[0]!.follow.failures).toBeGreaterThanOrEqual(3);
});
