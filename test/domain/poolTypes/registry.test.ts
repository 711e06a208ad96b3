import type { Address } from '../../../src/domain/address';
import { normalizePool } from '../../../src/domain/normalizePool';
import { poolTypeDef, poolTypeDefs, registerPoolType, storedFields } from '../../../src/domain/poolTypes/registry';
import { poolsQuery } from '../../../src/sources/subgraph/poolsQuery';
import { subgraphSdl } from '../../../src/sources/subgraph/subgraphSdl';
import { v3PoolTypesQuery } from '../../../src/sources/subgraph/v3/v3Catalogue';
import { FIXED_RATE } from '../../fixtures/poolTypes/fixedRate/fixedRateDef';
import { storedPool } from '../../helpers/poolFixtures';

/** The getters a pool of this type and version asks in its first round beside the Vault reads. */
function gettersOf(poolType: string, poolTypeVersion: number): string[] {
  const tokens = ['0x' + '11'.repeat(20), '0x' + '22'.repeat(20)].map((address) => ({
    address: address as Address,
    symbol: null,
    name: null,
    decimals: 18,
    balance: '1',
    weight: null,
    priceRate: '1',
  }));
  const pool = storedPool({
    id: '0x' + '33'.repeat(32),
    tokens,
    poolType,
    poolTypeVersion,
    lowerTarget: '0',
    upperTarget: '1',
    wrappedIndex: 1,
  });
  return [...new Set((poolTypeDef(poolType)?.chain?.first(pool) ?? []).map((c) => c.getter.name))];
}

