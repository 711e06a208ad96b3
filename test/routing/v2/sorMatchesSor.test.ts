import type { SubgraphPoolBase } from '@balancer-labs/sor';
import { PRICES_IN_ETH, QUOTE_CASES, TOKENS, type TokenName } from '../../bench/quoteCases';
import { exactOfSorRoute } from './exactReplay';
import { sorTimestamp } from '../../../src/routing/v2/sorConfig';
import { routingFeature } from '../../../src/routing/routingFeature';
import { describeWithSnapshot, loadSnapshotPools } from '../../helpers/snapshot';
import { startTestServer, type TestServer } from '../../helpers/testServer';
import { directPools, directQuote } from './directSor';
import { post } from '../quoteClient';

/**
 * `/sor` on the seeded mainnet snapshot answers exactly what `@balancer-labs/sor` answers when
 * driven directly on the same pools, computed here at test time.
 */

const NOW_MS = Date.UTC(2026, 0, 15, 12, 0, 0);
const pricesInEth: Record<string, string> = Object.fromEntries(
  (Object.keys(TOKENS) as TokenName[]).map((n) => [TOKENS[n].address, PRICES_IN_ETH[n]]),
);

async function setPrices(server: TestServer): Promise<void> {
  const tokens = await server.ctx.store.listTokens(1);
  await server.ctx.store.commit(1, {
    tokens: tokens
      .filter((t) => pricesInEth[t.address])
      .map((t) => ({ ...t, price: pricesInEth[t.address]!, lastUpdate: NOW_MS })),
    bumpTokensVersion: true,
  });
  await server.ctx.readModel.refresh(1);
}

describeWithSnapshot('/sor matches the SOR driven directly (mainnet snapshot)', () => {
  let server: TestServer;
  let pools: SubgraphPoolBase[];
  const results: { name: string; kind: string; returnAmount: string }[] = [];
  const changedByReplay: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(
      { ROUTER_ENGINE: 'sor' },
      { seed: [{ chainId: 1, pools: loadSnapshotPools() }], features: [routingFeature], now: () => NOW_MS },
    );
    await setPrices(server);
    pools = directPools(loadSnapshotPools());
  });
  afterAll(async () => {
    await server?.close();
  });

  test.each(QUOTE_CASES.map((c) => [c.name + (c.gasPrice === '0' ? ', gas 0' : ', gas 30 gwei'), c] as const))(
    '%s',
    async (name, c) => {
      const expected = await directQuote(pools, c, { timestamp: sorTimestamp(NOW_MS), pricesInEth });
      const res = await post(`${server.url}/sor/1`, c);
      expect(res.status).toBe(200);
      // Same route as the SOR; its amount re-computed with the Vault's own arithmetic where the
      // route's pools all have engine models (src/domain/swap), else the SOR's figure.
      const exact = exactOfSorRoute(c.orderKind, expected, pools, TOKENS.WETH.address, sorTimestamp(NOW_MS));
      const shift = exact === undefined || exact <= 0n ? 0n : exact - expected.returnAmount.toBigInt();
      expect(res.body.returnAmount).toBe((expected.returnAmount.toBigInt() + shift).toString());
      expect(res.body.returnAmountConsideringFees).toBe(
        (expected.returnAmountConsideringFees.toBigInt() + shift).toString(),
      );
      if (shift !== 0n) changedByReplay.push(name);
      expect(res.body.swaps).toEqual(
        expected.swaps.map(({ poolId, assetInIndex, assetOutIndex, amount, userData }) => ({
          poolId,
          assetInIndex,
          assetOutIndex,
          amount,
          userData,
        })),
      );
      expect(res.body.tokenAddresses).toEqual(expected.tokenAddresses);
      results.push({ name, kind: c.orderKind, returnAmount: String(res.body.returnAmount) });
    },
  );

  const GAS_CASE = {
    sellToken: TOKENS.WETH.address,
    buyToken: TOKENS.USDC.address,
    orderKind: 'sell',
    amount: (10n * 10n ** 18n).toString(),
  } as const;

  test('the gas price changes the route: costly gas means fewer pools, as the SOR decides', async () => {
    const free = await post(`${server.url}/sor/1`, { ...GAS_CASE, gasPrice: '0' });
    const costly = await post(`${server.url}/sor/1`, { ...GAS_CASE, gasPrice: (30n * 10n ** 9n).toString() });
    expect((costly.body.swaps as unknown[]).length).toBeLessThan((free.body.swaps as unknown[]).length);
    expect(BigInt(costly.body.returnAmount as string)).toBeLessThan(BigInt(free.body.returnAmount as string));
    for (const [res, gasPrice] of [
      [free, '0'],
      [costly, (30n * 10n ** 9n).toString()],
    ] as const) {
      const expected = await directQuote(
        pools,
        { ...GAS_CASE, gasPrice },
        { timestamp: sorTimestamp(NOW_MS), pricesInEth },
      );
      expect(res.body.returnAmount).toBe(expected.returnAmount.toString());
    }
  });

  test('at least 20 of the cases found a route, both sells and buys', () => {
    const routed = results.filter((r) => r.returnAmount !== '0');
    expect(routed.length).toBeGreaterThanOrEqual(20);
    expect(routed.some((r) => r.kind === 'sell')).toBe(true);
    expect(routed.some((r) => r.kind === 'buy')).toBe(true);
  });

  test('a token without a price makes gas ignored for it, as the old API did', async () => {
    const usdc = (await server.ctx.store.listTokens(1)).find((t) => t.address === TOKENS.USDC.address)!;
    await server.ctx.store.commit(1, {
      tokens: [{ ...usdc, price: null, noPriceData: true }],
      bumpTokensVersion: true,
    });
    await server.ctx.readModel.refresh(1);
    const free = await post(`${server.url}/sor/1`, { ...GAS_CASE, gasPrice: '0' });
    const costly = await post(`${server.url}/sor/1`, { ...GAS_CASE, gasPrice: (30n * 10n ** 9n).toString() });
    expect(costly.body.swaps).toEqual(free.body.swaps);
    expect(costly.body.returnAmount).toBe(free.body.returnAmount);
  });
});
