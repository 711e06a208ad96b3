import { CHAINS } from '../../src/config/chains';
import { graphqlFeature } from '../../src/graphql/feature';
import { routingFeature } from '../../src/routing/routingFeature';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { DAI, USDC } from '../helpers/v3Universe';
import { v3StoredBuffers, v3StoredPools } from '../helpers/v3StoredUniverse';
import { post } from '../routing/quoteClient';
import { COW_QUERY, FULL_SOR_QUERY, SDK_SOR_QUERY, SDK_SOR_QUERY_WITH_VERSION } from './currentApiDocuments';
import { gql } from './fixtures';

/**
 * `sorGetSwapPaths`, the current Balancer API's routing query, on a chain with a V2 pool and the
 * V3 universe of the Sepolia vectors (pools and buffers in the chain state): the SDK's and CoW's
 * documents answer with the fields their code reads, from the same engines as /sor and /order.
 */

const SEPOLIA = CHAINS.find((c) => c.id === 11155111)!;
const SENDER = '0x1111111111111111111111111111111111111111';
const NOW_MS = 1_740_000_000_000;
const BLOCK = 7_439_300;
const V2_POOL = `0x${'c1'.repeat(20)}000200000000000000000001`;

const v2Pool = {
  id: V2_POOL,
  address: `0x${'c1'.repeat(20)}`,
  poolType: 'Weighted',
  swapFee: '0.003',
  totalShares: '1000',
  tokens: [
    { address: USDC, symbol: 'USDC', decimals: 6, balance: '50000', weight: '0.5', priceRate: '1' },
    { address: DAI, symbol: 'DAI', decimals: 18, balance: '50000', weight: '0.5', priceRate: '1' },
  ],
};

interface CowAnswer {
  tokenAddresses: string[];
  swaps: { poolId: string; assetInIndex: number; assetOutIndex: number; amount: string; userData: string }[];
  swapAmountRaw: string;
  returnAmountRaw: string;
  tokenIn: string;
  tokenOut: string;
  protocolVersion: number;
  paths: {
    inputAmountRaw: string;
    outputAmountRaw: string;
    isBuffer: boolean[];
    pools: string[];
    protocolVersion: number;
    tokens: { address: string }[];
  }[];
}

interface FullAnswer extends CowAnswer {
  vaultVersion: number;
  swapType: string;
  tokenInAmount: string;
  tokenOutAmount: string;
  swapAmount: string;
  returnAmount: string;
  effectivePrice: string;
  effectivePriceReversed: string;
  routes: {
    share: number;
    tokenInAmount: string;
    tokenOutAmount: string;
    hops: { poolId: string; tokenIn: string; tokenOut: string; pool: { id: string; type: string } | null }[];
  }[];
  priceImpact: { priceImpact: string | null; error: string | null };
  callData: {
    callData: string;
    to: string;
    value: string;
    minAmountOutRaw: string | null;
    maxAmountInRaw: string | null;
  } | null;
  blockNumber: number | null;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(
    { NETWORKS: String(SEPOLIA.id) },
    { seed: [{ chainId: SEPOLIA.id, pools: [v2Pool] }], features: [routingFeature, graphqlFeature], now: () => NOW_MS },
  );
  const pools = v3StoredPools();
  server.ctx.readModel.setChainState(SEPOLIA.id, {
    block: {
      number: BLOCK,
      hash: `0x${'ab'.repeat(32)}`,
      parentHash: `0x${'aa'.repeat(32)}`,
      timestamp: 1_740_000_000,
    },
    pools: new Map(),
    registered: new Map(pools.map((p) => [p.id, p])),
    buffers: v3StoredBuffers(),
  });
});
afterAll(async () => {
  await server?.close();
});

async function sor<T>(query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await gql<{ sorGetSwapPaths: T }>(server.url, query, variables);
  expect(res.errors).toBeUndefined();
  return res.data!.sorGetSwapPaths;
}

const sell = { chain: 'SEPOLIA', swapType: 'EXACT_IN', tokenIn: USDC, tokenOut: DAI, swapAmount: '1000' };
const buy = { chain: 'SEPOLIA', swapType: 'EXACT_OUT', tokenIn: USDC, tokenOut: DAI, swapAmount: '1000' };

/** /sor's answer for the same order in one Vault. */
async function sorEndpoint(kind: 'sell' | 'buy', amount: string, protocolVersion: 2 | 3) {
  const res = await post(`${server.url}/sor/${SEPOLIA.id}`, {
    sellToken: USDC,
    buyToken: DAI,
    orderKind: kind,
    amount,
    gasPrice: '0',
    protocolVersion,
  });
  expect(res.status).toBe(200);
  return res.body as { returnAmount: string; swapAmount: string };
}

