import { getAddress } from 'ethers';
import { chainById } from '../../../src/config/chains';
import { HttpError } from '../../../src/http/errors';
import { WstEthConversionReverted, type WstEthRates, type WstEthView } from '../../../src/sources/lido/wstEthRates';
import { quoteWithLido, ZERO_POOL_ID } from '../../../src/routing/v2/lido';
import { temporaryReference, readOnlyReference } from '../../../src/routing/v2/relayer/chainedReference';
import { encodeRelayerOrder } from '../../../src/routing/v2/relayer/encodeRelayerOrder';
import { relayerInterface, relayerLibraryInterface } from '../../../src/routing/v2/relayer/relayerAbi';
import { relayerRouteFromSwapInfo } from '../../../src/routing/v2/relayer/relayerRoute';
import { emptySwapInfo } from '../../../src/routing/serialize';
import type { QuoteRequest, SerializedSwapInfo } from '../../../src/routing/types';

/**
 * stETH routes on hand-made quotes and a Lido ratio of integers: which steps /sor answers, what the
 * quote is (Lido's floors), which library calls /order encodes. Execution on chain is proven in
 * test/e2e/stethOrders.test.ts.
 */

const MAINNET = chainById(1)!;
const { stETH: ST, wstETH: WST } = MAINNET.lido!;
const WETH = MAINNET.wrappedNative;
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const POOL_A = `0x${'a'.repeat(64)}`;
const POOL_B = `0x${'b'.repeat(64)}`;
const SENDER = '0x1111111111111111111111111111111111111111';
const RELAYER = MAINNET.batchRelayer;

/** totalPooledEther / totalShares, like Lido's views (floor). */
const P = 1_153_765_432_109_876_543_211n;
const S = 1_000_000_000_000_000_000_000n;
const view = (v: WstEthView, a: bigint) => (v === 'getWstETHByStETH' ? (a * S) / P : (a * P) / S);
const rates: WstEthRates & { calls: string[] } = {
  calls: [],
  pin: () => Promise.resolve('0x10'),
  convert(wstETH, v, amounts, block) {
    this.calls.push(`${v}@${block}`);
    expect(wstETH).toBe(WST);
    return Promise.resolve(amounts.map((a) => view(v, a)));
  },
};

function req(sellToken: string, buyToken: string, amount: bigint, orderKind: 'sell' | 'buy' = 'sell'): QuoteRequest {
  return { sellToken, buyToken, orderKind, amount, gasPrice: 0n, minLiquidityUsd: 0 };
}

/** A route answer with one or two paths, every step's returnAmount filled. */
function routeInfo(
  tokenIn: string,
  tokenOut: string,
  paths: readonly { amount: bigint; hops: readonly [string, string, string, bigint][] }[],
): SerializedSwapInfo {
  const assets: string[] = [];
  const index = (t: string) => (assets.includes(t) ? assets.indexOf(t) : assets.push(t) - 1);
  const swaps = paths.flatMap((p) =>
    p.hops.map(([pool, a, b, out], k) => ({
      poolId: pool,
      assetInIndex: index(a),
      assetOutIndex: index(b),
      amount: k === 0 ? p.amount.toString() : '0',
      userData: '0x',
      returnAmount: out.toString(),
    })),
  );
  const total = paths.reduce((s, p) => s + p.hops.at(-1)![3], 0n);
  const amount = paths.reduce((s, p) => s + p.amount, 0n);
  return {
    tokenAddresses: assets,
    swaps,
    swapAmount: amount.toString(),
    swapAmountForSwaps: amount.toString(),
    returnAmount: total.toString(),
    returnAmountFromSwaps: total.toString(),
    returnAmountConsideringFees: total.toString(),
    tokenIn,
    tokenInForSwaps: tokenIn,
    tokenOut,
    tokenOutFromSwaps: tokenOut,
    marketSp: '1',
    priceImpact: '0',
  };
}

function calls(data: string) {
  const [list] = relayerInterface.decodeFunctionData('multicall', data) as unknown as [string[]];
  return list.map((c) => relayerLibraryInterface.parseTransaction({ data: c })!);
}

