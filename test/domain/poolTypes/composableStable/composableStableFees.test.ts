import { unitsToDecimal } from '../../../../src/domain/decimal';
import type { ComposableStableSpec } from '../../../../src/domain/poolTypes/composableStable/composableStableParams';
import { calculateInvariant } from '../../../../src/domain/poolTypes/stable/stableMath';
import {
  createComposableStableModel,
  type ComposableStableModel,
} from '../../../../src/domain/poolTypes/composableStable/composableStableModel';
import {
  bptForPoolOwnershipPercentage,
  dueProtocolFeeBpt,
  feeRulesOf,
  protocolFeeAfterJoinExit,
  protocolOwnershipPercentage,
  type FeeBasis,
  type FeeToken,
} from '../../../../src/domain/poolTypes/composableStable/composableStableFees';

/**
 * The protocol fee BPT a ComposableStable pool mints around a BPT swap, on cases small enough to
 * check by hand: a balanced pool's invariant is the sum of its balances, so growth measured against
 * a stored invariant of 190 on balances 100/100 is 10/200 = 5 %; the chain-level proof is
 * test/devnet/composableStableFees.test.ts.
 */

const ONE = 10n ** 18n;
const E = (n: number) => BigInt(n) * ONE;
const AMP = 200_000n;
const HALF = ONE / 2n;
const plain: FeeToken[] = [
  { oldRate: null, currentRate: ONE, exempt: false },
  { oldRate: null, currentRate: ONE, exempt: false },
];
const basis = (lastInvariant: bigint, over: Partial<FeeBasis> = {}): FeeBasis => ({
  lastAmp: AMP,
  lastInvariant,
  swapPct: HALF,
  yieldPct: HALF,
  ...over,
});

describe('version rules', () => {
  test('v1 alone; v2 to v4 share the pre-patch rules; v5 and v6 the 2023-07 patch', () => {
    expect([1, 2, 3, 4, 5, 6].map(feeRulesOf)).toEqual(['v1', 'v2', 'v2', 'v2', 'v5', 'v5']);
  });
});

