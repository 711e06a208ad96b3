import { parseToPoolsDict, type SubgraphPoolBase, type SwapInfo } from '@balancer-labs/sor';
import { StaticJsonRpcProvider } from '@ethersproject/providers';
import { TOKENS } from '../bench/quoteCases';
import { routingFeature } from '../../src/routing/routingFeature';
import { sorTimestamp } from '../../src/routing/v2/sorConfig';
import { describeWithSnapshot, loadSnapshotPools, MAINNET } from '../helpers/snapshot';
import { seedStore, startTestServer, type TestServer } from '../helpers/testServer';
import { directPools, directQuote } from './v2/directSor';
import { exactOfSorRoute } from './v2/exactReplay';
import { post } from './quoteClient';

/** `/sor` over HTTP: validation, chains, no route, and the SOR 4.1.3 traps. */

const NOW_MS = Date.UTC(2026, 0, 15, 12, 0, 0);
const TS = sorTimestamp(NOW_MS);
const SELL_1_WETH_FOR_DAI = {
  sellToken: MAINNET.WETH,
  buyToken: MAINNET.DAI,
  orderKind: 'sell',
  amount: '1000000000000000000',
  gasPrice: '0',
} as const;
const WETH_DAI_POOL = '0x0b09dea16768f0799065c475be02919503cb2a3500020000000000000000001a';

type RawPool = SubgraphPoolBase & { tokens: { address: string; balance: string }[] };

/** What the service answers for a SOR route: the Vault's arithmetic over it where the models carry every pool. */
function replayed(info: SwapInfo, pools: SubgraphPoolBase[]): string {
  const exact = exactOfSorRoute('sell', info, pools, MAINNET.WETH, TS);
  return (exact !== undefined && exact > 0n ? exact : info.returnAmount.toBigInt()).toString();
}

function withoutPools(pools: SubgraphPoolBase[], ids: string[]): SubgraphPoolBase[] {
  return pools.filter((p) => !ids.includes(p.id));
}

