import { routingFeature } from '../../../src/routing/routingFeature';
import { describeWithSnapshot, loadSnapshotPools, MAINNET } from '../../helpers/snapshot';
import { seedStore, startTestServer, type TestServer } from '../../helpers/testServer';
import { post } from '../quoteClient';

/** `/sor` and `/order` on the service's own engine (the default): the wire shape and its edges. */

const NOW_MS = Date.UTC(2026, 0, 15, 12, 0, 0);
const ZERO = '0x0000000000000000000000000000000000000000';
const EEEE = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
const SELL_1_WETH_FOR_DAI = {
  sellToken: MAINNET.WETH,
  buyToken: MAINNET.DAI,
  orderKind: 'sell',
  amount: '1000000000000000000',
  gasPrice: '0',
} as const;
const WALLET = '0x00000000000000000000000000000000000000aa';

describeWithSnapshot('/sor and /order on the own engine', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      {},
      { seed: [{ chainId: 1, pools: loadSnapshotPools() }], features: [routingFeature], now: () => NOW_MS },
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  test('the answer has the SwapInfo fields plus priceImpact, amounts as decimal strings', async () => {
    const res = await post(`${server.url}/sor/1`, SELL_1_WETH_FOR_DAI);
    expect(res.status).toBe(200);
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
    expect(res.body.protocolVersion).toBe(2);
    expect(res.body.returnAmount).toMatch(/^[1-9]\d*$/);
    expect(res.body.marketSp).toMatch(/^\d+(\.\d+)?$/);
    // 1 WETH on a deep pool moves the price a little, not by half.
    expect(Number(res.body.priceImpact)).toBeGreaterThanOrEqual(0);
    expect(Number(res.body.priceImpact)).toBeLessThan(0.05);
  });

  test('a bigger order has a bigger price impact', async () => {
    const small = await post(`${server.url}/sor/1`, SELL_1_WETH_FOR_DAI);
    const big = await post(`${server.url}/sor/1`, { ...SELL_1_WETH_FOR_DAI, amount: (300n * 10n ** 18n).toString() });
    expect(Number(big.body.priceImpact)).toBeGreaterThan(Number(small.body.priceImpact));
  });

  test.each([
    ['sell', EEEE],
    ['buy', ZERO],
  ])('native ETH in (%s, %s): routed through WETH, the zero address in the assets', async (kind, native) => {
    const c = {
      ...SELL_1_WETH_FOR_DAI,
      sellToken: native,
      orderKind: kind,
      amount: kind === 'sell' ? SELL_1_WETH_FOR_DAI.amount : (3000n * 10n ** 18n).toString(),
    };
    const res = await post(`${server.url}/sor/1`, c);
    const viaWeth = await post(`${server.url}/sor/1`, { ...c, sellToken: MAINNET.WETH });
    expect(res.body.returnAmount).toBe(viaWeth.body.returnAmount);
    expect(res.body.tokenIn).toBe(ZERO);
    expect(res.body.tokenInForSwaps).toBe(MAINNET.WETH);
    expect(res.body.tokenAddresses).toContain(ZERO);
    expect(res.body.tokenAddresses).not.toContain(MAINNET.WETH);
  });

  test('native ETH out: the zero address is the token out', async () => {
    const res = await post(`${server.url}/sor/1`, {
      sellToken: MAINNET.DAI,
      buyToken: EEEE,
      orderKind: 'sell',
      amount: (3000n * 10n ** 18n).toString(),
      gasPrice: '0',
    });
    expect(res.body.tokenOut).toBe(ZERO);
    expect(res.body.tokenOutFromSwaps).toBe(MAINNET.WETH);
    expect(BigInt(res.body.returnAmount as string)).toBeGreaterThan(0n);
  });

  test('no route and impossible amounts: 200 with no swaps; /order says 422', async () => {
    const nowhere = {
      ...SELL_1_WETH_FOR_DAI,
      sellToken: '0x1111111111111111111111111111111111111111',
      buyToken: '0x2222222222222222222222222222222222222222',
    };
    expect((await post(`${server.url}/sor/1`, nowhere)).body).toMatchObject({
      swaps: [],
      tokenAddresses: [],
      returnAmount: '0',
      priceImpact: '0',
    });
    const huge = await post(`${server.url}/sor/1`, { ...SELL_1_WETH_FOR_DAI, amount: (2n ** 256n - 1n).toString() });
    expect(huge.status).toBe(200);
    expect(huge.body).toMatchObject({ swaps: [], returnAmount: '0' });
    const order = await post(`${server.url}/order/1`, {
      ...nowhere,
      sender: WALLET,
      receiver: WALLET,
      slippage: '0.01',
    });
    expect(order.status).toBe(422);
  });

  test("/order carries the quote's price impact", async () => {
    const quote = await post(`${server.url}/sor/1`, SELL_1_WETH_FOR_DAI);
    const order = await post(`${server.url}/order/1`, {
      ...SELL_1_WETH_FOR_DAI,
      sender: WALLET,
      receiver: WALLET,
      slippage: '0.01',
    });
    expect(order.status).toBe(200);
    expect(order.body.priceImpact).toBe(quote.body.priceImpact);
    expect((order.body.price as { buyAmount: string }).buyAmount).toBe(quote.body.returnAmount);
  });

  test('in-process routing (ROUTER_WORKERS=0) answers exactly what the worker threads answer, and a pool update changes the quote', async () => {
    const answers: unknown[] = [];
    for (const workers of ['0', '2']) {
      const s = await startTestServer(
        { ROUTER_WORKERS: workers },
        { seed: [{ chainId: 1, pools: loadSnapshotPools() }], features: [routingFeature], now: () => NOW_MS },
      );
      try {
        answers.push(
          (await post(`${s.url}/sor/1`, { ...SELL_1_WETH_FOR_DAI, amount: (50n * 10n ** 18n).toString() })).body,
        );
        if (workers === '2') {
          const raw = loadSnapshotPools() as { id: string; tokens: { address: string; balance: string }[] }[];
          for (const p of raw)
            for (const t of p.tokens) if (t.address === MAINNET.DAI) t.balance = (Number(t.balance) / 2).toFixed(6);
          await seedStore(s.ctx.store, 1, raw);
          await s.ctx.readModel.refresh(1);
          const after = await post(`${s.url}/sor/1`, { ...SELL_1_WETH_FOR_DAI, amount: (50n * 10n ** 18n).toString() });
          expect(BigInt(after.body.returnAmount as string)).toBeLessThan(
            BigInt((answers[1] as { returnAmount: string }).returnAmount),
          );
        }
      } finally {
        await s.close();
      }
    }
    expect(answers[0]).toEqual(answers[1]);
  });
});
