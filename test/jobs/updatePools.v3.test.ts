import { updatePools } from '../../src/jobs/updatePools';
import { SubgraphClient } from '../../src/sources/subgraph/subgraphClient';
import { fetchV3Pools, V3_VAULT_POOLS } from '../../src/sources/subgraph/v3/v3Catalogue';
import { FakeSubgraph, syntheticPools } from '../fakes/subgraphServer';
import { FakeV3Subgraphs } from '../fakes/v3SubgraphServer';
import { startTestServer, type TestServer } from '../helpers/testServer';

/**
 * The V3 catalogue through the same pool update as V2: V3 pools from Balancer's two V3 subgraphs
 * (the vault subgraph's pools, tokens and hooks joined with the pools subgraph's types and
 * parameters), stored by address with protocolVersion 3 beside the V2 pools, shown and filtered
 * by `/pools` and GraphQL, read again only where changed since the last run's block.
 */
const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const W = `0x${'e1'.repeat(20)}`;
const S = `0x${'e2'.repeat(20)}`;
const HOOK = `0x${'4b'.repeat(20)}`;
const FLAGS = {
  enableHookAdjustedAmounts: false,
  shouldCallComputeDynamicSwapFee: true,
  shouldCallBeforeSwap: false,
  shouldCallAfterSwap: false,
  shouldCallBeforeAddLiquidity: false,
  shouldCallAfterAddLiquidity: true,
  shouldCallBeforeRemoveLiquidity: false,
  shouldCallAfterRemoveLiquidity: true,
};

const token = (address: string, index: number, decimals: number, balance: string) => ({
  address,
  index,
  name: 'T',
  symbol: 'T',
  decimals,
  balance,
  priceRate: '1',
  paysYieldFees: false,
});

const vaultRow = (id: string, balances: [string, string], hook?: string) => ({
  id,
  address: id,
  name: 'pool',
  symbol: 'P',
  factory: `0x${'fa'.repeat(20)}`,
  swapFee: '0.001',
  totalShares: '100',
  blockTimestamp: '1700000000',
  swapsCount: '1',
  holdersCount: '2',
  // Listed out of the Vault's order: the index says it.
  tokens: [token(USDC, 1, 6, balances[1]), token(DAI, 0, 18, balances[0])],
  rateProviders: [],
  hookConfig: { hook: { address: hook ?? `0x${'0'.repeat(40)}` }, ...FLAGS },
  liquidityManagement: { disableUnbalancedLiquidity: false },
});

const subgraphClient = (url: string, pools?: typeof V3_VAULT_POOLS) =>
  new SubgraphClient({ url, timeoutMs: 5_000, retries: 0, ...(pools ? { pools } : {}) });

let v2: FakeSubgraph;
let v3: FakeV3Subgraphs;
let srv: TestServer;

beforeEach(async () => {
  v2 = await FakeSubgraph.start(syntheticPools(3), { indexesBlocks: true });
  v3 = await FakeV3Subgraphs.start();
  v3.setPool(vaultRow(W, ['10', '11']), {
    id: W,
    address: W,
    factory: { id: `0x${'fa'.repeat(20)}`, type: 'Weighted', version: 1 },
    weightedParams: { weights: ['0.8', '0.2'] },
  });
  v3.setPool(vaultRow(S, ['20', '21'], HOOK), {
    id: S,
    address: S,
    factory: { id: `0x${'fb'.repeat(20)}`, type: 'Stable', version: 2 },
    stableParams: { amp: '1000' },
  });
  srv = await startTestServer({
    NETWORKS: '1',
    SUBGRAPH_URL_1: v2.url,
    SUBGRAPH_V3_URL_1: v3.vaultUrl,
    SUBGRAPH_V3_POOLS_URL_1: v3.poolsUrl,
  });
});

afterEach(async () => {
  await srv.close();
  await v2.close();
  await v3.close();
});

interface ViewPool {
  id: string;
  protocolVersion: number;
  poolType: string;
  poolTypeVersion: number;
  amp: string | null;
  tokens: { address: string; balance: string; weight: string | null }[];
  v3?: { hook: { address: string; kind: string | null; flags: Record<string, boolean> } | null };
}

const pools = async (): Promise<ViewPool[]> => (await (await fetch(`${srv.url}/pools/1`)).json()) as ViewPool[];

