import type { SubgraphPoolBase } from '@balancer-labs/sor';
import { exactReturnAmount, simulateBatchSwap } from '../../src/domain/vaultMath/batchSwap';
import { divUp, mulUp, ONE, powUp } from '../../src/domain/swap/math/fixedPoint';
import { exp, pow } from '../../src/domain/swap/math/logExpMath';
import type { ReplayPool } from '../../src/domain/vaultMath/poolSwap';

/**
 * The pure Vault math. Exactness against the real contracts is what the end-to-end suite checks
 * (every route replayed = Vault.queryBatchSwap); these tests pin the rules around it.
 */
const WETH = '0x00000000000000000000000000000000000000e1';
const USDC = '0x00000000000000000000000000000000000000c6';
const DAI = '0x00000000000000000000000000000000000000d1';
const pool = (id: string, tokens: [string, string, number, string][], fee = '0.003', version = 2): ReplayPool => ({
  id, address: `0x${id.slice(2, 42)}`, poolType: 'Weighted', poolTypeVersion: version, swapFee: fee,
  tokens: tokens.map(([address, balance, decimals, weight]) => ({ address, balance, decimals, weight, priceRate: '1' })),
});
const P1 = `0x${'11'.repeat(32)}`;
const P2 = `0x${'22'.repeat(32)}`;
const pools = new Map<string, ReplayPool>([
  [P1, pool(P1, [[WETH, '100', 18, '0.5'], [USDC, '300000', 6, '0.5']])],
  [P2, pool(P2, [[USDC, '500000', 6, '0.8'], [DAI, '125000', 18, '0.2']], '0.001')],
]);

describe('LogExpMath and FixedPoint', () => {
  test('pow agrees with x^y to within its documented error', () => {
    const close = (got: bigint, want: number) => expect(Math.abs(Number(got) / 1e18 - want) / want).toBeLessThan(1e-14);
    close(pow(2n * ONE, ONE / 2n), Math.SQRT2);
    close(pow(ONE / 4n, 3n * ONE), 1 / 64);
    close(exp(ONE), Math.E);
    expect(pow(5n * ONE, 0n)).toBe(ONE);
  });

  test('powUp takes the exact shortcuts of the 2022+ pools and the error bound of the first ones', () => {
    const x = 1_234_567_890_123_456_789n;
    expect(powUp(x, ONE, true)).toBe(x);
    expect(powUp(x, 2n * ONE, true)).toBe(mulUp(x, x));
    expect(powUp(x, 4n * ONE, true)).toBe(mulUp(mulUp(x, x), mulUp(x, x)));
    expect(powUp(x, ONE, false)).toBeGreaterThan(x);
  });

  test('rounding up never lands below the exact quotient', () => {
    expect(divUp(1n, 3n)).toBe(333_333_333_333_333_334n);
    expect(mulUp(1n, 1n)).toBe(1n);
  });
});

describe('simulateBatchSwap', () => {
  test('a zero amount continues with the previous swap\'s result (multihop), and deltas balance', () => {
    const r = simulateBatchSwap('sell', [
      { poolId: P1, assetInIndex: 0, assetOutIndex: 1, amount: String(ONE) },
      { poolId: P2, assetInIndex: 1, assetOutIndex: 2, amount: '0' },
    ], [WETH, USDC, DAI], pools, WETH);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.deltas[0]).toBe(ONE);
    expect(r.deltas[1]).toBe(0n);
    expect(r.deltas[2]! < 0n).toBe(true);
  });

  test('swaps through the same pool see the balances the previous swap left', () => {
    const half = { poolId: P1, assetInIndex: 0, assetOutIndex: 1, amount: String(ONE / 2n) };
    const twice = simulateBatchSwap('sell', [half, half], [WETH, USDC], pools, WETH);
    const once = simulateBatchSwap('sell', [half], [WETH, USDC], pools, WETH);
    if (!twice.ok || !once.ok) throw new Error('simulation failed');
    expect(-twice.deltas[1]!).toBeLessThan(-2n * once.deltas[1]!);
  });

  test('the native-asset marker trades the wrapped token', () => {
    const native = simulateBatchSwap('buy', [{ poolId: P1, assetInIndex: 0, assetOutIndex: 1, amount: '1000000000' }], ['0x0000000000000000000000000000000000000000', USDC], pools, WETH);
    const wrapped = simulateBatchSwap('buy', [{ poolId: P1, assetInIndex: 0, assetOutIndex: 1, amount: '1000000000' }], [WETH, USDC], pools, WETH);
    expect(native).toEqual(wrapped);
  });

  test('refuses what the Vault refuses or what it cannot reproduce, with the reason', () => {
    const first0 = simulateBatchSwap('sell', [{ poolId: P1, assetInIndex: 0, assetOutIndex: 1, amount: '0' }], [WETH, USDC], pools, WETH);
    expect(first0).toEqual({ ok: false, reason: expect.stringMatching(/zero amount/) });
    const tooBig = simulateBatchSwap('sell', [{ poolId: P1, assetInIndex: 0, assetOutIndex: 1, amount: String(40n * ONE) }], [WETH, USDC], pools, WETH);
    expect(tooBig).toEqual({ ok: false, reason: expect.stringMatching(/BAL#304/) });
    const linear = new Map([[P1, { ...pools.get(P1)!, poolType: 'AaveLinear' }]]);
    expect(exactReturnAmount('sell', { swaps: [{ poolId: P1, assetInIndex: 0, assetOutIndex: 1, amount: '1' }], tokenAddresses: [WETH, USDC], tokenIn: WETH, tokenOut: USDC }, linear, WETH))
      .toEqual({ amount: undefined, reason: expect.stringMatching(/AaveLinear/) });
  });

  test('takes the SOR pool shape as it is', () => {
    const p1 = pools.get(P1)!;
    const sorPool: SubgraphPoolBase = {
      id: p1.id, address: p1.address, poolType: 'Weighted', poolTypeVersion: 2, swapFee: p1.swapFee, swapEnabled: true, totalShares: '1',
      tokensList: [WETH, USDC], tokens: p1.tokens.map((t) => ({ address: t.address, balance: t.balance, decimals: t.decimals, weight: t.weight ?? null, priceRate: '1' })),
    };
    const fromSor = new Map<string, ReplayPool>([[P1, sorPool]]);
    const route = { swaps: [{ poolId: P1, assetInIndex: 0, assetOutIndex: 1, amount: String(ONE) }], tokenAddresses: [WETH, USDC], tokenIn: WETH, tokenOut: USDC };
    expect(exactReturnAmount('sell', route, fromSor, WETH)).toEqual(exactReturnAmount('sell', route, pools, WETH));
  });
});