test("CoW's query, sent as CoW sends it, answers the fields its DTO requires", async () => {
  const a = await sor<CowAnswer>(COW_QUERY, { ...sell, swapAmount: '1000.000000' });
  expect(a.protocolVersion === 2 || a.protocolVersion === 3).toBe(true);
  expect(a.swapAmountRaw).toBe('1000000000');
  expect(a.returnAmountRaw).toMatch(/^[1-9]\d*$/);
  expect([a.tokenIn, a.tokenOut]).toEqual([USDC, DAI]);
  expect(a.swaps.length).toBeGreaterThan(0);
  for (const s of a.swaps) {
    expect(a.tokenAddresses[s.assetInIndex]).toBeDefined();
    expect(a.tokenAddresses[s.assetOutIndex]).toBeDefined();
    expect(s.amount).toMatch(/^\d+$/);
    expect(s.userData).toMatch(/^0x[0-9a-f]*$/);
    // CoW parses a V2 pool id as 32 bytes and a V3 one as an address.
    expect(s.poolId).toMatch(a.protocolVersion === 2 ? /^0x[0-9a-f]{64}$/ : /^0x[0-9a-f]{40}$/);
  }
  for (const p of a.paths) {
    expect(p.tokens).toHaveLength(p.pools.length + 1);
    expect(p.isBuffer).toHaveLength(p.pools.length);
    expect(p.protocolVersion).toBe(a.protocolVersion);
  }
  const sum = (xs: string[]) => xs.reduce((x, y) => x + BigInt(y), 0n);
  expect(sum(a.paths.map((p) => p.inputAmountRaw))).toBe(1_000_000_000n);
  expect(sum(a.paths.map((p) => p.outputAmountRaw)).toString()).toBe(a.returnAmountRaw);
  // The same engines as /sor: the answer is that Vault's quote to the wei.
  expect(a.returnAmountRaw).toBe((await sorEndpoint('sell', '1000000000', a.protocolVersion as 2 | 3)).returnAmount);
});

test("the SDK's queries answer paths that equal /sor's quotes in each Vault", async () => {
  for (const version of [2, 3] as const) {
    for (const [vars, kind] of [
      [sell, 'sell'],
      [buy, 'buy'],
    ] as const) {
      const a = await sor<FullAnswer>(SDK_SOR_QUERY_WITH_VERSION, {
        ...vars,
        useProtocolVersion: version,
        considerPoolsWithHooks: true,
      });
      const raw = kind === 'sell' ? '1000000000' : '1000000000000000000000';
      const endpoint = await sorEndpoint(kind, raw, version);
      expect(a.paths.length).toBeGreaterThan(0);
      expect(a.paths.every((p) => p.protocolVersion === version)).toBe(true);
      const total = (f: 'inputAmountRaw' | 'outputAmountRaw') => a.paths.reduce((x, p) => x + BigInt(p[f]), 0n);
      expect((kind === 'sell' ? total('outputAmountRaw') : total('inputAmountRaw')).toString()).toBe(
        endpoint.returnAmount,
      );
      expect(a.swapAmount).toBe('1000');
      expect(a.priceImpact.error).toBeNull();
      expect(Number(a.priceImpact.priceImpact)).toBeGreaterThanOrEqual(0);
      for (const p of a.paths)
        for (const t of (p as unknown as { tokens: { address: string; decimals: number }[] }).tokens)
          expect(t.decimals).toBe(t.address === USDC ? 6 : 18);
    }
  }
  // Without a version: the better of both.
  const best = await sor<FullAnswer>(SDK_SOR_QUERY, { ...sell, considerPoolsWithHooks: true });
  const v2 = BigInt((await sorEndpoint('sell', '1000000000', 2)).returnAmount);
  const v3 = BigInt((await sorEndpoint('sell', '1000000000', 3)).returnAmount);
  expect(BigInt(best.paths.reduce((x, p) => x + BigInt(p.outputAmountRaw), 0n))).toBe(v2 > v3 ? v2 : v3);
});

test('exact out without a version pays no more than either Vault alone', async () => {
  for (const amount of ['10', '1000', '3000']) {
    const best = await sor<FullAnswer>(FULL_SOR_QUERY, { ...buy, swapAmount: amount, considerPoolsWithHooks: true });
    const raw = `${amount}000000000000000000`;
    const alone = await Promise.all(
      ([2, 3] as const).map(async (v) => BigInt((await sorEndpoint('buy', raw, v)).returnAmount)),
    );
    const routed = alone.filter((x) => x > 0n);
    expect(routed.length).toBeGreaterThan(0);
    expect(best.swapAmountRaw).toBe(raw);
    expect(BigInt(best.returnAmountRaw)).toBe(routed.reduce((x, y) => (x < y ? x : y)));
  }
});