function order(info: SerializedSwapInfo, amount: bigint, slippage = '0') {
  return encodeRelayerOrder({
    route: relayerRouteFromSwapInfo(info, WETH),
    pool: () => undefined,
    amount,
    sender: SENDER,
    receiver: SENDER,
    slippage,
    deadline: 1_900_000_000,
    vault: MAINNET.vault,
    relayer: RELAYER,
    marketSp: info.marketSp,
  });
}

describe('stETH in: wrapStETH first', () => {
  test('the wstETH route is quoted for getWstETHByStETH(amount) and follows a wrap step', async () => {
    const amount = 10n ** 19n + 7n;
    const wst = view('getWstETHByStETH', amount);
    const asked: QuoteRequest[] = [];
    const info = await quoteWithLido(MAINNET, rates, req(ST, WETH, amount), (q) => {
      asked.push(q);
      return Promise.resolve(routeInfo(WST, WETH, [{ amount: q.amount, hops: [[POOL_A, WST, WETH, 11_000n]] }]));
    });
    expect(asked).toEqual([expect.objectContaining({ sellToken: WST, amount: wst, stepAmounts: true })]);
    expect(info.relayerRequired).toBe(true);
    expect(info.swaps[0]).toMatchObject({
      poolId: ZERO_POOL_ID,
      action: 'wrap',
      amount: amount.toString(),
      returnAmount: wst.toString(),
    });
    expect(info.tokenAddresses[info.swaps[0]!.assetInIndex]).toBe(ST);
    expect(info.swaps[1]).toMatchObject({ amount: '0' });
    expect(info).toMatchObject({ tokenIn: ST, swapAmount: amount.toString(), returnAmount: '11000' });

    const o = order(info, amount);
    const c = calls(o.data);
    expect(c.map((x) => x.name)).toEqual(['wrapStETH', 'approveVault', 'batchSwap']);
    expect([...c[0]!.args]).toEqual([getAddress(SENDER), getAddress(RELAYER), amount, temporaryReference(1)]);
    expect([...c[1]!.args]).toEqual([getAddress(WST), readOnlyReference(1)]);
    expect(c[2]!.args[1][0][3]).toBe(temporaryReference(1));
    // The Vault pulls the stETH for the relayer: the sender approves the Vault for it.
    expect(o.approvals.map((a) => (a.kind === 'erc20' ? [a.token.toLowerCase(), a.amount] : a.kind))).toEqual([
      'relayer',
      [ST, amount.toString()],
    ]);
    expect(o.minBuyAmount).toBe('11000');
  });

  test('stETH -> wstETH is the wrap alone, then an empty batchSwap for the deadline', async () => {
    const info = await quoteWithLido(MAINNET, rates, req(ST, WST, 5n * 10n ** 18n), () =>
      Promise.reject(new Error('no route needed')),
    );
    expect(info.returnAmount).toBe(view('getWstETHByStETH', 5n * 10n ** 18n).toString());
    expect(calls(order(info, 5n * 10n ** 18n).data).map((x) => x.name)).toEqual(['wrapStETH', 'batchSwap']);
  });

  test('a wstETH route that splits gives way to the best single path: one wrap feeds one path exactly', async () => {
    const asked: QuoteRequest[] = [];
    const engine = (q: QuoteRequest) => {
      asked.push(q);
      return Promise.resolve(
        q.singlePath
          ? routeInfo(WST, WETH, [{ amount: q.amount, hops: [[POOL_B, WST, WETH, 9n]] }])
          : routeInfo(WST, WETH, [
              { amount: q.amount / 2n, hops: [[POOL_A, WST, WETH, 5n]] },
              { amount: q.amount - q.amount / 2n, hops: [[POOL_B, WST, WETH, 5n]] },
            ]),
      );
    };
    const info = await quoteWithLido(MAINNET, rates, req(ST, WETH, 10n ** 18n), engine);
    expect(asked.map((q) => q.singlePath === true)).toEqual([false, true]);
    expect(info.swaps.map((s) => [s.poolId, s.amount])).toEqual([
      [ZERO_POOL_ID, (10n ** 18n).toString()],
      [POOL_B, '0'],
    ]);
    expect(info.returnAmount).toBe('9');
    expect(calls(order(info, 10n ** 18n).data).map((x) => x.name)).toEqual(['wrapStETH', 'approveVault', 'batchSwap']);
  });

  test('a split wstETH route with no single path that carries it all is refused, saying why', async () => {
    const engine = (q: QuoteRequest) =>
      Promise.resolve(
        q.singlePath
          ? emptySwapInfo(WST, WETH)
          : routeInfo(WST, WETH, [
              { amount: q.amount / 2n, hops: [[POOL_A, WST, WETH, 5n]] },
              { amount: q.amount - q.amount / 2n, hops: [[POOL_B, WST, WETH, 5n]] },
            ]),
      );
    await expect(quoteWithLido(MAINNET, rates, req(ST, WETH, 10n ** 18n), engine)).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/no single path carries it/),
    });
  });
});

