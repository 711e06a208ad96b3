import { getAddress } from 'ethers';
import { CHAINS } from '../../../src/config/chains';
import { routingFeature } from '../../../src/routing/routingFeature';
import { batchRouterInterface } from '../../../src/routing/v3/v3Abi';
import { startTestServer, type TestServer } from '../../helpers/testServer';
import { DAI, USDC, USDT } from '../../helpers/v3Universe';
import { v3StoredBuffers, v3StoredPools } from '../../helpers/v3StoredUniverse';
import { post } from '../quoteClient';

/**
 * `/sor` and `/order` with V3 pools and buffers in the chain's state (laid over the store as the
 * follower does, the pools as pools the chain registered): the V3 answer and transaction, and the
 * better of both Vaults when the order names none.
 */

const SEPOLIA = CHAINS.find((c) => c.id === 11155111)!;
const SENDER = '0x1111111111111111111111111111111111111111';
const NOW_MS = 1_740_000_000_000;

describe('V3 on /sor and /order', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(
      { NETWORKS: String(SEPOLIA.id) },
      { seed: [{ chainId: SEPOLIA.id, pools: [] }], features: [routingFeature], now: () => NOW_MS },
    );
    const pools = v3StoredPools();
    server.ctx.readModel.setChainState(SEPOLIA.id, {
      block: {
        number: 7_439_300,
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

  const SELL = { sellToken: USDC, buyToken: USDT, orderKind: 'sell', amount: '1000000000', gasPrice: '0' };

  test('/sor with protocolVersion 3: the BatchRouter paths at the state block', async () => {
    const res = await post(`${server.url}/sor/${SEPOLIA.id}`, { ...SELL, protocolVersion: 3 });
    expect(res.status).toBe(200);
    expect(res.body.protocolVersion).toBe(3);
    expect(res.body.blockNumber).toBe(7_439_300);
    const paths = res.body.paths as { steps: { isBuffer: boolean }[]; amountOut: string }[];
    expect(paths.map((p) => p.steps.map((s) => s.isBuffer))).toEqual([[true, false, true]]);
    expect(paths[0]!.amountOut).toBe(res.body.returnAmount);
    // Without protocolVersion /sor stays V2: no V2 pool here, so no route.
    const v2 = await post(`${server.url}/sor/${SEPOLIA.id}`, SELL);
    expect(v2.body).toMatchObject({ protocolVersion: 2, swaps: [], returnAmount: '0' });
  });

  test('/order without protocolVersion builds V3 where only V3 routes, paying the V3 quote at slippage 0', async () => {
    const quote = await post(`${server.url}/sor/${SEPOLIA.id}`, { ...SELL, protocolVersion: 3 });
    const res = await post(`${server.url}/order/${SEPOLIA.id}`, { ...SELL, sender: SENDER, slippagePercentage: 0 });
    expect(res.status).toBe(200);
    expect(res.body.protocolVersion).toBe(3);
    expect(res.body.to).toBe(getAddress(SEPOLIA.v3!.batchRouter));
    expect(res.body.minBuyAmount).toBe(quote.body.returnAmount);
    const [paths] = batchRouterInterface.decodeFunctionData('swapExactIn', res.body.data as string) as unknown as [
      [string, unknown, bigint, bigint][],
    ];
    expect(paths[0]![3].toString()).toBe(quote.body.returnAmount);
    // No node to ask: both Permit2 approvals are listed.
    expect((res.body.approvals as { kind: string }[]).map((a) => a.kind)).toEqual(['erc20', 'permit2']);
  });

  test('a receiver other than the sender: V3 cannot pay it, so no route without protocolVersion 2 pools', async () => {
    const res = await post(`${server.url}/order/${SEPOLIA.id}`, {
      ...SELL,
      buyToken: DAI,
      sender: SENDER,
      receiver: '0x2222222222222222222222222222222222222222',
    });
    expect(res.status).toBe(422);
  });

  test("a chain whose clock runs ahead of the service's (a devnet moved on) gets a deadline ahead of its blocks", async () => {
    const ahead = 1_740_000_000 + 3 * 86_400;
    const pools = v3StoredPools();
    server.ctx.readModel.setChainState(SEPOLIA.id, {
      block: { number: 7_439_301, hash: `0x${'cd'.repeat(32)}`, parentHash: `0x${'ab'.repeat(32)}`, timestamp: ahead },
      pools: new Map(),
      registered: new Map(pools.map((p) => [p.id, p])),
      buffers: v3StoredBuffers(),
    });
    const res = await post(`${server.url}/order/${SEPOLIA.id}`, { ...SELL, sender: SENDER, protocolVersion: 3 });
    expect(res.status).toBe(200);
    expect(res.body.deadline).toBe(ahead + 3600);
    const permit2 = (res.body.approvals as { kind: string; expiration?: number }[]).find((a) => a.kind === 'permit2');
    // Permit2's allowance lasts 30 days from the chain's time.
    expect(permit2?.expiration).toBe(ahead + 30 * 86_400);
    // A deadline the chain's blocks have passed is refused, though the service's clock has not reached it.
    const late = await post(`${server.url}/order/${SEPOLIA.id}`, {
      ...SELL,
      sender: SENDER,
      protocolVersion: 3,
      deadline: ahead - 60,
    });
    expect([late.status, late.body.error]).toEqual([
      400,
      expect.stringContaining(`deadline: ${ahead - 60} is not in the future`),
    ]);
  });
});
