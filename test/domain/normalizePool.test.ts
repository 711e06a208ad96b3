import { normalizePool } from '../../src/domain/normalizePool';
import type { ComposableStableSpec } from '../../src/domain/poolTypes/composableStable/composableStableParams';
import { planPoolUpdate } from '../../src/jobs/planPoolUpdate';
import { toRoutingPool, type RoutingPool } from '../../src/routing/v2/routingPools';

/** The engine's input as a quote thread receives it (JSON through shared memory). */
const specThroughRouting = (p: Parameters<typeof toRoutingPool>[0]): ComposableStableSpec =>
  (JSON.parse(JSON.stringify(toRoutingPool(p))) as RoutingPool).spec;
import { HAS_SNAPSHOT, loadSnapshotPools } from '../helpers/snapshot';

const base = {
  id: '0x96646936B91D6B9D7D0C47C496AFBF3D6EC7B6F8000200000000000000000019',
  address: '0x96646936B91D6B9D7D0C47C496AFBF3D6EC7B6F8',
  poolType: 'Weighted',
  swapFee: '0.003',
  totalShares: '1e-7',
  tokens: [
    {
      address: '0xA0b86991c6218b36c1d19d4a2e9eB0cE3606eB48',
      balance: '1234.5678901',
      decimals: 6,
      weight: '0.5',
      priceRate: '1',
    },
    {
      address: '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2',
      balance: '0.0',
      decimals: 18,
      weight: '0.5',
      priceRate: null,
    },
  ],
};

describe('normalizePool', () => {
  test('lower-cases addresses and ids, keeps exact decimals, truncates extra precision', () => {
    const r = normalizePool(base);
    if (!r.ok) throw new Error(r.error);
    expect(r.pool.id).toBe(base.id.toLowerCase());
    expect(r.pool.address).toBe(base.address.toLowerCase());
    expect(r.pool.tokens[0]).toMatchObject({
      address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48',
      balance: '1234.56789',
    });
    expect(r.pool.tokens[1]).toMatchObject({ balance: '0', priceRate: '1' });
    expect(r.pool.totalShares).toBe('0.0000001');
    expect(r.pool.tokensList).toEqual(r.pool.tokens.map((t) => t.address));
    expect(r.pool.routable).toBe(true);
  });

  test('the ComposableStable protocol fee basis is carried where the subgraph gives it, absent where it does not', () => {
    const withFees = normalizePool({
      ...base,
      poolType: 'ComposableStable',
      amp: '200',
      lastJoinExitAmp: '200',
      lastPostJoinExitInvariant: '1234.000000000000000001',
      protocolSwapFeeCache: '0.5',
      protocolYieldFeeCache: '0.1',
      tokens: [
        { ...base.tokens[0], oldPriceRate: '1.01', isExemptFromYieldProtocolFee: true },
        { ...base.tokens[1], oldPriceRate: null, isExemptFromYieldProtocolFee: false },
      ],
    });
    if (!withFees.ok) throw new Error(withFees.error);
    expect(withFees.pool).toMatchObject({
      lastJoinExitAmp: '200',
      lastPostJoinExitInvariant: '1234.000000000000000001',
      protocolSwapFeeCache: '0.5',
      protocolYieldFeeCache: '0.1',
    });
    expect(withFees.pool.tokens[0]).toMatchObject({ oldPriceRate: '1.01', isExemptFromYieldProtocolFee: true });
    expect(withFees.pool.tokens[1]).not.toHaveProperty('oldPriceRate');
    expect(withFees.pool.tokens[1]).toMatchObject({ isExemptFromYieldProtocolFee: false });
    // Through the routing pool to the engine's spec.
    const spec = specThroughRouting(withFees.pool);
    expect(spec).toMatchObject({
      lastJoinExitAmp: '200',
      lastPostJoinExitInvariant: '1234.000000000000000001',
      protocolSwapFeeCache: '0.5',
      protocolYieldFeeCache: '0.1',
    });
    expect(spec.tokens.map((t) => [t.oldPriceRate, t.isExemptFromYieldProtocolFee])).toEqual([
      ['1.01', true],
      [null, false],
    ]);

    const without = normalizePool(base);
    if (!without.ok) throw new Error(without.error);
    for (const k of ['lastJoinExitAmp', 'lastPostJoinExitInvariant', 'protocolSwapFeeCache'])
      expect(without.pool).not.toHaveProperty(k);
    for (const t of without.pool.tokens) expect(Object.keys(t)).not.toEqual(expect.arrayContaining(['oldPriceRate']));
    const oldSpec = specThroughRouting(without.pool);
    expect([oldSpec.lastJoinExitAmp, oldSpec.lastPostJoinExitInvariant, oldSpec.protocolSwapFeeCache]).toEqual([
      null,
      null,
      null,
    ]);
  });

  test('a pool whose balances are all zero is not routable', () => {
    const r = normalizePool({ ...base, tokens: base.tokens.map((t) => ({ ...t, balance: '0.0' })) });
    expect(r.ok && r.pool.routable).toBe(false);
  });

  test.each([
    [{ ...base, id: '0x1234' }, /^id: expected a 32-byte hex pool id/],
    [{ ...base, tokens: [] }, /^tokens/],
    [{ ...base, tokens: [{ ...base.tokens[0], balance: 'lots' }] }, /tokens.0.balance: not a decimal/],
    [{ ...base, swapFee: undefined }, /^swapFee/],
  ])('a malformed pool is reported, not thrown (%#)', (raw, message) => {
    const r = normalizePool(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(message);
  });

  (HAS_SNAPSHOT ? test : test.skip)(
    'every pool of the mainnet snapshot normalizes; re-planning the same data changes nothing',
    () => {
      const raw = loadSnapshotPools();
      const first = planPoolUpdate(raw, [], new Set(), { nowSeconds: 1000, removeMissing: false });
      expect(first.skipped).toEqual([]);
      expect(first.written).toBe(372);
      const stored = first.change.pools!;
      for (const p of stored) for (const t of p.tokens) expect(t.balance).toMatch(/^\d+(\.\d+)?$/);
      const again = planPoolUpdate(raw, stored, new Set(first.change.tokens!.map((t) => t.address)), {
        nowSeconds: 2000,
        removeMissing: true,
      });
      expect(again).toMatchObject({ written: 0, removed: 0, tokensAdded: 0 });
      expect(again.change.bumpPoolsVersion).toBe(false);
    },
  );
});