test('every field: human amounts, prices, routes with their shares, the block', async () => {
  const a = await sor<FullAnswer>(FULL_SOR_QUERY, { ...sell, useProtocolVersion: 2 });
  expect(a).toMatchObject({ vaultVersion: 2, protocolVersion: 2, swapType: 'EXACT_IN', blockNumber: BLOCK });
  expect(a.tokenInAmount).toBe('1000');
  expect(a.swapAmount).toBe('1000');
  expect(a.returnAmount).toBe(a.tokenOutAmount);
  // tokenOutAmount is the raw amount in DAI's 18 decimals, exactly.
  const [i, f = ''] = a.tokenOutAmount.split('.');
  expect(BigInt(i! + f.padEnd(18, '0')).toString()).toBe(a.returnAmountRaw);
  expect(Number(a.effectivePrice) * Number(a.effectivePriceReversed)).toBeCloseTo(1, 6);
  expect(a.routes.reduce((x, r) => x + r.share, 0)).toBeCloseTo(1, 12);
  expect(a.routes[0]!.hops[0]!.pool).toMatchObject({ id: V2_POOL, type: 'WEIGHTED' });
  expect(a.callData).toBeNull();
});

test('callDataInput: the transaction /order builds, with its limits', async () => {
  const callDataInput = { slippagePercentage: '0.5', sender: SENDER, receiver: SENDER, deadline: 1_740_003_600 };
  for (const version of [2, 3] as const) {
    const a = await sor<FullAnswer>(FULL_SOR_QUERY, { ...sell, useProtocolVersion: version, callDataInput });
    const order = await post(`${server.url}/order/${SEPOLIA.id}`, {
      sellToken: USDC,
      buyToken: DAI,
      orderKind: 'sell',
      amount: '1000000000',
      gasPrice: '0',
      protocolVersion: version,
      sender: SENDER,
      slippagePercentage: '0.005',
      deadline: 1_740_003_600,
    });
    expect(order.status).toBe(200);
    expect(a.callData).toEqual({
      callData: order.body.data,
      to: order.body.to,
      value: order.body.value,
      minAmountOutRaw: order.body.minBuyAmount,
      maxAmountInRaw: null,
    });
  }
});

test('no route is the zero answer, with the reason', async () => {
  const a = await sor<FullAnswer>(FULL_SOR_QUERY, {
    ...sell,
    tokenOut: '0x9999999999999999999999999999999999999999',
  });
  expect(a).toMatchObject({
    swaps: [],
    paths: [],
    tokenAddresses: [],
    swapAmountRaw: '0',
    returnAmountRaw: '0',
    returnAmount: '0',
    routes: [],
    priceImpact: { priceImpact: null },
  });
  expect(a.priceImpact.error).toContain('0x9999999999999999999999999999999999999999');
  // Only through a pool that does not hold the pair: no route either.
  const restricted = await sor<FullAnswer>(FULL_SOR_QUERY, { ...sell, poolIds: [`0x${'d1'.repeat(32)}`] });
  expect(restricted.paths).toEqual([]);
  expect(restricted.priceImpact.error).toContain('poolIds');
  // Through the V2 pool alone: its route.
  const v2Only = await sor<FullAnswer>(FULL_SOR_QUERY, { ...sell, poolIds: [V2_POOL] });
  expect(v2Only.paths.map((p) => p.pools)).toEqual([[V2_POOL]]);
});

test('malformed arguments are GraphQL errors naming the argument', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ swapAmount: '1e3' }, 'swapAmount'],
    [{ swapAmount: '0' }, 'swapAmount'],
    [{ swapAmount: '1.0000001' }, 'swapAmount'],
    [{ tokenIn: '0x12' }, 'tokenIn'],
    [{ useProtocolVersion: 4 }, 'useProtocolVersion'],
    [{ chain: 'FANTOM' }, 'chain'],
    [{ chain: 'NOWHERE' }, 'chain'],
    [{ poolIds: ['pool'] }, 'poolIds[0]'],
    [
      {
        callDataInput: {
          slippagePercentage: '0.5',
          sender: '0x0000000000000000000000000000000000000000',
          receiver: SENDER,
        },
      },
      'callDataInput.sender',
    ],
  ];
  for (const [change, name] of cases) {
    const res = await gql(server.url, FULL_SOR_QUERY, { ...sell, ...change });
    expect(res.errors?.[0]?.message).toContain(name);
  }
});

test('a slippage of 100 % or more is refused in the percent the caller sent', async () => {
  for (const slippagePercentage of ['100', '150', '100.0']) {
    const callDataInput = { slippagePercentage, sender: SENDER, receiver: SENDER };
    const res = await gql(server.url, FULL_SOR_QUERY, { ...sell, callDataInput });
    expect(res.errors?.[0]?.message).toBe(
      `callDataInput.slippagePercentage: expected a percentage below 100, like "0.5" for 0.5 %, got "${slippagePercentage}"`,
    );
    expect(res.errors?.[0]?.extensions).toMatchObject({
      reason: 'BAD_FIELD',
      field: 'callDataInput.slippagePercentage',
    });
  }
  const below = await gql(server.url, FULL_SOR_QUERY, {
    ...sell,
    callDataInput: { slippagePercentage: '99.9', sender: SENDER, receiver: SENDER },
  });
  expect(below.errors).toBeUndefined();
});
