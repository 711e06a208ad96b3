import { getAddress } from 'ethers';
import { routingFeature } from '../../src/routing/routingFeature';
import { decode } from './v2/batchSwapCalldata';
import { describeWithSnapshot, loadSnapshotPools, MAINNET } from '../helpers/snapshot';
import { startTestServer, type TestServer } from '../helpers/testServer';
import { startPermit2Fake, type Permit2Fake } from '../fakes/permit2RpcServer';
import { post } from './quoteClient';

/** `POST /order`: the transaction decodes back to exactly the quoted route with the right limits. */

const NOW_MS = Date.UTC(2026, 0, 15, 12, 0, 0);
const NOW_S = NOW_MS / 1000;
const VAULT = '0xBA12222222228d8Ba445958a75a0704d566BF2C8';
const ZERO = '0x0000000000000000000000000000000000000000';
const ETH = '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE';
const SENDER = '0x1111111111111111111111111111111111111111';
const RECEIVER = '0x2222222222222222222222222222222222222222';
const SELL = {
  sellToken: MAINNET.WETH,
  buyToken: MAINNET.USDC,
  orderKind: 'sell',
  amount: (3n * 10n ** 18n).toString(),
  gasPrice: '0',
  sender: SENDER,
} as const;
const BUY = {
  sellToken: MAINNET.DAI,
  buyToken: MAINNET.BAL,
  orderKind: 'buy',
  amount: (250n * 10n ** 18n).toString(),
  gasPrice: '0',
  sender: SENDER,
} as const;

/** Balancer V2's WeightedPoolFactory (2021): the snapshot's pools do not say theirs, so the first gets it. */
const FACTORY = '0x8e9aa87e45e92bad84d5f8dd1bff34fb92637de9';
const withFactory = (pools: unknown[]) => pools.map((p, i) => (i === 0 ? { ...(p as object), factory: FACTORY } : p));

interface Quote {
  returnAmount: string;
  swaps: { poolId: string; assetInIndex: number; assetOutIndex: number; amount: string; userData: string }[];
  tokenAddresses: string[];
  marketSp: string;
}

