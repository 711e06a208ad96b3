import Big from 'big.js';
import { normalizePool } from '../../src/domain/normalizePool';
import type { PoolCore, StoredPool } from '../../src/domain/pool';
import { FilterError, compilePoolFilter, type PoolsWhere } from '../../src/graphql/poolFilter';
import { PoolIndex } from '../../src/graphql/poolIndex';
import { describeWithSnapshot, loadSnapshotPools, MAINNET } from '../helpers/snapshot';
import type { RawPool } from './fixtures';

/**
 * Every operator of every filter kind against the real snapshot; each expectation is derived from
 * the raw subgraph data with plain JavaScript (and big.js for numbers), not with our filter code.
 */

function storedPools(raw: readonly unknown[]): StoredPool[] {
  return raw.map((r) => {
    const n = normalizePool(r);
    if (!n.ok) throw new Error(n.error);
    return n.pool;
  });
}

function matchIds(index: PoolIndex, where: PoolsWhere): string[] {
  const test = compilePoolFilter(where, index);
  const ids: string[] = [];
  for (let i = 0; i < index.size; i++) if (test(i)) ids.push(index.view(i).id);
  return ids.sort();
}

function idsOf<T extends { id: string }>(pools: readonly T[], keep: (p: T) => boolean): string[] {
  return pools
    .filter(keep)
    .map((p) => p.id.toLowerCase())
    .sort();
}

const num = (v: unknown) => new Big(String(v));

