import { AbiCoder, getAddress, MaxUint256 } from 'ethers';
import { readOnlyReference, temporaryReference } from '../../../src/routing/v2/relayer/chainedReference';
import { encodeRelayerOrder, type RoutePool } from '../../../src/routing/v2/relayer/encodeRelayerOrder';
import { relayerInterface, relayerLibraryInterface } from '../../../src/routing/v2/relayer/relayerAbi';
import { RelayerRouteError, relayerRouteFromSwapInfo } from '../../../src/routing/v2/relayer/relayerRoute';
import { INT256_MAX } from '../../../src/routing/limits';
import type { SerializedSwapInfo } from '../../../src/routing/types';

/**
 * The relayer encoder on hand-made routes: which library calls, in which order, moving what from
 * whom to whom. Execution on the real contracts is proven in test/devnet/relayerMulticall.test.ts.
 */

const VAULT = '0xba12222222228d8ba445958a75a0704d566bf2c8';
const RELAYER = '0x35cea9e57a393ac66aaa7e25c391d52c74b5648f';
const WETH = '0xc02aaa39b223fe8d0a0e5c4f27ead9083c756cc2';
const DAI = '0x6b175474e89094c44da98b954eedeac495271d0f';
const USDC = '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48';
const ZERO = '0x0000000000000000000000000000000000000000';
const SENDER = '0x1111111111111111111111111111111111111111';
const RECEIVER = '0x2222222222222222222222222222222222222222';
const BPT_W = '0x96646936b91d6b9d7d0c47c496afbf3d6ec7b6f8';
const BPT_S = '0x06df3b2bbb68adc8b0e302443692037ed9f91b42';
const BPT_N = '0x5c6ee304399dbdb9c8ef030ab642b10820db8f56';
const DAI_WETH = '0x0b09dea16768f0799065c475be02919503cb2a3500020000000000000000001a';
const W_POOL = `${BPT_W}000200000000000000000019`;
const S_POOL = `${BPT_S}000000000000000000000063`;
const N_POOL = `${BPT_N}000200000000000000000014`;

const POOLS: Record<string, RoutePool> = {
  [W_POOL]: { poolType: 'Weighted', address: BPT_W, tokens: [USDC, WETH] },
  // A composable stable pool: its own BPT sits among its tokens.
  [S_POOL]: { poolType: 'ComposableStable', address: BPT_S, tokens: [BPT_S, DAI, USDC].sort() },
  // A weighted pool holding another pool's BPT (a join's output then feeds a swap).
  [N_POOL]: { poolType: 'Weighted', address: BPT_N, tokens: [BPT_W, DAI].sort() },
};

type Step = [poolId: string, tokenIn: string, tokenOut: string, amount: string, out: string, action?: 'join' | 'exit'];

function info(tokenIn: string, tokenOut: string, steps: readonly Step[], returnAmount: string): SerializedSwapInfo {
  const assets: string[] = [];
  const index = (t: string) => (assets.includes(t) ? assets.indexOf(t) : assets.push(t) - 1);
  const swaps = steps.map(([poolId, a, b, amount, out, action]) => ({
    poolId,
    assetInIndex: index(a),
    assetOutIndex: index(b),
    amount,
    userData: '0x',
    returnAmount: out,
    ...(action ? { action } : {}),
  }));
  const wrapped = (t: string) => (t === ZERO ? WETH : t);
  return {
    tokenAddresses: assets,
    swaps,
    swapAmount: '0',
    swapAmountForSwaps: '0',
    returnAmount,
    returnAmountFromSwaps: returnAmount,
    returnAmountConsideringFees: returnAmount,
    tokenIn,
    tokenInForSwaps: wrapped(tokenIn),
    tokenOut,
    tokenOutFromSwaps: wrapped(tokenOut),
    marketSp: '1',
    relayerRequired: true,
  };
}