describe('prices and amounts Lido cannot convert', () => {
  const at = (sp: string) => (q: QuoteRequest) =>
    Promise.resolve({
      ...routeInfo(q.sellToken, q.buyToken, [
        { amount: q.amount, hops: [[POOL_A, q.sellToken, q.buyToken, 10n ** 18n]] },
      ]),
      marketSp: sp,
    });

  test("marketSp is the pair's: the wstETH route's price carried through Lido's ratio at this quote", async () => {
    const stPerWst = Number(P) / Number(S);
    // stETH in: stETH per WETH = wstETH per WETH x stETH per wstETH.
    const sellSt = await quoteWithLido(MAINNET, rates, req(ST, WETH, 10n ** 19n), at('0.866'));
    expect(Number(sellSt.marketSp)).toBeCloseTo(0.866 * stPerWst, 9);
    // stETH out: WETH per stETH = WETH per wstETH / stETH per wstETH.
    const buySt = await quoteWithLido(MAINNET, rates, req(WETH, ST, 10n ** 19n), at('1.1538'));
    expect(Number(buySt.marketSp)).toBeCloseTo(1.1538 / stPerWst, 6);
    // The wrap or unwrap alone: Lido's ratio itself, never 0.
    expect(Number((await quoteWithLido(MAINNET, rates, req(ST, WST, 10n ** 19n), at('0'))).marketSp)).toBeCloseTo(
      stPerWst,
      9,
    );
    expect(Number((await quoteWithLido(MAINNET, rates, req(WST, ST, 10n ** 19n), at('0'))).marketSp)).toBeCloseTo(
      1 / stPerWst,
      6,
    );
  });

  test("an amount the wstETH contract reverts on is the request's fault: 422 naming amount, not 502", async () => {
    const reverting: WstEthRates = {
      pin: () => Promise.resolve('0x10'),
      convert: () => Promise.reject(new WstEthConversionReverted('reverted with panic code 0x11')),
    };
    await expect(quoteWithLido(MAINNET, reverting, req(ST, WETH, 2n ** 255n), at('1'))).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/^amount: .* beyond what Lido's wstETH converts/),
    });
  });
});

