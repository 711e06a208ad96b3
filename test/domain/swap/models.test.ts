import { buildModels } from '../../../src/domain/swap/models';
import { isRevert, Revert, type PoolSpec } from '../../../src/domain/swap/poolModel';

/**
 * What callers see of a pool's refusals: a revert names its BAL code as a field, and building the
 * models tells a pool the store describes badly (skipped, with the reason) from a model that
 * breaks on it (failed: a bug, which the routing layer logs as one).
 */
const WETH = '0x00000000000000000000000000000000000000e1';
const USDC = '0x00000000000000000000000000000000000000c6';
const P1 = `0x${'11'.repeat(32)}`;
const P2 = `0x${'22'.repeat(32)}`;
const P3 = `0x${'33'.repeat(32)}`;
const weighted = (id: string, over: Partial<PoolSpec> = {}): PoolSpec => ({
  id,
  address: `0x${id.slice(2, 42)}`,
  poolType: 'Weighted',
  poolTypeVersion: 2,
  swapFee: '0.003',
  totalShares: '1000',
  tokens: [
    { address: WETH, balance: '100', decimals: 18, weight: '0.5', priceRate: '1' },
    { address: USDC, balance: '300000', decimals: 6, weight: '0.5', priceRate: '1' },
  ],
  ...over,
});

describe('pool reverts', () => {
  const [model] = buildModels([weighted(P1)], { timestamp: 0 }).models;
  const thrown = (f: () => unknown): unknown => {
    try {
      f();
    } catch (e) {
      return e;
    }
    throw new Error('expected a revert');
  };

  test('carry the contract code as a field and a name, and no stack trace', () => {
    const e = thrown(() => model!.swap(model!.initialState(), 'givenIn', 0, 1, 31n * 10n ** 18n));
    expect(e).toBeInstanceOf(Revert);
    expect(e).toMatchObject({
      name: 'Revert',
      code: 'BAL#304',
      message: 'amount in above 30% of the balance (BAL#304)',
    });
    expect((e as Error).stack?.split('\n')).toHaveLength(1);
    expect(isRevert(e)).toBe(true);
  });

  test('a refusal without a contract code has none', () => {
    const e = thrown(() => model!.swap(model!.initialState(), 'givenIn', 0, 0, 1n));
    expect(e).toMatchObject({ name: 'Revert', code: undefined });
  });

  test('an error that is not the contract reverting is not taken for one', () => {
    expect(isRevert(new TypeError('x'))).toBe(false);
    expect(isRevert(new Revert('x', { code: 'GYR#121' }))).toBe(true);
    expect(new Revert('x', { code: 'GYR#121' }).code).toBe('GYR#121');
  });
});

describe('buildModels', () => {
  test('skips pools the store describes badly, with the reason, and lists a model that breaks as failed', () => {
    const broken = weighted(P3, { tokens: undefined as unknown as PoolSpec['tokens'] });
    const built = buildModels(
      [weighted(P1), weighted(P2, { swapFee: 'three' }), broken, weighted(P1, { poolTypeVersion: 9 })],
      { timestamp: 0 },
    );
    expect(built.models.map((m) => m.id)).toEqual([P1]);
    expect(built.skipped).toEqual([
      { id: P2, reason: expect.stringMatching(/not a decimal number/) },
      { id: P1, reason: 'Weighted v9 is not carried' },
    ]);
    expect(built.failed).toEqual([{ id: P3, error: expect.any(TypeError) }]);
  });
});