describeWithSnapshot('pool filter operators over the mainnet snapshot', () => {
  const raw = loadSnapshotPools() as RawPool[];
  // Decorate every fourth pool so optional fields (maxApr, isNew) have both values and absences.
  const stored: StoredPool[] = storedPools(raw).map((p, i) =>
    i % 4 === 0 ? { ...p, maxApr: (i % 9) / 10, isNew: i % 8 === 0 } : p,
  );
  const index = new PoolIndex(1, stored);
  const decorated = new Map(stored.map((p) => [p.id, p]));
  const maxApr = (p: RawPool) => decorated.get(p.id.toLowerCase())!.maxApr;
  const isNew = (p: RawPool) => decorated.get(p.id.toLowerCase())!.isNew;
  const check = (where: PoolsWhere, keep: (p: RawPool) => boolean) => {
    const expected = idsOf(raw, keep);
    expect(matchIds(index, where)).toEqual(expected);
    return expected.length;
  };

  describe('ID filters (ids and addresses, case-insensitive)', () => {
    const sortedIds = raw.map((p) => p.id.toLowerCase()).sort();
    const pivot = sortedIds[150]!;
    const upper = (s: string) => '0x' + s.slice(2).toUpperCase();
    const lo = (p: RawPool) => p.id.toLowerCase();

    it('eq / ne', () => {
      expect(check({ id: { eq: upper(pivot) } }, (p) => lo(p) === pivot)).toBe(1);
      expect(
        check(
          { address: { eq: upper(raw[3]!.address) } },
          (p) => p.address.toLowerCase() === raw[3]!.address.toLowerCase(),
        ),
      ).toBe(1);
      expect(check({ id: { ne: upper(pivot) } }, (p) => lo(p) !== pivot)).toBe(raw.length - 1);
    });
    it('lt / le / gt / ge / between', () => {
      expect(check({ id: { lt: upper(pivot) } }, (p) => lo(p) < pivot)).toBe(150);
      expect(check({ id: { le: pivot } }, (p) => lo(p) <= pivot)).toBe(151);
      expect(check({ id: { gt: pivot } }, (p) => lo(p) > pivot)).toBe(raw.length - 151);
      expect(check({ id: { ge: pivot } }, (p) => lo(p) >= pivot)).toBe(raw.length - 150);
      const hi = sortedIds[200]!;
      expect(check({ id: { between: [upper(pivot), hi] } }, (p) => lo(p) >= pivot && lo(p) <= hi)).toBe(51);
    });
    it('contains / notContains / beginsWith', () => {
      // Pool ids embed the specialization: 0002 = two-token, 0001 = minimal swap info, 0000 = general.
      const n = check({ id: { contains: '0002000000000000' } }, (p) => lo(p).includes('0002000000000000'));
      expect(n).toBeGreaterThan(0);
      expect(check({ id: { notContains: '0002000000000000' } }, (p) => !lo(p).includes('0002000000000000'))).toBe(
        raw.length - n,
      );
      expect(
        check({ address: { beginsWith: '0X5C' } }, (p) => p.address.toLowerCase().startsWith('0x5c')),
      ).toBeGreaterThan(0);
    });
    it('in / not_in', () => {
      const some = [upper(sortedIds[0]!), sortedIds[7]!, `0x${'00'.repeat(32)}`];
      expect(check({ id: { in: some } }, (p) => [sortedIds[0], sortedIds[7]].includes(lo(p)))).toBe(2);
      expect(check({ id: { not_in: some } }, (p) => ![sortedIds[0], sortedIds[7]].includes(lo(p)))).toBe(
        raw.length - 2,
      );
    });
  });

  describe('String filters (case-sensitive)', () => {
    it('eq / ne, and letter case matters', () => {
      expect(check({ poolType: { eq: 'Weighted' } }, (p) => p.poolType === 'Weighted')).toBe(227);
      expect(check({ poolType: { eq: 'weighted' } }, () => false)).toBe(0);
      expect(check({ poolType: { ne: 'Weighted' } }, (p) => p.poolType !== 'Weighted')).toBe(raw.length - 227);
    });
    it('lt / le / gt / ge / between (code-unit order)', () => {
      check({ poolType: { lt: 'LiquidityBootstrapping' } }, (p) => p.poolType < 'LiquidityBootstrapping');
      check({ poolType: { le: 'LiquidityBootstrapping' } }, (p) => p.poolType <= 'LiquidityBootstrapping');
      check({ poolType: { gt: 'Stable' } }, (p) => p.poolType > 'Stable');
      check({ poolType: { ge: 'Stable' } }, (p) => p.poolType >= 'Stable');
      expect(
        check(
          { poolType: { between: ['Element', 'MetaStable'] } },
          (p) => p.poolType >= 'Element' && p.poolType <= 'MetaStable',
        ),
      ).toBe(27 + 3 + 98 + 2);
    });
    it('contains / notContains / beginsWith', () => {
      expect(check({ poolType: { contains: 'Linear' } }, (p) => p.poolType.includes('Linear'))).toBe(9);
      expect(check({ poolType: { notContains: 'Linear' } }, (p) => !p.poolType.includes('Linear'))).toBe(
        raw.length - 9,
      );
      expect(check({ poolType: { beginsWith: 'Stable' } }, (p) => p.poolType.startsWith('Stable'))).toBe(6);
    });
    it('in / not_in', () => {
      expect(
        check({ poolType: { in: ['Weighted', 'Stable'] } }, (p) => ['Weighted', 'Stable'].includes(p.poolType)),
      ).toBe(230);
      expect(
        check({ poolType: { not_in: ['Weighted', 'Stable'] } }, (p) => !['Weighted', 'Stable'].includes(p.poolType)),
      ).toBe(raw.length - 230);
    });
  });

  describe('Float filters on decimal-string fields (numeric, exact)', () => {
    it('eq / ne compare values, not text', () => {
      // 0.003 is stored as "0.003"; a pool with "0.0030" would match as well.
      expect(check({ swapFee: { eq: 0.003 } }, (p) => num(p.swapFee).eq('0.003'))).toBe(73);
      expect(check({ swapFee: { ne: 0.003 } }, (p) => !num(p.swapFee).eq('0.003'))).toBe(raw.length - 73);
    });
    it('lt / le / gt / ge / between', () => {
      check({ swapFee: { lt: 0.0025 } }, (p) => num(p.swapFee).lt('0.0025'));
      check({ swapFee: { le: 0.0025 } }, (p) => num(p.swapFee).lte('0.0025'));
      check({ totalShares: { gt: 1000 } }, (p) => num(p.totalShares).gt(1000));
      check({ totalShares: { ge: 0 } }, () => true);
      check(
        { swapFee: { between: [0.0015, 0.0025] } },
        (p) => num(p.swapFee).gte('0.0015') && num(p.swapFee).lte('0.0025'),
      );
      // The snapshot has a fee of 0.001499999999999999: just below the bound, so not in range.
      const justBelow = raw.find((p) => p.swapFee === '0.001499999999999999')!;
      expect(matchIds(index, { swapFee: { between: [0.0015, 0.0025] } })).not.toContain(justBelow.id.toLowerCase());
      expect(matchIds(index, { swapFee: { lt: 0.0015 } })).toContain(justBelow.id.toLowerCase());
    });
    it('contains / notContains / beginsWith look at the decimal text', () => {
      check({ swapFee: { contains: 0.0025 } }, (p) => p.swapFee.includes('0.0025'));
      check({ swapFee: { notContains: 0.0025 } }, (p) => !p.swapFee.includes('0.0025'));
      check({ swapFee: { beginsWith: 0.01 } }, (p) => p.swapFee.startsWith('0.01'));
    });
  });

  describe('Int filters', () => {
    const mainIndex = (p: RawPool) => (p.mainIndex == null ? null : Number(p.mainIndex));
    const isLinear = (p: RawPool) => p.poolType.includes('Linear');
    // Only linear pools mean something by mainIndex; the snapshot carries 0 on the others.
    it('eq / ne / lt / le / gt / ge / between', () => {
      expect(check({ mainIndex: { eq: 1 } }, (p) => mainIndex(p) === 1)).toBe(5);
      check({ mainIndex: { ne: 1 } }, (p) => mainIndex(p) !== 1);
      check({ mainIndex: { lt: 1 } }, (p) => mainIndex(p) !== null && mainIndex(p)! < 1);
      check({ mainIndex: { le: 0 } }, (p) => mainIndex(p) !== null && mainIndex(p)! <= 0);
      check({ wrappedIndex: { gt: 1 } }, (p) => p.wrappedIndex != null && Number(p.wrappedIndex) > 1);
      check({ wrappedIndex: { ge: 1 } }, (p) => p.wrappedIndex != null && Number(p.wrappedIndex) >= 1);
      check(
        { wrappedIndex: { between: [1, 2] } },
        (p) => p.wrappedIndex != null && Number(p.wrappedIndex) >= 1 && Number(p.wrappedIndex) <= 2,
      );
      expect(raw.filter(isLinear).length).toBe(9);
    });
    it('contains / notContains / beginsWith on the digits', () => {
      check({ wrappedIndex: { contains: 2 } }, (p) => p.wrappedIndex != null && String(p.wrappedIndex).includes('2'));
      check(
        { wrappedIndex: { notContains: 2 } },
        (p) => p.wrappedIndex == null || !String(p.wrappedIndex).includes('2'),
      );
      check(
        { wrappedIndex: { beginsWith: 1 } },
        (p) => p.wrappedIndex != null && String(p.wrappedIndex).startsWith('1'),
      );
    });
  });

  describe('Float filters on number fields, and absent values', () => {
    it('eq / ne / lt / le / gt / ge / between on maxApr; pools without it match only negations', () => {
      const apr = (p: RawPool) => maxApr(p);
      check({ maxApr: { eq: 0.4 } }, (p) => apr(p) === 0.4);
      check({ maxApr: { ne: 0.4 } }, (p) => apr(p) !== 0.4);
      check({ maxApr: { lt: 0.4 } }, (p) => apr(p) !== undefined && apr(p)! < 0.4);
      check({ maxApr: { le: 0.4 } }, (p) => apr(p) !== undefined && apr(p)! <= 0.4);
      check({ maxApr: { gt: 0.4 } }, (p) => apr(p) !== undefined && apr(p)! > 0.4);
      check({ maxApr: { ge: 0 } }, (p) => apr(p) !== undefined);
      check({ maxApr: { between: [0.2, 0.5] } }, (p) => apr(p) !== undefined && apr(p)! >= 0.2 && apr(p)! <= 0.5);
      check({ maxApr: { contains: 0.3 } }, (p) => apr(p) !== undefined && String(apr(p)).includes('0.3'));
      check({ maxApr: { notContains: 0.3 } }, (p) => apr(p) === undefined || !String(apr(p)).includes('0.3'));
      check({ maxApr: { beginsWith: 0.1 } }, (p) => apr(p) !== undefined && String(apr(p)).startsWith('0.1'));
      check({ expiryTime: { gt: 1650000000 } }, (p) => p.expiryTime != null && Number(p.expiryTime) > 1650000000);
      // Above 2^31: Float, not Int.
      check({ unitSeconds: { gt: 2147483647 } }, (p) => p.unitSeconds != null && Number(p.unitSeconds) > 2147483647);
    });
  });

  describe('Boolean filters', () => {
    it('eq / ne, absent counts as not equal', () => {
      expect(check({ swapEnabled: { eq: true } }, () => true)).toBe(raw.length);
      expect(check({ swapEnabled: { ne: true } }, () => false)).toBe(0);
      check({ isNew: { eq: true } }, (p) => isNew(p) === true);
      check({ isNew: { ne: true } }, (p) => isNew(p) !== true);
    });
  });

  describe('tokensList (list of addresses)', () => {
    const has = (p: RawPool, a: string) => p.tokensList.map((x) => x.toLowerCase()).includes(a);
    it('contains: every listed address present, any letter case', () => {
      expect(
        check({ tokensList: { contains: [MAINNET.WETH.toUpperCase().replace('0X', '0x')] } }, (p) =>
          has(p, MAINNET.WETH),
        ),
      ).toBeGreaterThan(100);
      expect(
        check(
          { tokensList: { contains: [MAINNET.WETH, MAINNET.DAI] } },
          (p) => has(p, MAINNET.WETH) && has(p, MAINNET.DAI),
        ),
      ).toBeGreaterThan(0);
    });
    it('notContains: none of the listed addresses present', () => {
      check(
        { tokensList: { notContains: [MAINNET.WETH, MAINNET.DAI] } },
        (p) => !has(p, MAINNET.WETH) && !has(p, MAINNET.DAI),
      );
    });
  });

  it('combines operators of one field and several fields with AND', () => {
    check(
      {
        swapFee: { gt: 0.001, lt: 0.01 },
        poolType: { ne: 'LiquidityBootstrapping' },
        tokensList: { contains: [MAINNET.WETH] },
      },
      (p) =>
        num(p.swapFee).gt('0.001') &&
        num(p.swapFee).lt('0.01') &&
        p.poolType !== 'LiquidityBootstrapping' &&
        p.tokensList.includes(MAINNET.WETH),
    );
    expect(matchIds(index, {})).toHaveLength(raw.length);
  });
});