describeWithSnapshot('POST /sor/:chainId', () => {
  let server: TestServer;
  let pools: SubgraphPoolBase[];

  beforeAll(async () => {
    server = await startTestServer(
      { ROUTER_ENGINE: 'sor' },
      { seed: [{ chainId: 1, pools: loadSnapshotPools() }], features: [routingFeature], now: () => NOW_MS },
    );
    pools = directPools(loadSnapshotPools());
  });
  afterAll(async () => {
    await server?.close();
  });

  describe('validation', () => {
    test.each([
      ['sellToken', { sellToken: undefined }],
      ['sellToken', { sellToken: '0xnothex' }],
      ['buyToken', { buyToken: 42 }],
      ['buyToken', { buyToken: MAINNET.WETH.toUpperCase().replace('0X', '0x') }],
      ['orderKind', { orderKind: 'exactIn' }],
      ['amount', { amount: '0' }],
      ['amount', { amount: '12.5' }],
      ['amount', { amount: (2n ** 256n).toString() }],
      ['amount', { amount: 1e30 }],
      ['gasPrice', { gasPrice: '-3' }],
      ['gasPrice', { gasPrice: 'fast' }],
    ])('%s %j -> 400 naming the field', async (field, patch) => {
      const res = await post(`${server.url}/sor/1`, { ...SELL_1_WETH_FOR_DAI, ...patch });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe(400);
      expect(String(res.body.error)).toMatch(new RegExp(`^${field}: `));
    });

    test('minLiquidity that is not a number -> 400 naming it', async () => {
      const res = await post(`${server.url}/sor/1?minLiquidity=lots`, SELL_1_WETH_FOR_DAI);
      expect(res.status).toBe(400);
      expect(String(res.body.error)).toMatch(/^minLiquidity: /);
    });

    test('native asset against its wrapped token -> 400', async () => {
      const res = await post(`${server.url}/sor/1`, {
        ...SELL_1_WETH_FOR_DAI,
        buyToken: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
      });
      expect(res.status).toBe(400);
      expect(String(res.body.error)).toMatch(/^buyToken: .*native asset/);
    });

    test('a body that is not JSON -> 400 saying so', async () => {
      const res = await fetch(`${server.url}/sor/1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"sellToken":',
      });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toMatch(/malformed JSON/);
    });

    test('/order-only fields are ignored by /sor', async () => {
      const res = await post(`${server.url}/sor/1`, {
        ...SELL_1_WETH_FOR_DAI,
        sender: 'not an address',
        slippagePercentage: 7,
      });
      expect(res.status).toBe(200);
    });
  });

  describe('chains', () => {
    test.each([['5'], ['137']])('chain %s (unknown or not enabled) -> 404', async (chain) => {
      const res = await post(`${server.url}/sor/${chain}`, SELL_1_WETH_FOR_DAI);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe(404);
    });

    test('a chain id that is not a number -> 400', async () => {
      expect((await post(`${server.url}/sor/mainnet`, SELL_1_WETH_FOR_DAI)).status).toBe(400);
    });
  });

  test('no route: 200 with no swaps and zero amounts', async () => {
    const nowhere = {
      ...SELL_1_WETH_FOR_DAI,
      sellToken: '0x1111111111111111111111111111111111111111',
      buyToken: '0x2222222222222222222222222222222222222222',
    };
    const res = await post(`${server.url}/sor/1`, nowhere);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      swaps: [],
      tokenAddresses: [],
      returnAmount: '0',
      swapAmount: '0',
      returnAmountConsideringFees: '0',
      marketSp: '0',
    });
  });

  test('extreme but valid numbers answer 200, never a 500', async () => {
    const max = (2n ** 256n - 1n).toString();
    const huge = await post(`${server.url}/sor/1`, { ...SELL_1_WETH_FOR_DAI, amount: max });
    expect(huge.status).toBe(200);
    expect(huge.body).toMatchObject({ swaps: [], returnAmount: '0' });
    const tiny = await post(`${server.url}/sor/1`, { ...SELL_1_WETH_FOR_DAI, amount: '1', orderKind: 'buy' });
    expect(tiny.status).toBe(200);
    const costlyGas = await post(`${server.url}/sor/1`, { ...SELL_1_WETH_FOR_DAI, gasPrice: max });
    expect(costlyGas.status).toBe(200);
  });

  test('the answer has exactly the SwapInfo fields, amounts as decimal strings', async () => {
    const res = await post(`${server.url}/sor/1`, SELL_1_WETH_FOR_DAI);
    expect(Object.keys(res.body).sort()).toEqual([
      'marketSp',
      'priceImpact',
      'protocolVersion',
      'returnAmount',
      'returnAmountConsideringFees',
      'returnAmountFromSwaps',
      'swapAmount',
      'swapAmountForSwaps',
      'swaps',
      'tokenAddresses',
      'tokenIn',
      'tokenInForSwaps',
      'tokenOut',
      'tokenOutFromSwaps',
    ]);
    for (const k of [
      'returnAmount',
      'swapAmount',
      'swapAmountForSwaps',
      'returnAmountFromSwaps',
      'returnAmountConsideringFees',
    ]) {
      expect(res.body[k]).toMatch(/^\d+$/);
    }
    for (const s of res.body.swaps as Record<string, unknown>[])
      expect(Object.keys(s).sort()).toEqual(['amount', 'assetInIndex', 'assetOutIndex', 'poolId', 'userData']);
  });

  test('protocolVersion: 2 is the default answer; anything but 2 or 3 is a 400 naming the field', async () => {
    const v2 = await post(`${server.url}/sor/1`, { ...SELL_1_WETH_FOR_DAI, protocolVersion: 2 });
    expect(v2.status).toBe(200);
    expect(v2.body.protocolVersion).toBe(2);
    const bad = await post(`${server.url}/sor/1`, { ...SELL_1_WETH_FOR_DAI, protocolVersion: 4 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/protocolVersion: expected 2 \(Balancer V2\) or 3 \(Balancer V3\)/);
  });

  test('protocolVersion: 3 answers in the V3 shape, routed within the V3 Vault only (no V3 pools here: no paths)', async () => {
    const res = await post(`${server.url}/sor/1`, { ...SELL_1_WETH_FOR_DAI, protocolVersion: 3 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ protocolVersion: 3, paths: [], returnAmount: '0' });
    expect(Object.keys(res.body).sort()).toEqual(
      expect.arrayContaining([
        'paths',
        'swapAmount',
        'returnAmount',
        'returnAmountConsideringFees',
        'tokenIn',
        'tokenOut',
        'marketSp',
        'priceImpact',
      ]),
    );
  });

  test('native input: the SOR routes through WETH and lists the zero address', async () => {
    const res = await post(`${server.url}/sor/1`, {
      ...SELL_1_WETH_FOR_DAI,
      sellToken: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE',
    });
    const viaWeth = await post(`${server.url}/sor/1`, SELL_1_WETH_FOR_DAI);
    expect(res.body.returnAmount).toBe(viaWeth.body.returnAmount);
    expect(res.body.tokenIn).toBe('0x0000000000000000000000000000000000000000');
    expect(res.body.tokenInForSwaps).toBe(MAINNET.WETH);
    expect(res.body.tokenAddresses).toContain('0x0000000000000000000000000000000000000000');
  });

  describe('SOR 4.1.3 traps', () => {
    test('pools whose balances are all "0.0" pass the SOR\'s own filter but never reach it here', async () => {
      const raw = loadSnapshotPools() as RawPool[];
      const empty = raw.filter((p) => p.tokens.every((t) => Number(t.balance) === 0)).map((p) => p.id);
      expect(empty.length).toBeGreaterThan(0);
      // The SOR keeps them (its filter compares the first balance with the string "0") ...
      const kept = Object.keys(parseToPoolsDict(raw, TS));
      expect(kept).toEqual(expect.arrayContaining(empty));
      // ... and they change its answer.
      const onRaw = await directQuote(raw, SELL_1_WETH_FOR_DAI, { timestamp: TS });
      const onRoutable = await directQuote(pools, SELL_1_WETH_FOR_DAI, { timestamp: TS });
      expect(onRaw.swaps).not.toEqual(onRoutable.swaps);
      const res = await post(`${server.url}/sor/1`, SELL_1_WETH_FOR_DAI);
      expect(res.status).toBe(200);
      expect(res.body.returnAmount).toBe(onRoutable.returnAmount.toString());
    });

    test('a route with a zero hop (dust pool) is refused and routed again without that pool', async () => {
      const c = { ...SELL_1_WETH_FOR_DAI, buyToken: MAINNET.USDT };
      const direct = await directQuote(pools, c, { timestamp: TS });
      const broken = direct.swaps.filter((s) => s.returnAmount === '0').map((s) => s.poolId);
      expect(broken.length).toBeGreaterThan(0);
      const res = await post(`${server.url}/sor/1`, c);
      expect(res.status).toBe(200);
      const used = (res.body.swaps as { poolId: string }[]).map((s) => s.poolId);
      for (const id of broken) expect(used).not.toContain(id);
      const expected = await directQuote(withoutPools(pools, broken), c, { timestamp: TS });
      expect(expected.swaps.every((s) => s.returnAmount !== '0')).toBe(true);
      expect(res.body.returnAmount).toBe(expected.returnAmount.toString());
    });

    test('wstETH <> stable pairs come from the normal router, not a silent 0 from the RPC-backed static route', async () => {
      const c = {
        sellToken: MAINNET.DAI,
        buyToken: MAINNET.wstETH,
        orderKind: 'sell',
        amount: (1000n * 10n ** 18n).toString(),
        gasPrice: '0',
      } as const;
      const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        // Driven directly on chain 1 without a node, the SOR answers 0.
        const noNode = new StaticJsonRpcProvider('http://127.0.0.1:1', 1);
        const offline = await directQuote(pools, c, { timestamp: TS, chainId: 1, provider: noNode });
        expect(offline.returnAmount.toString()).toBe('0');
      } finally {
        quiet.mockRestore();
      }
      const normal = await directQuote(pools, c, { timestamp: TS, chainId: 0 });
      expect(normal.returnAmount.gt(0)).toBe(true);
      const res = await post(`${server.url}/sor/1`, c);
      expect(res.body.returnAmount).toBe(normal.returnAmount.toString());
    });
  });
});

describeWithSnapshot('/sor follows the pool version', () => {
  let server: TestServer;
  afterEach(async () => {
    await server?.close();
  });

  test('after a pool update changes balances, the next identical quote differs (and matches the SOR on the new pools)', async () => {
    server = await startTestServer(
      { ROUTER_ENGINE: 'sor' },
      { seed: [{ chainId: 1, pools: loadSnapshotPools() }], features: [routingFeature], now: () => NOW_MS },
    );
    const before = await post(`${server.url}/sor/1`, SELL_1_WETH_FOR_DAI);
    expect((before.body.swaps as { poolId: string }[]).map((s) => s.poolId)).toContain(WETH_DAI_POOL);
    // cached: same answer
    expect((await post(`${server.url}/sor/1`, SELL_1_WETH_FOR_DAI)).body).toEqual(before.body);

    const raw = loadSnapshotPools() as RawPool[];
    const pool = raw.find((p) => p.id === WETH_DAI_POOL)!;
    const weth = pool.tokens.find((t) => t.address === MAINNET.WETH)!;
    weth.balance = (Number(weth.balance) * 2).toFixed(6);
    await seedStore(server.ctx.store, 1, [pool]);
    await server.ctx.readModel.refresh(1);

    const after = await post(`${server.url}/sor/1`, SELL_1_WETH_FOR_DAI);
    expect(after.status).toBe(200);
    expect(BigInt(after.body.returnAmount as string)).toBeLessThan(BigInt(before.body.returnAmount as string));
    const expected = await directQuote(directPools(raw), SELL_1_WETH_FOR_DAI, { timestamp: TS });
    expect(after.body.returnAmount).toBe(replayed(expected, directPools(raw)));
  });

  test('pools below the liquidity floor are skipped once decoration knows their liquidity; ?minLiquidity overrides the floor', async () => {
    server = await startTestServer(
      { ROUTER_ENGINE: 'sor' },
      { seed: [{ chainId: 1, pools: loadSnapshotPools() }], features: [routingFeature], now: () => NOW_MS },
    );
    const stored = (await server.ctx.store.getPool(1, WETH_DAI_POOL))!;
    await server.ctx.store.commit(1, { pools: [{ ...stored, totalLiquidity: '50' }], bumpPoolsVersion: true });
    await server.ctx.readModel.refresh(1);
    const pools = directPools(loadSnapshotPools());

    const floored = await post(`${server.url}/sor/1`, SELL_1_WETH_FOR_DAI);
    expect((floored.body.swaps as { poolId: string }[]).map((s) => s.poolId)).not.toContain(WETH_DAI_POOL);
    const without = withoutPools(pools, [WETH_DAI_POOL]);
    expect(floored.body.returnAmount).toBe(
      replayed(await directQuote(without, SELL_1_WETH_FOR_DAI, { timestamp: TS }), without),
    );

    const open = await post(`${server.url}/sor/1?minLiquidity=10`, SELL_1_WETH_FOR_DAI);
    expect(open.body.returnAmount).toBe(
      replayed(await directQuote(pools, SELL_1_WETH_FOR_DAI, { timestamp: TS }), pools),
    );
  });

  test('in-process routing (ROUTER_WORKERS=0) answers exactly what the worker pool answers', async () => {
    const cases = [
      SELL_1_WETH_FOR_DAI,
      {
        ...SELL_1_WETH_FOR_DAI,
        buyToken: TOKENS.BAL.address,
        orderKind: 'buy',
        amount: (100n * 10n ** 18n).toString(),
      },
    ];
    const answers: unknown[][] = [];
    for (const workers of ['0', '1']) {
      server = await startTestServer(
        { ROUTER_WORKERS: workers, ROUTER_ENGINE: 'sor' },
        { seed: [{ chainId: 1, pools: loadSnapshotPools() }], features: [routingFeature], now: () => NOW_MS },
      );
      const got: unknown[] = [];
      for (const c of cases) got.push((await post(`${server.url}/sor/1`, c)).body);
      answers.push(got);
      await server.close();
    }
    expect(answers[0]).toEqual(answers[1]);
    expect((answers[0]![0] as { returnAmount: string }).returnAmount).not.toBe('0');
  });
});
