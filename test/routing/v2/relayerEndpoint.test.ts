import { getAddress } from 'ethers';
import { relayerInterface, relayerLibraryInterface } from '../../../src/routing/v2/relayer/relayerAbi';
import { routingFeature } from '../../../src/routing/routingFeature';
import type { SerializedSwapInfo, SorOrderResponse } from '../../../src/routing/types';
import { describeWithSnapshot, loadSnapshotPools, MAINNET } from '../../helpers/snapshot';
import { startTestServer, type TestServer } from '../../helpers/testServer';
import { post } from '../quoteClient';

/**
 * Routes into and out of a weighted pool's BPT on the mainnet snapshot, over HTTP: how /sor marks
 * them, how /order turns them into a call of the chain's BatchRelayer with the approvals listed,
 * and what a chain without a relayer or a buy order answers. (Execution to the wei is proven on
 * the devnet in test/e2e/relayerOrders.test.ts.)
 */

const NOW_MS = Date.UTC(2026, 0, 15, 12, 0, 0);
/** B-80BAL-20WETH, a weighted v1 pool whose BPT no pool of the snapshot holds. */
const B80 = '0x5c6ee304399dbdb9c8ef030ab642b10820db8f56';
const MAINNET_RELAYER = getAddress('0x35cea9e57a393ac66aaa7e25c391d52c74b5648f');
const VAULT = getAddress('0xba12222222228d8ba445958a75a0704d566bf2c8');
const SENDER = '0x1111111111111111111111111111111111111111';
const JOIN = {
  sellToken: MAINNET.WETH,
  buyToken: B80,
  orderKind: 'sell',
  amount: (10n ** 18n).toString(),
  gasPrice: '0',
  sender: SENDER,
} as const;
const EXIT = {
  sellToken: B80,
  buyToken: MAINNET.USDC,
  orderKind: 'sell',
  amount: (100n * 10n ** 18n).toString(),
  gasPrice: '0',
  sender: SENDER,
} as const;

function calls(order: SorOrderResponse) {
  const [inner] = relayerInterface.decodeFunctionData('multicall', order.data) as unknown as [string[]];
  return inner.map((c) => relayerLibraryInterface.parseTransaction({ data: c })!);
}

describeWithSnapshot('relayer routes over HTTP (mainnet snapshot)', () => {
  let server: TestServer;
  let noRelayer: TestServer;

  beforeAll(async () => {
    const seed = { seed: [{ chainId: 1, pools: loadSnapshotPools() }], features: [routingFeature], now: () => NOW_MS };
    server = await startTestServer({}, seed);
    noRelayer = await startTestServer({ BATCH_RELAYER_1: 'none' }, seed);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await noRelayer?.close();
  });

  test("/sor marks a join route: relayerRequired, action on the join step, every step's result", async () => {
    const res = await post(`${server.url}/sor/1`, JOIN);
    expect(res.status).toBe(200);
    const info = res.body as unknown as SerializedSwapInfo;
    expect(info.relayerRequired).toBe(true);
    const join = info.swaps.find((s) => s.action === 'join');
    expect(join).toBeDefined();
    expect(info.tokenAddresses[join!.assetOutIndex]).toBe(B80);
    expect(info.swaps.every((s) => /^\d+$/.test(s.returnAmount ?? ''))).toBe(true);
    expect(info.swaps.at(-1)!.returnAmount).toBe(info.returnAmount);
    // A Vault-only route keeps the old shape exactly.
    const plain = (await post(`${server.url}/sor/1`, { ...JOIN, buyToken: MAINNET.USDC }))
      .body as unknown as SerializedSwapInfo;
    expect(plain.relayerRequired).toBeUndefined();
    expect(plain.swaps.every((s) => s.action === undefined && s.returnAmount === undefined)).toBe(true);
  });

  test("/order sends a join route to the chain's relayer, lists the relayer approval then the WETH allowance", async () => {
    const sor = (await post(`${server.url}/sor/1`, JOIN)).body as unknown as SerializedSwapInfo;
    const res = await post(`${server.url}/order/1`, { ...JOIN, slippagePercentage: 0.01 });
    expect(res.status).toBe(200);
    const order = res.body as unknown as SorOrderResponse;
    expect(order.to).toBe(MAINNET_RELAYER);
    expect(order.relayerApprovalRequired).toBe(true);
    expect(order.price).toMatchObject({ sellAmount: JOIN.amount, buyAmount: sor.returnAmount, allowanceTarget: VAULT });
    expect(order.minBuyAmount).toBe(((BigInt(sor.returnAmount) * 99n) / 100n).toString());
    expect(order.approvals).toEqual([
      expect.objectContaining({
        kind: 'relayer',
        relayer: MAINNET_RELAYER,
        vault: VAULT,
        sender: getAddress(SENDER),
        to: VAULT,
      }),
      expect.objectContaining({
        kind: 'erc20',
        token: getAddress(MAINNET.WETH),
        spender: VAULT,
        amount: JOIN.amount,
        to: getAddress(MAINNET.WETH),
      }),
    ]);
    const c = calls(order);
    const join = c.find((x) => x.name === 'joinPool')!;
    expect(join.args[0]).toBe(`${B80}000200000000000000000014`);
    // The last call pays the sender (the receiver by default).
    expect(join.args[3]).toBe(getAddress(SENDER));
  });

  test('/order sends an exit route with only the relayer approval: an exit burns the BPT itself', async () => {
    const res = await post(`${server.url}/order/1`, EXIT);
    expect(res.status).toBe(200);
    const order = res.body as unknown as SorOrderResponse;
    expect(calls(order)[0]!.name).toBe('exitPool');
    expect(order.approvals.map((a) => a.kind)).toEqual(['relayer']);
  });

  test('a chain whose relayer is turned off routes no joins: /sor no route, /order 422 naming BATCH_RELAYER_1', async () => {
    const sor = await post(`${noRelayer.url}/sor/1`, JOIN);
    expect(sor.status).toBe(200);
    expect(sor.body.swaps).toEqual([]);
    const order = await post(`${noRelayer.url}/order/1`, JOIN);
    expect(order.status).toBe(422);
    expect(String(order.body.error)).toMatch(/BATCH_RELAYER_1/);
    expect(order.body.reason).toBe('NO_ROUTE');
    // Vault routes are unaffected.
    expect((await post(`${noRelayer.url}/order/1`, { ...JOIN, buyToken: MAINNET.USDC })).status).toBe(200);
  });

  test('buying a BPT: 422 explaining that joins and exits need a sell', async () => {
    const res = await post(`${server.url}/order/1`, { ...JOIN, orderKind: 'buy' });
    expect(res.status).toBe(422);
    expect(String(res.body.error)).toMatch(/exact amount in.*sell order/);
    expect(res.body.reason).toBe('NO_ROUTE');
  });
});
