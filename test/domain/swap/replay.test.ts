import { buildModels } from '../../../src/domain/swap/models';
import { divUp, mulUp, ONE, powUp } from '../../../src/domain/swap/math/fixedPoint';
import { exp, pow } from '../../../src/domain/swap/math/logExpMath';
import type { PoolSpec } from '../../../src/domain/swap/poolModel';
import { replayBatchSwap } from '../../../src/domain/swap/replay';

/**
 * The pure Vault math. Exactness against the real contracts is what the end-to-end suite checks
 * (every route replayed = Vault.queryBatchSwap); these tests pin the Vault's batch rules around it.
 */
const WETH = '0x00000000000000000000000000000000000000e1';
const USDC = '0x00000000000000000000000000000000000000c6';
const DAI = '0x00000000000000000000000000000000000000d1';
const pool = (id: string, tokens: [string, string, number, string][], fee = '0.003', version = 2): PoolSpec => ({
  id,
  address: `0x${id.slice(2, 42)}`,
  poolType: 'Weighted',
  poolTypeVersion: version,
  swapFee: fee,
  totalShares: '1000',
  tokens: tokens.map(([address, balance, decimals, weight]) => ({
    address,
    balance,
    decimals,
    weight,
    priceRate: '1',
  })),
});
const P1 = `0x${'11'.repeat(32)}`;
const P2 = `0x${'22'.repeat(32)}`;
const built = buildModels(
  [
    pool(P1, [
      [WETH, '100', 18, '0.5'],
      [USDC, '300000', 6, '0.5'],
    ]),
    pool(
      P2,
      [
        [USDC, '500000', 6, '0.8'],
        [DAI, '125000', 18, '0.2'],
      ],
      '0.001',
    ),
  ],
  { timestamp: 0 },
);
const models = new Map(built.models.map((m) => [m.id, m]));
const modelOf = (id: string) => models.get(id);
const step = (poolId: string, assetInIndex: number, assetOutIndex: number, amount: bigint) => ({
  poolId,
  assetInIndex,
  assetOutIndex,
  amount,
});

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

describe('replayBatchSwap', () => {
  test("a zero amount continues with the previous swap's result (multihop), and deltas balance", () => {
    const r = replayBatchSwap('sell', [step(P1, 0, 1, ONE), step(P2, 1, 2, 0n)], [WETH, USDC, DAI], modelOf);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.deltas[0]).toBe(ONE);
    expect(r.deltas[1]).toBe(0n);
    expect(r.deltas[2]! < 0n).toBe(true);
  });

  test('swaps through the same pool see the balances the previous swap left', () => {
    const half = step(P1, 0, 1, ONE / 2n);
    const twice = replayBatchSwap('sell', [half, half], [WETH, USDC], modelOf);
    const once = replayBatchSwap('sell', [half], [WETH, USDC], modelOf);
    if (!twice.ok || !once.ok) throw new Error('replay failed');
    expect(-twice.deltas[1]!).toBeLessThan(-2n * once.deltas[1]!);
  });

  test("a buy runs backward: the last hop first, each zero step paying the next one's amount in", () => {
    const r = replayBatchSwap('buy', [step(P2, 1, 2, ONE), step(P1, 0, 1, 0n)], [WETH, USDC, DAI], modelOf);
    if (!r.ok) throw new Error(r.reason);
    expect(r.deltas[2]).toBe(-ONE);
    expect(r.deltas[1]).toBe(0n);
    expect(r.deltas[0]! > 0n).toBe(true);
  });

  test('refuses what the Vault refuses or what it cannot reproduce, with the reason', () => {
    expect(replayBatchSwap('sell', [step(P1, 0, 1, 0n)], [WETH, USDC], modelOf)).toEqual({
      ok: false,
      reason: expect.stringMatching(/zero amount/),
    });
    expect(replayBatchSwap('sell', [step(P1, 0, 1, 40n * ONE)], [WETH, USDC], modelOf)).toEqual({
      ok: false,
      reason: expect.stringMatching(/BAL#304/),
    });
    expect(replayBatchSwap('sell', [step(P1, 0, 2, ONE)], [WETH, USDC, DAI], modelOf)).toEqual({
      ok: false,
      reason: expect.stringMatching(/does not swap/),
    });
    expect(replayBatchSwap('sell', [step(`0x${'33'.repeat(32)}`, 0, 1, ONE)], [WETH, USDC], modelOf)).toEqual({
      ok: false,
      reason: expect.stringMatching(/not routable/),
    });
  });

  test('pool types without a model are named, not guessed', () => {
    const { models: none, skipped } = buildModels(
      [
        {
          ...pool(P1, [
            [WETH, '1', 18, '0.5'],
            [USDC, '1', 6, '0.5'],
          ]),
          poolType: 'SomeNewPool',
        },
      ],
      { timestamp: 0 },
    );
    expect(none).toHaveLength(0);
    expect(skipped).toEqual([{ id: P1, reason: expect.stringMatching(/SomeNewPool/) }]);
  });
});