describeWithSnapshot('POST /order/:chainId', () => {
  let server: TestServer;
  const sor = async (body: object) => (await post(`${server.url}/sor/1`, body)).body as unknown as Quote;
  const order = (body: object) => post(`${server.url}/order/1`, body);

  beforeAll(async () => {
    server = await startTestServer(
      {},
      {
        seed: [{ chainId: 1, pools: withFactory(loadSnapshotPools()) }],
        features: [routingFeature],
        now: () => NOW_MS,
      },
    );
  });
  afterAll(async () => {
    await server?.close();
  });

  test('sell: GIVEN_IN batchSwap of the quoted route, out limit -floor(returnAmount * 0.99), one-hour deadline', async () => {
    const quote = await sor(SELL);
    const res = await order({ ...SELL, receiver: RECEIVER });
    expect(res.status).toBe(200);
    expect(res.body.to).toBe(VAULT);
    const d = decode(res.body.data as string);
    expect(d.kind).toBe(0);
    expect(d.swaps).toEqual(quote.swaps);
    expect(d.assets).toEqual(quote.tokenAddresses.map((a) => getAddress(a)));
    expect(d.funds).toEqual([getAddress(SENDER), false, getAddress(RECEIVER), false]);
    const r = BigInt(quote.returnAmount);
    const minOut = (r * 99n) / 100n;
    const inIdx = quote.tokenAddresses.indexOf(MAINNET.WETH);
    const outIdx = quote.tokenAddresses.indexOf(MAINNET.USDC);
    d.limits.forEach((l, i) => expect(l).toBe(i === inIdx ? BigInt(SELL.amount) : i === outIdx ? -minOut : 0n));
    expect(d.deadline).toBe(NOW_S + 3600);
    expect(res.body).toMatchObject({
      value: '0',
      minBuyAmount: minOut.toString(),
      deadline: NOW_S + 3600,
      relayerApprovalRequired: false,
      price: { sellAmount: SELL.amount, buyAmount: quote.returnAmount, allowanceTarget: VAULT, price: quote.marketSp },
    });
    // A Vault route: only the Vault's allowance for the sell token, the amount sold.
    expect(res.body.approvals).toEqual([
      expect.objectContaining({
        kind: 'erc20',
        token: getAddress(MAINNET.WETH),
        spender: VAULT,
        amount: SELL.amount,
        to: getAddress(MAINNET.WETH),
      }),
    ]);
  });

  test('buy: GIVEN_OUT, in limit ceil(returnAmount * 1.005), out limit -amount; recipient is the receiver alias', async () => {
    const quote = await sor(BUY);
    const res = await order({ ...BUY, recipient: RECEIVER, slippagePercentage: 0.005, deadline: NOW_S + 120 });
    expect(res.status).toBe(200);
    const d = decode(res.body.data as string);
    expect(d.kind).toBe(1);
    expect(d.swaps).toEqual(quote.swaps);
    expect(d.funds).toEqual([getAddress(SENDER), false, getAddress(RECEIVER), false]);
    const r = BigInt(quote.returnAmount);
    const maxIn = (r * 1005n + 999n) / 1000n;
    const inIdx = quote.tokenAddresses.indexOf(MAINNET.DAI);
    const outIdx = quote.tokenAddresses.indexOf(MAINNET.BAL);
    d.limits.forEach((l, i) => expect(l).toBe(i === inIdx ? maxIn : i === outIdx ? -BigInt(BUY.amount) : 0n));
    expect(d.deadline).toBe(NOW_S + 120);
    expect(res.body).toMatchObject({
      maxSellAmount: maxIn.toString(),
      value: '0',
      price: { sellAmount: quote.returnAmount, buyAmount: BUY.amount },
    });
  });

  test('native ETH in: zero address among the assets and value = amount (sell) or maxIn (buy)', async () => {
    const sell = await order({ ...SELL, sellToken: ETH });
    expect(sell.status).toBe(200);
    const ds = decode(sell.body.data as string);
    expect(ds.assets).toContain(ZERO);
    expect(ds.assets).not.toContain(getAddress(MAINNET.WETH));
    expect(sell.body.value).toBe(SELL.amount);
    expect(ds.limits[ds.assets.indexOf(ZERO)]).toBe(BigInt(SELL.amount));

    const buyBody = {
      sellToken: ZERO,
      buyToken: MAINNET.DAI,
      orderKind: 'buy',
      amount: (1000n * 10n ** 18n).toString(),
      gasPrice: '0',
      sender: SENDER,
    };
    const quote = await sor(buyBody);
    const buy = await order(buyBody);
    const maxIn = (BigInt(quote.returnAmount) * 101n + 99n) / 100n;
    expect(buy.body.value).toBe(maxIn.toString());
    const db = decode(buy.body.data as string);
    expect(db.limits[db.assets.indexOf(ZERO)]).toBe(maxIn);
  });

  test('native ETH out: value 0, the Vault pays ETH to the receiver', async () => {
    const res = await order({
      sellToken: MAINNET.DAI,
      buyToken: ETH,
      orderKind: 'sell',
      amount: (1000n * 10n ** 18n).toString(),
      gasPrice: '0',
      sender: SENDER,
    });
    expect(res.status).toBe(200);
    expect(res.body.value).toBe('0');
    const d = decode(res.body.data as string);
    expect(d.assets).toContain(ZERO);
    expect(d.limits[d.assets.indexOf(ZERO)]! < 0n).toBe(true);
  });

  test('slippage edges: 0 keeps the quote, 0.999999 keeps a millionth', async () => {
    const quote = await sor(SELL);
    const r = BigInt(quote.returnAmount);
    const zero = await order({ ...SELL, slippagePercentage: 0 });
    expect(zero.body.minBuyAmount).toBe(r.toString());
    const most = await order({ ...SELL, slippagePercentage: 0.999999 });
    expect(most.body.minBuyAmount).toBe((r / 1_000_000n).toString());
    const buyQuote = await sor(BUY);
    const buyMost = await order({ ...BUY, slippagePercentage: 0.999999 });
    expect(buyMost.body.maxSellAmount).toBe(
      ((BigInt(buyQuote.returnAmount) * 1_999_999n + 999_999n) / 1_000_000n).toString(),
    );
  });

  test('amounts near 2^256-1 are accepted by validation but never become a transaction', async () => {
    const res = await order({ ...SELL, amount: (2n ** 256n - 1n).toString() });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(422);
    expect(res.body.reason).toBe('NO_ROUTE');
  });

  test('no route -> 422 JSON, no transaction', async () => {
    const res = await order({
      ...SELL,
      sellToken: '0x3333333333333333333333333333333333333333',
      buyToken: '0x2222222222222222222222222222222222222222',
    });
    expect(res.status).toBe(422);
    expect(String(res.body.error)).toMatch(/no route/);
    expect(res.body.reason).toBe('NO_ROUTE');
    expect(res.body.data).toBeUndefined();
  });

  test.each([
    ['sender', { sender: undefined }],
    ['sender', { sender: '0x12' }],
    ['receiver', { receiver: 'bob' }],
    ['recipient', { recipient: '0x123' }],
    ['slippagePercentage', { slippagePercentage: 1 }],
    ['slippagePercentage', { slippagePercentage: -0.5 }],
    ['deadline', { deadline: 'soon' }],
    ['deadline', { deadline: NOW_S - 1 }],
    ['amount', { amount: '-1' }],
    // Tokens sent to the Vault or the relayer themselves would be lost to the wallet.
    ['sender', { sender: VAULT }],
    ['receiver', { receiver: '0x35cea9e57a393ac66aaa7e25c391d52c74b5648f' }],
    ['receiver', { recipient: VAULT.toLowerCase() }],
    // ... and so would tokens sent to a token contract, the zero address or the native marker.
    ['receiver', { receiver: SELL.buyToken }],
    ['receiver', { receiver: SELL.sellToken.toUpperCase().replace('0X', '0x') }],
    ['receiver', { receiver: '0xae7ab96520de3a18e5e111b5eaab095312d7fe84' }],
    ['receiver', { receiver: '0x0000000000000000000000000000000000000000' }],
    ['sender', { sender: '0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE' }],
  ])('%s %j -> 400 naming the field', async (field, patch) => {
    const res = await order({ ...SELL, ...patch });
    expect(res.status).toBe(400);
    expect(String(res.body.error)).toMatch(new RegExp(`^${field}: `));
  });

  test('refuses a token, a pool or another known contract as receiver or sender, naming what it is', async () => {
    const usdcForEth = {
      sellToken: MAINNET.USDC,
      buyToken: ETH,
      orderKind: 'sell',
      amount: (1000n * 10n ** 6n).toString(),
      gasPrice: '0',
      sender: SENDER,
    };
    // Paid to WETH, the ETH would end up as WETH credited to the Vault, owned by nobody.
    const weth = await order({ ...usdcForEth, receiver: MAINNET.WETH });
    expect(weth.status).toBe(400);
    expect(weth.body.error).toMatch(
      /^receiver: 0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2 is the wrapped native token contract on chain 1, not a wallet; .*send the wallet that gets the tokens/,
    );
    const dai = await order({ ...SELL, receiver: MAINNET.DAI });
    expect(dai.status).toBe(400);
    expect(dai.body.error).toMatch(/^receiver: 0x6b17\w+ is a token contract on chain 1, not a wallet/);
    const pool = loadSnapshotPools()[0] as { id: string; address: string };
    const bpt = await order({ ...SELL, receiver: pool.address });
    expect(bpt.status).toBe(400);
    expect(bpt.body.error).toMatch(new RegExp(`^receiver: \\w+ is the pool token \\(BPT\\) of pool ${pool.id}`, 'i'));
    const sender = await order({ ...SELL, sender: MAINNET.DAI, receiver: RECEIVER });
    expect(sender.status).toBe(400);
    expect(sender.body.error).toMatch(/^sender: 0x6b17\w+ is a token contract on chain 1, which cannot sign the order/);
    const relayerSender = await order({ ...SELL, sender: '0x35cea9e57a393ac66aaa7e25c391d52c74b5648f' });
    expect(relayerSender.body.error).toMatch(/^sender: .* is the batch relayer/);
    // The Vault's ProtocolFeesCollector: only governance withdraws what it holds.
    const collector = '0xce88686553686DA562CE7Cea497CE749DA109f9F';
    const toCollector = await order({ ...SELL, receiver: collector });
    expect(toCollector.status).toBe(400);
    expect(toCollector.body.error).toMatch(
      /^receiver: 0xce88\w+ is the Vault's ProtocolFeesCollector on chain 1, not a wallet/,
    );
    const fromCollector = await order({ ...SELL, sender: collector.toLowerCase(), receiver: RECEIVER });
    expect(fromCollector.body.error).toMatch(/^sender: 0xce88\w+ is the Vault's ProtocolFeesCollector on chain 1/);
    // Balancer V3's ProtocolFeeController, and any pool's factory: what is sent there stays there.
    const feeController = '0xa731c23d7c95436baaae9d52782f966e1ed07cc8';
    const toController = await order({ ...SELL, receiver: feeController });
    expect(toController.status).toBe(400);
    expect(toController.body.error).toMatch(/^receiver: 0xa731\w+ is the Balancer V3 ProtocolFeeController on chain 1/);
    const fromController = await order({ ...SELL, sender: feeController, receiver: RECEIVER });
    expect(fromController.body.error).toMatch(/^sender: 0xa731\w+ is the Balancer V3 ProtocolFeeController on chain 1/);
    const toFactory = await order({ ...SELL, receiver: FACTORY });
    expect(toFactory.status).toBe(400);
    expect(toFactory.body.error).toMatch(/^receiver: 0x\w+ is a pool factory .*, not a wallet/);
    // Any other address, a smart-contract wallet included, stays a valid receiver.
    const wallet = await order({ ...usdcForEth, receiver: RECEIVER });
    expect(wallet.status).toBe(200);
  });

  test('V2 orders say protocolVersion 2; without protocolVersion the V2 route stands where V3 has none', async () => {
    const res = await order(SELL);
    expect(res.status).toBe(200);
    expect(res.body.protocolVersion).toBe(2);
    expect(res.body.to).toBe(VAULT);
  });

  test('protocolVersion 3: the V3 contracts are refused as parties, the receiver must be the sender, no V3 route is a 422', async () => {
    const permit2 = await order({
      ...SELL,
      protocolVersion: 3,
      receiver: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
    });
    expect(permit2.status).toBe(400);
    expect(JSON.stringify(permit2.body)).toMatch(/receiver/);
    const batchRouterAsSender = await order({ ...SELL, sender: '0x136f1EFcC3f8f88516B9E94110D56FDBfB1778d1' });
    expect(batchRouterAsSender.status).toBe(400);
    expect(JSON.stringify(batchRouterAsSender.body)).toMatch(/sender: .*the Balancer V3 BatchRouter/);
    const elsewhere = await order({ ...SELL, protocolVersion: 3, receiver: RECEIVER });
    expect(elsewhere.status).toBe(400);
    expect(JSON.stringify(elsewhere.body)).toMatch(/receiver: Balancer V3's routers pay the sender/);
    const none = await order({ ...SELL, protocolVersion: 3 });
    expect(none.status).toBe(422);
    expect(JSON.stringify(none.body)).toMatch(/in Balancer V3/);
  });

  test('unknown chain -> 404', async () => {
    expect((await post(`${server.url}/order/10`, SELL)).status).toBe(404);
  });

  describe("with the chain's node to read the sender's allowance", () => {
    let node: Permit2Fake;
    let withNode: TestServer;
    beforeAll(async () => {
      node = await startPermit2Fake(ZERO);
      withNode = await startTestServer(
        { RPC_URL_1: node.url },
        { seed: [{ chainId: 1, pools: loadSnapshotPools() }], features: [routingFeature], now: () => NOW_MS },
      );
    });
    afterAll(async () => {
      await withNode?.close();
      await node?.close();
    });

    test('lists only the Vault allowance still missing, with a reset to 0 first over a short non-zero one', async () => {
      const approvals = async (allowance: bigint) => {
        node.erc20.set(`${MAINNET.WETH}:${SENDER}:${VAULT.toLowerCase()}`, allowance);
        const res = await post(`${withNode.url}/order/1`, SELL);
        expect(res.status).toBe(200);
        return (res.body.approvals as { kind: string; spender: string; amount: string }[]).map((a) => [
          a.kind,
          a.spender,
          a.amount,
        ]);
      };
      const amount = BigInt(SELL.amount);
      expect(await approvals(0n)).toEqual([['erc20', VAULT, SELL.amount]]);
      expect(await approvals(amount)).toEqual([]);
      expect(await approvals(amount * 2n)).toEqual([]);
      // USDT and tokens like it revert an approve from one non-zero allowance to another.
      expect(await approvals(amount - 1n)).toEqual([
        ['erc20', VAULT, '0'],
        ['erc20', VAULT, SELL.amount],
      ]);
    });
  });
});