describe('stETH out: unwrapWstETH last', () => {
  test('each path ends in an unwrap paying the floor the receiver surely gets', async () => {
    const w1 = 3_000_000_000_000_000_007n;
    const w2 = 1_234_567_890_123_456_789n;
    const info = await quoteWithLido(MAINNET, rates, req(USDC, ST, 5_000_000_000n), (q) => {
      expect(q).toMatchObject({ buyToken: WST, stepAmounts: true });
      return Promise.resolve(
        routeInfo(USDC, WST, [
          {
            amount: 3_000_000_000n,
            hops: [
              [POOL_A, USDC, WETH, 10n ** 18n],
              [POOL_B, WETH, WST, w1],
            ],
          },
          { amount: 2_000_000_000n, hops: [[POOL_A, USDC, WST, w2]] },
        ]),
      );
    });
    const surely = (w: bigint) => view('getStETHByWstETH', view('getWstETHByStETH', view('getStETHByWstETH', w)));
    expect(surely(w1)).toBeLessThan(view('getStETHByWstETH', w1) + 1n);
    expect(info.swaps.filter((s) => s.action === 'unwrap').map((s) => s.returnAmount)).toEqual([
      surely(w1).toString(),
      surely(w2).toString(),
    ]);
    expect(info.swaps.map((s) => s.action ?? 'swap')).toEqual(['swap', 'swap', 'unwrap', 'swap', 'unwrap']);
    expect(info).toMatchObject({
      tokenOut: ST,
      returnAmount: (surely(w1) + surely(w2)).toString(),
      relayerRequired: true,
    });
    // All reads at the one pinned block.
    expect(new Set(rates.calls.map((c) => c.split('@')[1]))).toEqual(new Set(['0x10']));

    const o = order(info, 5_000_000_000n);
    const c = calls(o.data);
    expect(c.map((x) => x.name)).toEqual(['batchSwap', 'unwrapWstETH', 'batchSwap', 'unwrapWstETH']);
    // The wstETH leg carries the limit and pays the relayer as ERC-20; the unwrap pays the receiver.
    const [, , , funds, limits] = c[0]!.args;
    expect([funds[2], funds[3]]).toEqual([getAddress(RELAYER), false]);
    expect(limits.at(-1)).toBe(-w1);
    expect([...c[1]!.args]).toEqual([getAddress(RELAYER), getAddress(SENDER), temporaryReference(1), 0n]);
    expect(o.minBuyAmount).toBe(info.returnAmount);
    // With slippage the wstETH limit moves and the stated minimum keeps Lido's rounding margin.
    const loose = order(info, 5_000_000_000n, '0.01');
    expect(calls(loose.data)[0]!.args[4].at(-1)).toBe(-((w1 * 99n) / 100n));
    expect(BigInt(loose.minBuyAmount!)).toBeLessThan((BigInt(info.returnAmount) * 99n) / 100n);
  });

  test('wstETH -> stETH is the unwrap alone, the Vault pulling the wstETH', async () => {
    const info = await quoteWithLido(MAINNET, rates, req(WST, ST, 10n ** 18n), () =>
      Promise.reject(new Error('no route needed')),
    );
    const o = order(info, 10n ** 18n);
    expect(calls(o.data).map((x) => x.name)).toEqual(['unwrapWstETH', 'batchSwap']);
    expect(o.approvals.map((a) => (a.kind === 'erc20' ? a.token.toLowerCase() : a.kind))).toEqual(['relayer', WST]);
  });
});

describe('refusals', () => {
  test('stETH buys answer 422 explaining sells only', async () => {
    await expect(
      quoteWithLido(MAINNET, rates, req(WETH, ST, 10n ** 18n, 'buy'), () => Promise.reject(new Error('not asked'))),
    ).rejects.toMatchObject({ status: 422, message: expect.stringMatching(/sell/) });
  });

  test('without an RPC URL stETH answers 422 naming RPC_URL_<id>', async () => {
    const err = await quoteWithLido(MAINNET, undefined, req(ST, WETH, 10n ** 18n), () =>
      Promise.reject(new Error('not asked')),
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ status: 422, message: expect.stringContaining('RPC_URL_1') });
  });

  test("a route without every step's result (the SOR fallback) answers 422", async () => {
    const bare = (q: QuoteRequest) => {
      const i = routeInfo(WETH, WST, [{ amount: q.amount, hops: [[POOL_A, WETH, WST, 9n]] }]);
      return Promise.resolve({ ...i, swaps: i.swaps.map(({ returnAmount: _r, ...s }) => s) });
    };
    await expect(quoteWithLido(MAINNET, rates, req(WETH, ST, 10n ** 18n), bare)).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(/ROUTER_ENGINE=own/),
    });
  });

  test('chains without Lido and pairs without stETH are quoted as they are', async () => {
    const plain = routeInfo(WETH, USDC, [{ amount: 1n, hops: [[POOL_A, WETH, USDC, 2n]] }]);
    expect(await quoteWithLido(chainById(10)!, undefined, req(ST, WETH, 1n), () => Promise.resolve(plain))).toBe(plain);
    expect(await quoteWithLido(MAINNET, undefined, req(WETH, USDC, 1n), () => Promise.resolve(plain))).toBe(plain);
  });
});