test('V3 pools are catalogued beside the V2 pools, by address, with their type, parameters and hook', async () => {
  const report = await updatePools(srv.ctx, 1, { waitForRunning: true });
  expect(report.v3).toEqual({ fetched: 2, full: true, pages: 1 });
  const all = await pools();
  expect(all.filter((p) => p.protocolVersion === 2)).toHaveLength(3);
  const w = all.find((p) => p.id === W)!;
  expect(w).toMatchObject({ protocolVersion: 3, poolType: 'Weighted', poolTypeVersion: 1 });
  expect(w.tokens.map((t) => [t.address, t.balance, t.weight])).toEqual([
    [DAI, '10', '0.8'],
    [USDC, '11', '0.2'],
  ]);
  const s = all.find((p) => p.id === S)!;
  expect(s).toMatchObject({ poolType: 'Stable', poolTypeVersion: 2, amp: '1000' });
  expect(s.v3?.hook).toMatchObject({ address: HOOK, kind: null, flags: FLAGS });
});

test("an LBP's sale comes from the pools subgraph's lbpParams, as the contract's integers", async () => {
  const LBP = `0x${'1b'.repeat(20)}`;
  v3.setPool(vaultRow(LBP, ['1000', '0'], LBP), {
    id: LBP,
    address: LBP,
    factory: { id: `0x${'fc'.repeat(20)}`, type: 'LBP', version: 1 },
    lbpParams: {
      startTime: '1800000000',
      endTime: '1800086400',
      owner: `0x${'0e'.repeat(20)}`,
      isProjectTokenSwapInBlocked: true,
      projectToken: DAI,
      reserveToken: USDC,
      projectTokenStartWeight: '900000000000000000',
      projectTokenEndWeight: '300000000000000000',
      reserveTokenStartWeight: '100000000000000000',
      reserveTokenEndWeight: '700000000000000000',
    },
  });
  await updatePools(srv.ctx, 1, { waitForRunning: true });
  const lbp = (await pools()).find((p) => p.id === LBP) as ViewPool & { v3: { typeParams?: Record<string, string> } };
  expect(lbp).toMatchObject({ protocolVersion: 3, poolType: 'LBP' });
  expect(lbp.v3.typeParams).toEqual({
    startTime: '1800000000',
    endTime: '1800086400',
    isProjectTokenSwapInBlocked: 'true',
    projectToken: DAI,
    reserveToken: USDC,
    projectTokenStartWeight: '900000000000000000',
    projectTokenEndWeight: '300000000000000000',
    reserveTokenStartWeight: '100000000000000000',
    reserveTokenEndWeight: '700000000000000000',
  });
});

test('a pools subgraph without the LBP sale entities still catalogues every pool, the sale then left to the head', async () => {
  const old = await FakeV3Subgraphs.start({ sales: false });
  const LBP = `0x${'1b'.repeat(20)}`;
  try {
    old.setPool(vaultRow(W, ['10', '11']), {
      id: W,
      address: W,
      factory: { id: `0x${'fa'.repeat(20)}`, type: 'Weighted', version: 1 },
      weightedParams: { weights: ['0.8', '0.2'] },
    });
    old.setPool(vaultRow(LBP, ['1000', '0'], LBP), {
      id: LBP,
      address: LBP,
      factory: { id: `0x${'fc'.repeat(20)}`, type: 'LBP', version: 1 },
    });
    const pools = await fetchV3Pools(
      { vault: subgraphClient(old.vaultUrl, V3_VAULT_POOLS), pools: subgraphClient(old.poolsUrl) },
      undefined,
    );
    const byId = new Map(pools.pools.map((p) => [(p as { id: string }).id, p as Record<string, unknown>]));
    expect(byId.get(W)).toMatchObject({ poolType: 'Weighted', weights: ['0.8', '0.2'] });
    expect(byId.get(LBP)).toMatchObject({ poolType: 'LBP', typeParams: null });
  } finally {
    await old.close();
  }
});

test('a hook the chain config names gets its kind; a pool with an unknown hook is shown unroutable, with why', async () => {
  // Mainnet's StableSurge hook, as Balancer's API lists it.
  const SURGE = '0xb18fa0cb5de8cecb8899aae6e38b1b7ed77885da';
  const K = `0x${'e3'.repeat(20)}`;
  v3.setPool(vaultRow(K, ['30', '31'], SURGE), {
    id: K,
    address: K,
    factory: { id: `0x${'fb'.repeat(20)}`, type: 'Stable', version: 2 },
    stableParams: { amp: '200' },
  });
  await updatePools(srv.ctx, 1, { waitForRunning: true });
  const known = (await (await fetch(`${srv.url}/pools/1/${K}`)).json()) as ViewPool & {
    routable: boolean;
    unroutableReason?: string;
  };
  expect(known.v3?.hook).toMatchObject({ address: SURGE, kind: 'stableSurge' });
  // Known, but its settings come from the hook at the head: until read, the pool is not quoted.
  expect(known.routable).toBe(false);
  expect(known.unroutableReason).toContain('maxSurgeFeePercentage');

  const unknown = (await (await fetch(`${srv.url}/pools/1/${S}`)).json()) as {
    routable: boolean;
    unroutableReason?: string;
  };
  expect(unknown).toMatchObject({ routable: false, unroutableReason: `hook ${HOOK} is not one the service models` });
  const plain = (await (await fetch(`${srv.url}/pools/1/${W}`)).json()) as {
    routable: boolean;
    unroutableReason?: string;
  };
  expect(plain.routable).toBe(true);
  expect(plain.unroutableReason).toBeUndefined();

  const res = await fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: `{ pool(chainId: 1, id: "${S}") { id routable unroutableReason } }` }),
  });
  const body = (await res.json()) as { data?: { pool: { routable: boolean; unroutableReason: string | null } } };
  expect(body.data?.pool).toMatchObject({
    routable: false,
    unroutableReason: `hook ${HOOK} is not one the service models`,
  });
});