describe('fee BPT due before a join or exit', () => {
  test('a balanced pool: the invariant is the sum of the balances', () => {
    expect(calculateInvariant('2022', AMP, [E(100), E(100)], true)).toBe(E(200));
  });

  test.each(['v1', 'v2', 'v5'] as const)(
    '%s: swap-fee growth 190 -> 200 at 50 %: 2.5 % of the pool, 1000 BPT * 0.025 / 0.975',
    (rules) => {
      const { percentage, totalGrowthInvariant } = protocolOwnershipPercentage(
        rules,
        [E(100), E(100)],
        plain,
        basis(E(190)),
      );
      expect(totalGrowthInvariant).toBe(E(200));
      // 10/200 = 0.05 (divDown), times 0.5 (mulDown).
      expect(percentage).toBe(25n * 10n ** 15n);
      // floor(1000e18 * 0.025e18 / 0.975e18)
      expect(dueProtocolFeeBpt(rules, [E(100), E(100)], plain, basis(E(190)), E(1000))).toBe(
        25_641_025_641_025_641_025n,
      );
    },
  );

  test('no growth since the last join or exit, or a zero fee percentage: nothing is due', () => {
    for (const rules of ['v1', 'v2', 'v5'] as const) {
      expect(dueProtocolFeeBpt(rules, [E(100), E(100)], plain, basis(E(200)), E(1000))).toBe(0n);
      expect(dueProtocolFeeBpt(rules, [E(100), E(100)], plain, basis(E(210)), E(1000))).toBe(0n);
      expect(dueProtocolFeeBpt(rules, [E(100), E(100)], plain, basis(E(190), { swapPct: 0n }), E(1000))).toBe(0n);
    }
  });

  test('yield only (rate 1 -> 1.25 on token 1): charged at the yield percentage unless the token is exempt', () => {
    const withYield = (exempt: boolean): FeeToken[] => [
      plain[0]!,
      { oldRate: ONE, currentRate: 1_250_000_000_000_000_000n, exempt },
    ];
    // Token 1 at its old rate: 100 * 1 / 1.25 = 80; the pool stored that invariant, so no swap fees.
    const last = calculateInvariant('2022', AMP, [E(100), E(80)], true);
    const yieldShare = ((E(200) - last) * ONE) / E(200);
    for (const rules of ['v1', 'v2', 'v5'] as const) {
      const charged = protocolOwnershipPercentage(
        rules,
        [E(100), E(100)],
        withYield(false),
        basis(last, { yieldPct: (3n * ONE) / 10n }),
      );
      expect(charged.percentage).toBe((yieldShare * 3n) / 10n);
      expect(protocolOwnershipPercentage(rules, [E(100), E(100)], withYield(true), basis(last)).percentage).toBe(0n);
    }
  });

  test('rates that fell: v1 to v4 charge the swap-fee invariant growth unbounded, v5 clamps it to the total growth', () => {
    const fell: FeeToken[] = [plain[0]!, { oldRate: 1_250_000_000_000_000_000n, currentRate: ONE, exempt: false }];
    const swapGrowth = calculateInvariant('2022', AMP, [E(100), E(125)], true);
    const old = protocolOwnershipPercentage('v2', [E(100), E(100)], fell, basis(E(190)));
    expect(old.percentage).toBe(((((swapGrowth - E(190)) * ONE) / E(200)) * HALF) / ONE);
    const patched = protocolOwnershipPercentage('v5', [E(100), E(100)], fell, basis(E(190)));
    expect(patched.percentage).toBe(25n * 10n ** 15n);
    expect(old.percentage).toBeGreaterThan(patched.percentage);
  });

  test('v1 rounds the fee BPT twice (FixedPoint mulDown, then divDown): a wei less than v2 on a v1 pool measured on chain', () => {
    const supply = 1_049_951_719_668_353_075_609_476n;
    const percentage = 1_728_341_801_225_519n;
    expect(bptForPoolOwnershipPercentage(supply, percentage, 'v2')).toBe(1_817_817_255_921_831_307_437n);
    expect(bptForPoolOwnershipPercentage(supply, percentage, 'v1')).toBe(1_817_817_255_921_831_307_436n);
  });

  test('an ownership percentage of 100 % reverts as the contract does (division by zero)', () => {
    expect(() => bptForPoolOwnershipPercentage(E(1), ONE)).toThrow(/BAL#004/);
  });
});

describe('fee BPT minted after a join or exit (its own swap fee)', () => {
  // Invariant 200 -> 210 while the supply grows 200 -> 209: 1 of 210 is fee, half for the protocol.
  test('v2 and later: feeless invariant 200 * 1.045 = 209; (210 - 209) * 0.5 / 210 of the pool', () => {
    expect(protocolFeeAfterJoinExit('v2', E(200), E(210), E(200), E(209), HALF)).toBe(498_806_682_577_565_432n);
    expect(protocolFeeAfterJoinExit('v5', E(200), E(210), E(200), E(209), HALF)).toBe(498_806_682_577_565_432n);
  });

  test('v1: 1 - 1.045 / 1.05 of the pool, rounded through the ratios (a few hundred wei more)', () => {
    expect(protocolFeeAfterJoinExit('v1', E(200), E(210), E(200), E(209), HALF)).toBe(498_806_682_577_565_642n);
  });

  test('a proportional change or a zero percentage mints nothing', () => {
    for (const rules of ['v1', 'v2'] as const) {
      expect(protocolFeeAfterJoinExit(rules, E(200), E(210), E(200), E(210), HALF)).toBe(0n);
      expect(protocolFeeAfterJoinExit(rules, E(200), E(210), E(200), E(209), 0n)).toBe(0n);
    }
  });
});

describe('the model prices BPT swaps on the supply after the fee BPT', () => {
  const token = (address: string, balance: string, extra: Partial<ComposableStableSpec['tokens'][number]> = {}) => ({
    address,
    balance,
    decimals: 18,
    priceRate: '1',
    ...extra,
  });
  const BPT = '0x00000000000000000000000000000000000000bb';
  const spec = (fees: Partial<ComposableStableSpec>, totalShares = '1000'): ComposableStableSpec => ({
    id: `0x${'cd'.repeat(32)}`,
    address: BPT,
    poolType: 'ComposableStable',
    poolTypeVersion: 5,
    swapFee: '0.0004',
    amp: '200',
    totalShares,
    tokens: [
      token('0x00000000000000000000000000000000000000aa', '100'),
      token(BPT, '5000'),
      token('0x00000000000000000000000000000000000000cc', '100'),
    ],
    ...fees,
  });
  const feeFields = {
    lastJoinExitAmp: '200',
    lastPostJoinExitInvariant: '190',
    protocolSwapFeeCache: '0.5',
    protocolYieldFeeCache: '0.5',
  };
  const build = (s: ComposableStableSpec) => createComposableStableModel(s, { timestamp: 0 }) as ComposableStableModel;

  test('a pool owing fee BPT quotes as a fee-less pool whose supply already holds it; without the basis, as before', () => {
    const withFees = build(spec(feeFields));
    const due = withFees.dueProtocolFees(withFees.initialState());
    expect(due).toBe(25_641_025_641_025_641_025n);
    const grown = build(spec({}, unitsToDecimal(E(1000) + due, 18)));
    const old = build(spec({}));
    expect(old.dueProtocolFees(old.initialState())).toBe(0n);
    for (const [kind, i, j, amount] of [
      ['givenIn', 0, 1, E(3)],
      ['givenIn', 1, 2, E(7)],
      ['givenOut', 2, 1, E(11)],
      ['givenOut', 1, 0, E(2)],
    ] as const) {
      const quoted = withFees.swap(withFees.initialState(), kind, i, j, amount);
      expect(quoted).toBe(grown.swap(grown.initialState(), kind, i, j, amount));
      expect(quoted).not.toBe(old.swap(old.initialState(), kind, i, j, amount));
    }
  });

  test('apply after a BPT swap mints the fees into the supply and resets the basis: nothing due right after', () => {
    const model = build(spec(feeFields));
    const state = model.initialState();
    const out = model.swap(state, 'givenIn', 0, 1, E(3));
    const supplyBefore = state.totalSupply;
    model.apply(state, 0, 1, E(3), out);
    expect(state.totalSupply).toBeGreaterThan(supplyBefore + 25_641_025_641_025_641_025n);
    expect(state.fees?.basis.lastInvariant).toBe(calculateInvariant('2022', AMP, [E(103), E(100)], true));
    expect(model.dueProtocolFees(state)).toBe(0n);
    // A token swap grows the invariant again (swap fees), so fees fall due once more.
    const got = model.swap(state, 'givenIn', 0, 2, E(10));
    model.apply(state, 0, 2, E(10), got);
    expect(model.dueProtocolFees(state)).toBeGreaterThan(0n);
  });
});
