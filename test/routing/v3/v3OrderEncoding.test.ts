import { getAddress } from 'ethers';
import { CHAINS } from '../../../src/config/chains';
import { encodeV3Order } from '../../../src/routing/v3/encodeV3Order';
import { V3Router } from '../../../src/routing/v3/v3Router';
import { batchRouterInterface, permit2Interface, routerInterface } from '../../../src/routing/v3/v3Abi';
import { erc20ApproveInterface } from '../../../src/routing/v2/relayer/relayerAbi';
import type { QuoteRequest, SerializedV3SwapInfo } from '../../../src/routing/types';
import { DAI, STATA_USDC, USDC, USDT } from '../../helpers/v3Universe';
import { v3Snapshot } from '../../helpers/v3StoredUniverse';

/**
 * V3 orders decoded back: the router the route needs, the paths and limits the slippage gives,
 * the deadline, `wethIsEth`, and the Permit2 approvals the sender's allowances leave missing.
 */

const SEPOLIA = CHAINS.find((c) => c.id === 11155111)!;
const V3 = SEPOLIA.v3!;
const NOW = 1_740_000_000;
const DEADLINE = NOW + 3600;
/** A Permit2 approval's expiry: 30 days from now, whatever the deadline. */
const EXPIRY = NOW + 30 * 24 * 3600;

function quoteOf(over: Partial<QuoteRequest>): SerializedV3SwapInfo {
  const req: QuoteRequest = {
    sellToken: USDC,
    buyToken: USDT,
    orderKind: 'sell',
    amount: 1_000n * 10n ** 6n,
    gasPrice: 0n,
    minLiquidityUsd: 0,
    ...over,
  };
  const { info } = new V3Router().quote(SEPOLIA, v3Snapshot(SEPOLIA.id), req, 1_740_000_000);
  expect(info.paths.length).toBeGreaterThan(0);
  return info;
}

const base = { slippage: '0.01', deadline: DEADLINE, now: NOW, v3: V3, nativeIn: false, nativeOut: false };