test('GraphQL filters on protocolVersion', async () => {
  await updatePools(srv.ctx, 1, { waitForRunning: true });
  const res = await fetch(`${srv.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      query: '{ pools(chainId: 1, where: { protocolVersion: { eq: 3 } }) { pools { id protocolVersion } } }',
    }),
  });
  const body = (await res.json()) as {
    data?: { pools: { pools: { id: string; protocolVersion: number }[] } };
    errors?: unknown;
  };
  expect(body.errors).toBeUndefined();
  expect(body.data!.pools.pools.map((p) => p.id).sort()).toEqual([W, S]);
});

test('the next run reads only the V3 pools changed since its block, with its own record', async () => {
  await updatePools(srv.ctx, 1, { waitForRunning: true });
  // Minutes later, the V3 subgraph indexed more blocks: nothing changed since (past the margin).
  v3.block += 500;
  const idle = await updatePools(srv.ctx, 1, { waitForRunning: true });
  expect(idle.v3).toMatchObject({ full: false });
  // One pool traded.
  v3.setPool(vaultRow(W, ['12', '11']));
  const next = await updatePools(srv.ctx, 1, { waitForRunning: true });
  expect(next.v3).toEqual({ fetched: 1, full: false, pages: 1 });
  expect(v3.queries.at(-1)?._change_block).toBeDefined();
  expect((await pools()).find((p) => p.id === W)!.tokens[0]!.balance).toBe('12');
  // The untouched V3 pool and the V2 pools stay.
  expect((await pools()).map((p) => p.protocolVersion).sort()).toEqual([2, 2, 2, 3, 3]);
});

test("a V3 type's parameters come from its entity in the pools subgraph and are served with the pool", async () => {
  const R = `0x${'e3'.repeat(20)}`;
  const G = `0x${'e4'.repeat(20)}`;
  const reClammParams = {
    lastTimestamp: '1752054083',
    lastVirtualBalances: ['362594117476852465718411', '422163369011063269890448'],
    dailyPriceShiftExponent: '100000000000000000',
    dailyPriceShiftBase: '999999197747274347',
    centerednessMargin: '500000000000000000',
    startFourthRootPriceRatio: '1011900417200324692',
    endFourthRootPriceRatio: '1011900417200324692',
    priceRatioUpdateStartTime: '1751988959',
    priceRatioUpdateEndTime: '1751988959',
  };
  v3.setPool(vaultRow(R, ['30', '31']), {
    id: R,
    address: R,
    factory: { id: `0x${'fc'.repeat(20)}`, type: 'ReClamm', version: 2 },
    reClammParams,
  });
  v3.setPool(vaultRow(G, ['40', '41']), {
    id: G,
    address: G,
    factory: { id: `0x${'fd'.repeat(20)}`, type: 'Gyro2', version: 1 },
    gyro2Params: { sqrtAlpha: '0.997', sqrtBeta: '1.002' },
  });
  await updatePools(srv.ctx, 1, { waitForRunning: true });
  const r = (await (await fetch(`${srv.url}/pools/1/${R}`)).json()) as Record<string, unknown>;
  expect(r).toMatchObject({
    poolType: 'ReClamm',
    poolTypeVersion: 2,
    ...reClammParams,
    lastTimestamp: 1752054083,
    priceRatioUpdateStartTime: 1751988959,
    priceRatioUpdateEndTime: 1751988959,
  });
  const g = (await (await fetch(`${srv.url}/pools/1/${G}`)).json()) as Record<string, unknown>;
  expect(g).toMatchObject({ poolType: 'Gyro2', gyro: { sqrtAlpha: '0.997', sqrtBeta: '1.002' } });
  // Another type's parameters are not stored on it.
  expect(g).not.toHaveProperty('lastVirtualBalances');
  expect((await (await fetch(`${srv.url}/pools/1/${W}`)).json()) as Record<string, unknown>).toMatchObject({
    gyro: null,
  });
});