/** What a developer adding a pool type runs into: the registry refuses clashes and reads every variant. */
describe('the pool type registry', () => {
  test('every linear variant is the linear family; an unknown type has no definition', () => {
    for (const name of ['ERC4626Linear', 'AaveLinear', 'EulerLinear', 'GearboxLinear'])
      expect(poolTypeDef(name)?.family).toBe('linear');
    expect(poolTypeDef('FX')).toBeUndefined();
  });

  test("what a pool is read as at the head follows its type's contracts, version by version", () => {
    // Weighted v1 pays protocol fees in tokens from its last invariant; v2+ mint BPT from theirs
    // (the yield part's all-time high only once a provider is named: the second round).
    expect(gettersOf('Weighted', 1)).toEqual(['getNormalizedWeights', 'getLastInvariant', 'getProtocolFeesCollector']);
    expect(gettersOf('Weighted', 4)).toEqual([
      'getNormalizedWeights',
      'getLastPostJoinExitInvariant',
      'getProtocolFeePercentageCache',
      'getRateProviders',
    ]);
    // The 2021 stable pool has no getter for its basis; the 2022 one has.
    expect(gettersOf('Stable', 1)).toEqual(['getAmplificationParameter']);
    expect(gettersOf('Stable', 2)).toEqual([
      'getAmplificationParameter',
      'getLastInvariant',
      'getProtocolFeesCollector',
    ]);
    expect(gettersOf('AaveLinear', 1)).toEqual(['getTargets', 'getWrappedTokenRate']);
    expect(gettersOf('LiquidityBootstrapping', 1)).toContain('getGradualWeightUpdateParams');
    // A type the service does not carry: the Vault reads alone.
    expect(gettersOf('FX', 1)).toEqual([]);
  });

  test('a name already taken is refused', () => {
    expect(() => registerPoolType({ ...FIXED_RATE, names: ['Weighted'] })).toThrow(
      'pool type Weighted is already registered for V2 (family weighted)',
    );
    expect(() => registerPoolType({ ...FIXED_RATE, protocol: 3, names: ['Stable'] })).toThrow(
      'pool type Stable is already registered for V3 (family stable)',
    );
  });

  test('a name is a type per protocol: the V3 Vault Weighted pool is not the V2 one', () => {
    const v2 = poolTypeDef('Weighted');
    const v3 = poolTypeDef('Weighted', 3);
    expect(v2?.createModel).toBeDefined();
    expect(v3?.v3).toBeDefined();
    expect(v3?.createModel).toBeUndefined();
    expect(poolTypeDef('ERC4626Linear', 3)).toBeUndefined();
  });

  test('a parameter declared unlike another type is refused, and the query and schema stay as they were', () => {
    const query = poolsQuery();
    const sdl = subgraphSdl();
    const clash = { name: 'mainIndex', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit' } as const;
    expect(() => registerPoolType({ ...FIXED_RATE, names: ['Clashing'], params: [clash] })).toThrow(
      'pool type Clashing declares mainIndex unlike another type',
    );
    expect(poolTypeDef('Clashing')).toBeUndefined();
    expect(poolsQuery()).toBe(query);
    expect(subgraphSdl()).toBe(sdl);
  });

  test('a parameter named like a field every pool has is refused', () => {
    const amp = { name: 'amp', subgraph: 'BigInt', stored: 'decimal', absent: 'omit' } as const;
    expect(() => registerPoolType({ ...FIXED_RATE, names: ['AmpAgain'], params: [amp] })).toThrow(
      'pool type AmpAgain declares amp, a field every pool has',
    );
  });

  test('a token parameter named like a field every token has, or stored as null, is refused', () => {
    const balance = { name: 'balance', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit' } as const;
    expect(() => registerPoolType({ ...FIXED_RATE, names: ['Balanced'], tokenParams: [balance] })).toThrow(
      'pool type Balanced declares token field balance as no token field can be',
    );
    const nulled = { name: 'lastRate', subgraph: 'BigDecimal', stored: 'decimal', absent: 'null' } as const;
    expect(() => registerPoolType({ ...FIXED_RATE, names: ['Nulled'], tokenParams: [nulled] })).toThrow(
      'pool type Nulled declares token field lastRate as no token field can be',
    );
  });

  test('a grouped parameter cannot be a GraphQL Pool field', () => {
    const grouped = { name: 'kappa', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit', graphql: {} } as const;
    expect(() =>
      registerPoolType({ ...FIXED_RATE, names: ['Grouped'], params: [grouped], paramGroup: 'grouped' }),
    ).toThrow('pool type Grouped shows kappa in GraphQL, which only a top-level single value can be');
  });

  test("a registered type's token parameters are asked of the subgraph's tokens and stored on each token", () => {
    expect(poolsQuery()).toMatch(/tokens \{ id address symbol name decimals balance weight priceRate oldPriceRate /);
    const lastRate = { name: 'lastRate', subgraph: 'BigDecimal', stored: 'decimal', absent: 'omit' } as const;
    registerPoolType({ ...FIXED_RATE, names: ['TokenRated'], tokenParams: [lastRate] });
    expect(poolsQuery()).toMatch(/tokens \{ [^}]*\blastRate\b[^}]*\}/);
    expect(subgraphSdl()).toMatch(/type PoolToken \{[^}]*\n\s+lastRate: BigDecimal\n[^}]*\}/);
    const token = (address: string, extra: object) => ({ address, decimals: 18, balance: '1', ...extra });
    const normalized = normalizePool({
      id: '0x' + '44'.repeat(32),
      address: '0x' + '44'.repeat(20),
      poolType: 'TokenRated',
      swapFee: '0.001',
      totalShares: '1',
      tokens: [token('0x' + '55'.repeat(20), { lastRate: '1.50' }), token('0x' + '66'.repeat(20), {})],
    });
    if (!normalized.ok) throw new Error(normalized.error);
    const [first, second] = normalized.pool.tokens as unknown as Record<string, unknown>[];
    expect(first).toMatchObject({ lastRate: '1.5' });
    expect(second).not.toHaveProperty('lastRate');
  });

  test("a registered type's parameters reach the subgraph query and schema once", () => {
    registerPoolType(FIXED_RATE);
    expect(storedFields().all.filter((f) => f.name === 'fixedRate')).toHaveLength(1);
    expect(poolsQuery()).toMatch(/\n\s+fixedRate\n/);
    expect(subgraphSdl()).toMatch(/\n\s+fixedRate: BigDecimal\n/);
    // Gyro's parameters are declared once, in their folder, and asked for once.
    expect(poolsQuery().match(/\btauAlphaX\b/g)).toHaveLength(1);
  });

  test("a V3 type's parameters are asked of its entity in the V3 pools subgraph, never of the V2 subgraph", () => {
    expect(storedFields().all.map((f) => f.name)).toEqual(
      expect.arrayContaining(['lastVirtualBalances', 'maxTradeSizeRatio']),
    );
    expect(poolsQuery()).not.toMatch(/\blastVirtualBalances\b|\bmaxTradeSizeRatio\b/);
    expect(subgraphSdl()).not.toMatch(/\blastVirtualBalances\b/);
    const v3 = v3PoolTypesQuery().query;
    expect(v3).toMatch(/reClammParams \{ lastTimestamp lastVirtualBalances [^}]*\}/);
    expect(v3).toMatch(/gyroEParams \{ alpha beta c s lambda tauAlphaX [^}]*dSq \}/);
    expect(v3).toMatch(/gyro2Params \{ sqrtAlpha sqrtBeta \}/);
    expect(v3).toMatch(/quantAMMWeightedParams \{ maxTradeSizeRatio [^}]*\}/);
  });
});

// The V3 routing universe keeps a model across pricing timestamps for a type that is not
// `timeDependent` (domain/protocols/v3/engine/v3ModelCache.ts): such a type's math, weights and
// hooks must not take the timestamp, or a later block would be quoted at an earlier time.
test('a V3 type that is not time-dependent takes no timestamp: its models may be kept from block to block', () => {
  const v3Defs = poolTypeDefs().filter((d) => d.protocol === 3 && d.v3 !== undefined);
  expect(v3Defs.length).toBeGreaterThan(0);
  const timeless = v3Defs.filter((d) => !d.timeDependent);
  for (const def of timeless) {
    const v3 = def.v3!;
    expect({ type: def.names[0], math: v3.math.length < 3 }).toEqual({ type: def.names[0], math: true });
    expect({ type: def.names[0], weights: (v3.weights?.length ?? 0) < 2 }).toEqual({
      type: def.names[0],
      weights: true,
    });
    expect({ type: def.names[0], selfHook: v3.selfHook }).toEqual({ type: def.names[0], selfHook: undefined });
  }
  // Those that do take it are marked so, as is any that names the time it prices at.
  for (const def of v3Defs.filter(
    (d) => d.v3!.math.length >= 3 || d.v3!.selfHook !== undefined || d.v3!.pricingTime !== undefined,
  ))
    expect({ type: def.names[0], timeDependent: def.timeDependent }).toEqual({
      type: def.names[0],
      timeDependent: true,
    });
});