describe('pool filter edge cases', () => {
  const base = storedPools(loadSnapshotPoolsOrSynthetic().slice(0, 1))[0]! as PoolCore;
  const pool = (id: string, totalShares: string): StoredPool => ({ ...base, id, totalShares });
  const index = new PoolIndex(1, [
    pool('0x01', '0.1'),
    pool('0x02', '0.10000000000000000001'),
    pool('0x03', '123456789012345678901234567890.5'),
    pool('0x04', '123456789012345678901234567890'),
  ]);

  it('compares decimal strings exactly where doubles cannot tell them apart', () => {
    expect(matchIds(index, { totalShares: { gt: 0.1 } })).toEqual(['0x02', '0x03', '0x04']);
    expect(matchIds(index, { totalShares: { eq: 0.1 } })).toEqual(['0x01']);
    expect(matchIds(index, { totalShares: { le: 0.1 } })).toEqual(['0x01']);
    // 1.2345678901234568e29 is the double nearest both big values; exactly, it lies above them.
    expect(matchIds(index, { totalShares: { lt: 1.2345678901234568e29 } }).sort()).toEqual([
      '0x01',
      '0x02',
      '0x03',
      '0x04',
    ]);
  });

  it('rejects a between without exactly two values, naming the field', () => {
    expect(() => compilePoolFilter({ totalShares: { between: [1] } }, index)).toThrow(FilterError);
    expect(() => compilePoolFilter({ poolType: { between: ['a', 'b', 'c'] } }, index)).toThrow(
      /between takes exactly two values/,
    );
  });

  it('rejects an operator the field does not have', () => {
    expect(() => compilePoolFilter({ totalShares: { in: [1] } }, index)).toThrow(
      /where.totalShares.in is not supported/,
    );
    expect(() => compilePoolFilter({ swapEnabled: { gt: true } }, index)).toThrow(/swapEnabled takes eq, ne/);
  });
});

/** The edge cases need one well-formed pool; take it from the snapshot or make one. */
function loadSnapshotPoolsOrSynthetic(): unknown[] {
  try {
    return loadSnapshotPools();
  } catch {
    return [
      {
        id: `0x${'11'.repeat(32)}`,
        address: `0x${'11'.repeat(20)}`,
        poolType: 'Weighted',
        swapFee: '0.003',
        totalShares: '1',
        tokens: [{ address: MAINNET.WETH, balance: '1', decimals: 18, weight: '0.5', priceRate: '1' }],
      },
    ];
  }
}
