import { parseUnits } from 'ethers';
import { chainById } from '../../src/config/chains';
import { ensureDevnet } from '../../src/devnet/ensure';
import { DEV_GAUGES, deployGauges, DevnetGauges, gaugeGenesis, WEEK } from '../../src/devnet/gauges';
import { DEVNET_CHAIN_ID, tokenBySymbol, type Devnet } from '../../src/devnet/devnet';
import { LocalChain, serveChain } from '../../src/devnet/localChain';
import { DevnetUpstreams, startDevnetUpstreams } from '../../src/devnet/upstreams';
import { BalancerGaugeSource } from '../../src/sources/gauges/gaugeSource';

/**
 * The devnet's gauge system is the real one: the service's gauge source reads it through the
 * devnet's gauges subgraph and the chain's JSON-RPC, and finds what the deployment set up, to the
 * wei: BAL at BalancerTokenAdmin's initial rate (145,000 BAL a week) times the gauge's weight cap,
 * working supply at the 0.4 floor (no veBAL), reward streams of a week's amount per second.
 */
const E18 = 10n ** 18n;
let chain: LocalChain;
let devnet: Devnet;
let gauges: DevnetGauges;
let upstreams: DevnetUpstreams;

beforeAll(async () => {
  chain = await serveChain('127.0.0.1', 0, { genesisSeconds: gaugeGenesis(Math.floor(Date.now() / 1000)) });
  devnet = (await ensureDevnet(chain.provider)).devnet;
  gauges = await deployGauges(chain.provider, devnet);
  upstreams = await startDevnetUpstreams({ provider: chain.provider, devnet });
}, 120_000);

afterAll(async () => {
  await upstreams?.close();
  await chain?.close();
});

test('the chain is at the wall clock again once the gauges are set', async () => {
  const head = (await chain.provider.getBlock('latest'))!;
  expect(Math.abs(head.timestamp - Date.now() / 1000)).toBeLessThan(60);
});

test("the service's gauge source reads every devnet gauge as deployed", async () => {
  const source = new BalancerGaugeSource({
    chain: chainById(DEVNET_CHAIN_ID)!.gauges!,
    subgraph: { url: upstreams.gaugesSubgraphUrl, timeoutMs: 5_000, retries: 0 },
    rpc: {
      url: chain.rpcUrl!,
      timeoutMs: 5_000,
      batchSize: 100,
      retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    },
  });
  const now = Math.floor(Date.now() / 1000);
  const got = await source.fetch(now);
  expect(got.problems).toEqual([]);
  expect([...got.byPool.keys()].sort()).toEqual(gauges.gauges.map((g) => g.poolId).sort());

  const initialRate = (145_000n * E18) / BigInt(WEEK);
  for (const spec of DEV_GAUGES) {
    const pool = devnet.pools.find((p) => p.name === spec.pool)!;
    const g = got.byPool.get(pool.id)!;
    expect(g.bal).toEqual({
      perSecond: (initialRate * parseUnits(spec.cap, 18)) / E18,
      boosted: true,
      periodFinish: null,
    });
    // LiquidityGaugeV5: working balance = balance x 40 / 100 (rounded down) without veBAL.
    expect(g.workingSupply).toBe((g.totalSupply * 40n) / 100n);
    expect(g.totalSupply).toBeGreaterThan(0n);
    expect(g.rewards).toEqual(
      spec.rewards.map((r) => {
        const token = tokenBySymbol(devnet, r.symbol);
        return {
          token: token.address,
          decimals: token.decimals,
          perSecond: parseUnits(r.perWeek, token.decimals) / BigInt(WEEK),
          periodFinish: expect.any(Number),
        };
      }),
    );
    for (const r of g.rewards) expect(r.periodFinish).toBeGreaterThan(now + WEEK - 3_600);
  }
});