function encode(i: SerializedSwapInfo, amount: bigint, slippage = '0.01') {
  return encodeRelayerOrder({
    route: relayerRouteFromSwapInfo(i, WETH),
    pool: (id) => POOLS[id],
    amount,
    sender: SENDER,
    receiver: RECEIVER,
    slippage,
    deadline: 1_900_000_000,
    vault: VAULT,
    relayer: RELAYER,
    marketSp: i.marketSp,
  });
}

/** The multicall's library calls, decoded. */
function calls(data: string) {
  const [inner] = relayerInterface.decodeFunctionData('multicall', data) as unknown as [string[]];
  return inner.map((c) => {
    const parsed = relayerLibraryInterface.parseTransaction({ data: c })!;
    return { name: parsed.name, args: parsed.args.toArray(true) as unknown[] };
  });
}

const coder = AbiCoder.defaultAbiCoder();
const S = getAddress(SENDER);
const R = getAddress(RECEIVER);
const REL = getAddress(RELAYER);

describe('relayer routes from the /sor wire shape', () => {
  test("DAI -> WETH swap -> join: a batchSwap into the relayer's internal balance, then a join of exactly that", () => {
    const o = encode(
      info(
        DAI,
        BPT_W,
        [
          [DAI_WETH, DAI, WETH, '3000', '1000', undefined],
          [W_POOL, WETH, BPT_W, '0', '5000', 'join'],
        ],
        '5000',
      ),
      3000n,
    );
    const [swap, join] = calls(o.data);
    expect(o.to).toBe(REL);
    expect(swap!.name).toBe('batchSwap');
    const [kind, swaps, assets, funds, limits, deadline, value, refs] = swap!.args;
    expect([kind, assets, funds, limits, deadline, value]).toEqual([
      0n,
      [getAddress(DAI), getAddress(WETH)],
      [S, false, REL, true],
      [3000n, 0n],
      1_900_000_000n,
      0n,
    ]);
    expect(swaps).toEqual([[DAI_WETH, 0n, 1n, 3000n, '0x']]);
    expect(refs).toEqual([[1n, temporaryReference(1)]]);

    expect(join!.name).toBe('joinPool');
    const [poolId, poolKind, sender, recipient, request, joinValue, ref] = join!.args as [
      string,
      bigint,
      string,
      string,
      [string[], bigint[], string, boolean],
      bigint,
      bigint,
    ];
    expect([poolId, poolKind, sender, recipient, joinValue, ref]).toEqual([W_POOL, 0n, REL, R, 0n, 0n]);
    // amountsIn over the pool's tokens (USDC, WETH): the chained WETH; the min BPT is floor(5000 x 0.99).
    expect(request).toEqual([
      [getAddress(USDC), getAddress(WETH)],
      [0n, MaxUint256],
      coder.encode(['uint256', 'uint256[]', 'uint256'], [1n, [0n, temporaryReference(1)], 4950n]),
      true,
    ]);
    expect(o.minBuyAmount).toBe('4950');
    expect(o.approvals.map((a) => a.kind)).toEqual(['relayer', 'erc20']);
    expect(o.approvals[1]).toMatchObject({ token: getAddress(DAI), spender: getAddress(VAULT), amount: '3000' });
    expect(o.approvals[0]).toMatchObject({ relayer: REL, vault: getAddress(VAULT), sender: S, to: getAddress(VAULT) });
  });

  test("exit -> swap: the exit pays the relayer's internal balance, the swap pays the receiver with the limit", () => {
    const o = encode(
      info(
        BPT_W,
        DAI,
        [
          [W_POOL, BPT_W, WETH, '700', '1000', 'exit'],
          [DAI_WETH, WETH, DAI, '0', '2999', undefined],
        ],
        '2999',
      ),
      700n,
      '0',
    );
    const [exit, swap] = calls(o.data);
    const [, , sender, recipient, request, refs] = exit!.args as [
      string,
      bigint,
      string,
      string,
      [string[], bigint[], string, boolean],
      unknown[],
    ];
    expect([sender, recipient]).toEqual([S, REL]);
    expect(request).toEqual([
      [getAddress(USDC), getAddress(WETH)],
      [0n, 0n],
      coder.encode(['uint256', 'uint256', 'uint256'], [0n, 700n, 1n]),
      true,
    ]);
    expect(refs).toEqual([[1n, temporaryReference(1)]]);
    const [, swaps, , funds, limits] = swap!.args;
    expect(swaps).toEqual([[DAI_WETH, 0n, 1n, temporaryReference(1), '0x']]);
    expect(funds).toEqual([REL, true, R, false]);
    expect(limits).toEqual([INT256_MAX, -2999n]);
    // Burning BPT needs no allowance: the relayer approval alone.
    expect(o.approvals.map((a) => a.kind)).toEqual(['relayer']);
  });

  test('composable stable pools count userData amounts and indexes without their own BPT', () => {
    const join = calls(
      encode(info(USDC, BPT_S, [[S_POOL, USDC, BPT_S, '100', '99', 'join']], '99'), 100n, '0').data,
    )[0]!;
    const tokens = [BPT_S, DAI, USDC].sort();
    const [, , , , request] = join.args as [string, bigint, string, string, [string[], bigint[], string, boolean]];
    expect(request[0]).toEqual(tokens.map((t) => getAddress(t)));
    expect(request[1]).toEqual(tokens.map((t) => (t === USDC ? 100n : 0n)));
    const counted = tokens.filter((t) => t !== BPT_S);
    expect(request[2]).toBe(
      coder.encode(['uint256', 'uint256[]', 'uint256'], [1n, counted.map((t) => (t === USDC ? 100n : 0n)), 99n]),
    );
    const exit = calls(encode(info(BPT_S, DAI, [[S_POOL, BPT_S, DAI, '99', '98', 'exit']], '98'), 99n, '0').data)[0]!;
    const [, , , , exitRequest] = exit.args as [string, bigint, string, string, [string[], bigint[], string, boolean]];
    expect(exitRequest[1]).toEqual(tokens.map((t) => (t === DAI ? 98n : 0n)));
    expect(exitRequest[2]).toBe(
      coder.encode(['uint256', 'uint256', 'uint256'], [0n, 99n, BigInt(counted.indexOf(DAI))]),
    );
  });

  test('a route without swaps gets an empty batchSwap that only checks the deadline', () => {
    const c = calls(encode(info(BPT_W, USDC, [[W_POOL, BPT_W, USDC, '10', '20', 'exit']], '20'), 10n).data);
    expect(c.map((x) => x.name)).toEqual(['exitPool', 'batchSwap']);
    expect(c[1]!.args).toEqual([0n, [], [], [REL, false, REL, false], [], 1_900_000_000n, 0n, []]);
  });

  test('exit -> exit: the first pays the relayer the ERC-20 the second burns (no internal balance)', () => {
    const c = calls(
      encode(
        info(
          BPT_N,
          USDC,
          [
            [N_POOL, BPT_N, BPT_W, '10', '20', 'exit'],
            [W_POOL, BPT_W, USDC, '0', '30', 'exit'],
          ],
          '30',
        ),
        10n,
      ).data,
    );
    expect((c[0]!.args[4] as unknown[])[3]).toBe(false);
    expect(c[1]!.args.slice(2, 4)).toEqual([REL, R]);
  });

  test('join -> swap of the BPT: the relayer approves the Vault for exactly the joined amount, read-only', () => {
    const c = calls(
      encode(
        info(
          USDC,
          DAI,
          [
            [W_POOL, USDC, BPT_W, '100', '50', 'join'],
            [N_POOL, BPT_W, DAI, '0', '70', undefined],
          ],
          '70',
        ),
        100n,
      ).data,
    );
    expect(c.map((x) => x.name)).toEqual(['joinPool', 'approveVault', 'batchSwap']);
    expect(c[0]!.args[6]).toBe(temporaryReference(1));
    expect(c[1]!.args).toEqual([getAddress(BPT_W), readOnlyReference(1)]);
    const funds = c[2]!.args[3];
    expect(funds).toEqual([REL, false, R, false]);
  });

  test('native ETH in: the zero address in the first call, value the amount; native out: the zero address in the last', () => {
    const ethIn = encode(info(ZERO, BPT_W, [[W_POOL, ZERO, BPT_W, '5', '6', 'join']], '6'), 5n);
    expect(ethIn.value).toBe('5');
    expect(ethIn.approvals.map((a) => a.kind)).toEqual(['relayer']);
    const [join] = calls(ethIn.data);
    expect((join!.args[4] as unknown[])[0]).toEqual([getAddress(USDC), ZERO]);
    expect(join!.args[5]).toBe(5n);
    const ethOut = encode(
      info(
        DAI,
        ZERO,
        [
          [DAI_WETH, DAI, WETH, '9', '8', undefined],
          [W_POOL, WETH, BPT_W, '0', '7', 'join'],
          [W_POOL, BPT_W, ZERO, '0', '6', 'exit'],
        ],
        '6',
      ),
      9n,
    );
    const last = calls(ethOut.data).at(-1)!;
    expect((last.args[4] as unknown[])[0]).toEqual([getAddress(USDC), ZERO]);
    expect(ethOut.value).toBe('0');
  });

  test('split routes: each path is its own chain and carries its own minimum; the minimums add up', () => {
    const o = encode(
      info(
        DAI,
        BPT_W,
        [
          [DAI_WETH, DAI, WETH, '600', '200', undefined],
          [W_POOL, WETH, BPT_W, '0', '1000', 'join'],
          [S_POOL, DAI, USDC, '400', '399', undefined],
          [W_POOL, USDC, BPT_W, '0', '701', 'join'],
        ],
        '1701',
      ),
      1000n,
      '0.01',
    );
    const c = calls(o.data);
    expect(c.map((x) => x.name)).toEqual(['batchSwap', 'joinPool', 'batchSwap', 'joinPool']);
    expect(c[2]!.args[7]).toEqual([[1n, temporaryReference(2)]]);
    expect(o.minBuyAmount).toBe(String(990 + 693));
    expect(o.approvals[1]).toMatchObject({ amount: '1000' });
  });

  test('malformed routes are refused, naming the problem', () => {
    expect(() =>
      relayerRouteFromSwapInfo(
        info(
          DAI,
          BPT_W,
          [
            [DAI_WETH, DAI, WETH, '3', '1', undefined],
            [W_POOL, USDC, BPT_W, '0', '5', 'join'],
          ],
          '5',
        ),
        WETH,
      ),
    ).toThrow(/does not take the previous step's output/);
    expect(() =>
      relayerRouteFromSwapInfo(info(DAI, BPT_W, [[W_POOL, WETH, BPT_W, '3', '5', 'join']], '5'), WETH),
    ).toThrow(/not from the sell token/);
    expect(() =>
      relayerRouteFromSwapInfo(info(DAI, WETH, [[DAI_WETH, DAI, WETH, '3', '5', undefined]], '6'), WETH),
    ).toThrow(/pay 5 in all, but returnAmount is 6/);
    expect(() =>
      relayerRouteFromSwapInfo(
        {
          ...info(DAI, WETH, [[DAI_WETH, DAI, WETH, '3', '5', undefined]], '5'),
          swaps: [{ poolId: DAI_WETH, assetInIndex: 0, assetOutIndex: 1, amount: '3', userData: '0x' }],
        },
        WETH,
      ),
    ).toThrow(RelayerRouteError);
    expect(() => encode(info(DAI, BPT_W, [[DAI_WETH, DAI, BPT_W, '3', '5', 'join']], '5'), 3n)).toThrow(
      /not known on this chain/,
    );
    expect(() => encode(info(DAI, BPT_N, [[W_POOL, DAI, BPT_N, '3', '5', 'join']], '5'), 3n)).toThrow(
      /must give its BPT/,
    );
    expect(() => encode(info(DAI, BPT_W, [[W_POOL, DAI, BPT_W, '3', '5', 'join']], '5'), 3n)).toThrow(
      /which the pool does not hold/,
    );
    expect(() => encode(info(DAI, BPT_W, [[DAI_WETH, DAI, WETH, '3', '5', undefined]], '5'), 4n)).toThrow(
      /ends at|take 3 in all/,
    );
  });
});