describe('V3 order encoding', () => {
  test('a boosted sell is BatchRouter.swapExactIn with each path and its minimum out', () => {
    const info = quoteOf({});
    const order = encodeV3Order({ ...base, kind: 'sell', info });
    expect(order.to).toBe(getAddress(V3.batchRouter));
    expect(order.protocolVersion).toBe(3);
    const call = batchRouterInterface.decodeFunctionData('swapExactIn', order.data);
    const [paths, deadline, wethIsEth, userData] = call as unknown as [unknown[][], bigint, boolean, string];
    expect(deadline).toBe(BigInt(DEADLINE));
    expect(wethIsEth).toBe(false);
    expect(userData).toBe('0x');
    expect(paths).toHaveLength(info.paths.length);
    paths.forEach((p, k) => {
      const want = info.paths[k]!;
      const [tokenIn, steps, exactIn, minOut] = p as [string, [string, string, boolean][], bigint, bigint];
      expect(tokenIn.toLowerCase()).toBe(want.tokenIn);
      expect(
        steps.map(([pool, out, isBuffer]) => ({ pool: pool.toLowerCase(), tokenOut: out.toLowerCase(), isBuffer })),
      ).toEqual(want.steps);
      expect(exactIn).toBe(BigInt(want.amountIn));
      // floor(out * 0.99)
      expect(minOut).toBe((BigInt(want.amountOut) * 99n) / 100n);
    });
    expect(order.minBuyAmount).toBe(((BigInt(info.returnAmount) * 99n) / 100n).toString());
    expect(order.value).toBe('0');
  });

  test('a buy is swapExactOut, each path with its maximum in; at slippage 0 the limits are the quote', () => {
    const info = quoteOf({ sellToken: DAI, orderKind: 'buy', amount: 200n * 10n ** 6n });
    const order = encodeV3Order({ ...base, slippage: '0', kind: 'buy', info });
    const [paths] = batchRouterInterface.decodeFunctionData('swapExactOut', order.data) as unknown as [unknown[][]];
    paths.forEach((p, k) => {
      const [, , maxInAmount, exactOut] = p as [string, unknown, bigint, bigint];
      expect(maxInAmount).toBe(BigInt(info.paths[k]!.amountIn));
      expect(exactOut).toBe(BigInt(info.paths[k]!.amountOut));
    });
    expect(order.maxSellAmount).toBe(info.returnAmount);
  });

  test('one path of one pool step is the Router; the native asset in is wethIsEth with the value sent', () => {
    const info = quoteOf({ buyToken: DAI, amount: 100n * 10n ** 6n });
    expect(info.paths).toHaveLength(1);
    const order = encodeV3Order({ ...base, kind: 'sell', info, nativeIn: true });
    expect(order.to).toBe(getAddress(V3.router));
    const [pool, tokenIn, tokenOut, exactIn, minOut, deadline, wethIsEth] = routerInterface.decodeFunctionData(
      'swapSingleTokenExactIn',
      order.data,
    ) as unknown as [string, string, string, bigint, bigint, bigint, boolean];
    expect(pool.toLowerCase()).toBe(info.paths[0]!.steps[0]!.pool);
    expect([tokenIn.toLowerCase(), tokenOut.toLowerCase()]).toEqual([USDC, DAI]);
    expect(exactIn).toBe(100n * 10n ** 6n);
    expect(minOut).toBe((BigInt(info.returnAmount) * 99n) / 100n);
    expect(deadline).toBe(BigInt(DEADLINE));
    expect(wethIsEth).toBe(true);
    expect(order.value).toBe(exactIn.toString());
    expect(order.approvals).toEqual([]);
  });

  test('a single buffer step still goes through the BatchRouter (the Router swaps pools only)', () => {
    const info = quoteOf({ buyToken: STATA_USDC, amount: 10n * 10n ** 6n });
    expect(info.paths[0]!.steps).toEqual([{ pool: STATA_USDC, tokenOut: STATA_USDC, isBuffer: true }]);
    expect(encodeV3Order({ ...base, kind: 'sell', info }).to).toBe(getAddress(V3.batchRouter));
  });

  test('approvals: the token to Permit2 and Permit2 to the router, only those the allowances miss', () => {
    const info = quoteOf({});
    const amount = BigInt(info.swapAmount);
    const approvals = (over: object) =>
      encodeV3Order({ ...base, kind: 'sell', info, ...over }).approvals.map((a) =>
        a.kind === 'erc20'
          ? ['erc20', ...erc20ApproveInterface.decodeFunctionData('approve', a.data).map(String)]
          : [
              'permit2',
              ...permit2Interface.decodeFunctionData('approve', a.data).map(String),
              a.kind === 'permit2' && a.expiration,
            ],
      );
    const toPermit2 = (n: bigint) => ['erc20', getAddress(V3.permit2), n.toString()];
    // Permit2's allowance lasts 30 days, not until the order's deadline.
    const toRouter = [
      'permit2',
      getAddress(USDC),
      getAddress(V3.batchRouter),
      amount.toString(),
      String(EXPIRY),
      EXPIRY,
    ];
    const all = encodeV3Order({ ...base, kind: 'sell', info }).approvals;
    expect(all.map((a) => a.to)).toEqual([getAddress(USDC), getAddress(V3.permit2)]);
    expect(approvals({})).toEqual([toPermit2(amount), toRouter]);

    const enough = { tokenToPermit2: amount, permit2ToRouter: { amount, expiration: DEADLINE } };
    expect(approvals({ allowances: enough })).toEqual([]);
    // An allowance that expires before this order's deadline is listed again.
    const expiring = { ...enough, permit2ToRouter: { amount, expiration: DEADLINE - 1 } };
    expect(approvals({ allowances: expiring })).toEqual([toRouter]);
    // A non-zero allowance short of the amount: a reset to 0 first (USDT reverts a non-zero to non-zero approve).
    const short = { ...enough, tokenToPermit2: amount - 1n };
    expect(approvals({ allowances: short })).toEqual([toPermit2(0n), toPermit2(amount)]);
    const none = { ...enough, tokenToPermit2: 0n };
    expect(approvals({ allowances: none })).toEqual([toPermit2(amount)]);
  });

  test('a far deadline: the Permit2 approval still expires in 30 days, and one that lasts them covers the order', () => {
    const info = quoteOf({});
    const amount = BigInt(info.swapAmount);
    const far = { deadline: 99_999_999_999 };
    const all = encodeV3Order({ ...base, ...far, kind: 'sell', info }).approvals;
    expect(all.map((a) => (a.kind === 'permit2' ? a.expiration : a.kind))).toEqual(['erc20', EXPIRY]);
    const lasting = { tokenToPermit2: amount, permit2ToRouter: { amount, expiration: EXPIRY } };
    expect(encodeV3Order({ ...base, ...far, kind: 'sell', info, allowances: lasting }).approvals).toEqual([]);
  });
});
