import { getAddress, Interface } from 'ethers';
import { encodeOrder } from '../../../src/routing/v2/orderEncoding';
import type { SerializedSwapInfo } from '../../../src/routing/types';
import { decode } from './batchSwapCalldata';

const VAULT = '0xba12222222228d8ba445958a75a0704d566bf2c8';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const ZERO = '0x0000000000000000000000000000000000000000';
const SENDER = '0x1111111111111111111111111111111111111111';
const RECEIVER = '0x2222222222222222222222222222222222222222';
const POOL_A = '0x0b09dea16768f0799065c475be02919503cb2a3500020000000000000000001a';
const POOL_B = '0x06df3b2bbb68adc8b0e302443692037ed9f91b42000000000000000000000063';

function info(over: Partial<SerializedSwapInfo>): SerializedSwapInfo {
  return {
    tokenAddresses: [WETH, DAI, USDC],
    swaps: [
      { poolId: POOL_A, assetInIndex: 0, assetOutIndex: 1, amount: '1000', userData: '0x' },
      { poolId: POOL_B, assetInIndex: 1, assetOutIndex: 2, amount: '0', userData: '0x' },
    ],
    swapAmount: '1000',
    swapAmountForSwaps: '1000',
    returnAmount: '2900',
    returnAmountFromSwaps: '2900',
    returnAmountConsideringFees: '2890',
    tokenIn: WETH,
    tokenInForSwaps: WETH,
    tokenOut: USDC,
    tokenOutFromSwaps: USDC,
    marketSp: '0.34',
    ...over,
  };
}

const approveData = (spender: string, amount: bigint) =>
  new Interface(['function approve(address spender, uint256 amount) returns (bool)']).encodeFunctionData('approve', [
    getAddress(spender),
    amount,
  ]);

describe('encodeOrder', () => {
  test('a sell decodes to GIVEN_IN with the route, funds, signed limits and deadline', () => {
    const o = encodeOrder({
      kind: 'sell',
      info: info({}),
      amount: 1000n,
      sender: SENDER,
      receiver: RECEIVER,
      slippage: '0.01',
      deadline: 1_900_000_000,
      vault: VAULT,
    });
    const d = decode(o.data);
    expect(d.kind).toBe(0);
    expect(d.swaps).toEqual(info({}).swaps);
    expect(d.assets).toEqual([WETH, DAI, USDC].map((a) => getAddress(a)));
    expect(d.funds).toEqual([getAddress(SENDER), false, getAddress(RECEIVER), false]);
    // out limit = -floor(2900 * 0.99) = -2871; in limit = the amount; intermediate asset 0
    expect(d.limits).toEqual([1000n, 0n, -2871n]);
    expect(d.deadline).toBe(1_900_000_000);
    expect(o).toMatchObject({
      to: getAddress(VAULT),
      value: '0',
      minBuyAmount: '2871',
      deadline: 1_900_000_000,
      relayerApprovalRequired: false,
      price: { sellAmount: '1000', buyAmount: '2900', allowanceTarget: getAddress(VAULT), price: '0.34' },
    });
    expect(o.maxSellAmount).toBeUndefined();
    // A Vault route needs only the Vault's allowance for the sell token: the amount sold.
    expect(o.approvals).toEqual([
      {
        kind: 'erc20',
        token: getAddress(WETH),
        spender: getAddress(VAULT),
        amount: '1000',
        to: getAddress(WETH),
        data: approveData(VAULT, 1000n),
      },
    ]);
  });

  test('a buy decodes to GIVEN_OUT with the in-limit rounded up and the out-limit the exact amount', () => {
    const o = encodeOrder({
      kind: 'buy',
      info: info({ swapAmount: '2900', returnAmount: '1001' }),
      amount: 2900n,
      sender: SENDER,
      receiver: SENDER,
      slippage: '0.005',
      deadline: 5,
      vault: VAULT,
    });
    const d = decode(o.data);
    expect(d.kind).toBe(1);
    // ceil(1001 * 1.005) = ceil(1006.005) = 1007
    expect(d.limits).toEqual([1007n, 0n, -2900n]);
    expect(o.maxSellAmount).toBe('1007');
    expect(o.price).toMatchObject({ sellAmount: '1001', buyAmount: '2900' });
    expect(o.value).toBe('0');
    // A buy may pull up to its signed in-limit.
    expect(o.approvals).toEqual([
      expect.objectContaining({
        kind: 'erc20',
        token: getAddress(WETH),
        amount: '1007',
        data: approveData(VAULT, 1007n),
      }),
    ]);
  });

  test('native input sends value: the amount for a sell, maxIn for a buy', () => {
    const native = info({ tokenAddresses: [ZERO, DAI, USDC], tokenIn: ZERO, tokenInForSwaps: WETH });
    const sell = encodeOrder({
      kind: 'sell',
      info: native,
      amount: 1000n,
      sender: SENDER,
      receiver: SENDER,
      slippage: '0.01',
      deadline: 5,
      vault: VAULT,
    });
    expect(decode(sell.data).assets[0]).toBe(ZERO);
    expect(sell.value).toBe('1000');
    const buy = encodeOrder({
      kind: 'buy',
      info: { ...native, returnAmount: '1000' },
      amount: 2900n,
      sender: SENDER,
      receiver: SENDER,
      slippage: '0.01',
      deadline: 5,
      vault: VAULT,
    });
    expect(buy.value).toBe('1010');
    expect(decode(buy.data).limits[0]).toBe(1010n);
    // Native ETH is sent as value: nothing to approve.
    expect(sell.approvals).toEqual([]);
    expect(buy.approvals).toEqual([]);
  });

  test('native output keeps value 0 and the zero address as the out asset', () => {
    const o = encodeOrder({
      kind: 'sell',
      info: info({ tokenAddresses: [USDC, DAI, ZERO], tokenIn: USDC, tokenOut: ZERO }),
      amount: 1000n,
      sender: SENDER,
      receiver: SENDER,
      slippage: '0',
      deadline: 5,
      vault: VAULT,
    });
    expect(o.value).toBe('0');
    expect(decode(o.data).limits).toEqual([1000n, 0n, -2900n]);
  });
});
