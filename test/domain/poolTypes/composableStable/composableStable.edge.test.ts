import { Revert, UnsupportedPoolError, type PoolSpec, type SwapKind } from '../../../../src/domain/swap/poolModel';
import { modelOfType } from '../../../helpers/typeModel';
import { type ComposableStableModel } from '../../../../src/domain/poolTypes/composableStable/composableStableModel';

/**
 * StablePhantom and ComposableStable models at their edges, on a hand-made pool holding its own
 * BPT (a rated token among them): what reverts, the limits, spot prices (BPT pairs included)
 * against the exact swap of a tiny amount, the virtual supply bookkeeping, the BPT's scaling
 * factor, the two families' fee handling on BPT swaps, and the versions refused.
 */
const BPT = '0x7b50775383d3d6f0215a8f290f2c9e2eebbeceb2';
const A = '0x2bbf681cc4eb09218bee85ea2a5d3d13fa40fc0c';
const B = '0x804cdb9116a10bb78768d3252355a1b18067bf8f';
const C = '0x9210f1204b5a24742eba12f710636d76240df3d0';

function pool(poolType: string, poolTypeVersion: number, bptRate = '1'): PoolSpec {
  return {
    id: `${BPT}0000000000000000000000fe`,
    address: BPT,
    poolType,
    poolTypeVersion,
    swapFee: '0.0004',
    amp: '1472',
    totalShares: '2500000',
    tokens: [
      { address: A, balance: '830000.5', decimals: 18, priceRate: '1.009463810379453854' },
      { address: BPT, balance: '2596148429267413.814265248164610048', decimals: 18, priceRate: bptRate },
      { address: B, balance: '850000.25', decimals: 6, priceRate: '1' },
      { address: C, balance: '900000', decimals: 18, priceRate: '1' },
    ],
  };
}

const build = (spec: PoolSpec) => modelOfType(spec, { timestamp: 0 }) as ComposableStableModel;
const models = (): [string, ComposableStableModel][] => [
  ['StablePhantom', build(pool('StablePhantom', 1))],
  ['ComposableStable v5', build(pool('ComposableStable', 5))],
];
const KINDS: SwapKind[] = ['givenIn', 'givenOut'];

function reverts(f: () => unknown): boolean {
  try {
    f();
    return false;
  } catch (e) {
    if (e instanceof Revert) return true;
    throw e;
  }
}

describe('composable stable pool models at their edges', () => {
  test.each(models())(
    '%s: the stored totalShares is the circulating supply; the BPT sits at index 1',
    (_name, model) => {
      const state = model.initialState();
      expect(model.bptIndex).toBe(1);
      expect(model.virtualSupply(state)).toBe(2_500_000n * 10n ** 18n);
    },
  );

  test.each(models())(
    '%s: the whole balance out, BPT past the supply in, or past 2^112 in revert as a Revert',
    (_name, model) => {
      const state = model.initialState();
      const supply = model.virtualSupply(state);
      for (let i = 0; i < 4; i++) {
        for (let j = 0; j < 4; j++) {
          if (i === j) {
            expect(model.canSwap(i, j)).toBe(false);
            expect(reverts(() => model.swap(state, 'givenIn', i, j, 10n ** 18n))).toBe(true);
            continue;
          }
          expect(model.canSwap(i, j)).toBe(true);
          expect(reverts(() => model.swap(state, 'givenOut', i, j, state.balances[j]!))).toBe(true);
          expect(reverts(() => model.swap(state, 'givenIn', i, j, 2n ** 112n - state.balances[i]!))).toBe(true);
          expect(reverts(() => model.swap(state, 'givenIn', i, j, -5n))).toBe(true);
        }
        if (i !== 1) {
          // Redeeming more than the circulating supply for one token (a StablePhantom pool takes its
          // fee off the BPT first, so exactly the supply still passes there).
          expect(reverts(() => model.swap(state, 'givenIn', 1, i, supply * 2n))).toBe(true);
          if (model.family === 'composable')
            expect(reverts(() => model.swap(state, 'givenIn', 1, i, supply))).toBe(true);
        }
      }
    },
  );

  test.each(models())('%s: maxAmount of every pair and kind is accepted, and the limit is tight', (_name, model) => {
    const state = model.initialState();
    for (let i = 0; i < 4; i++) {
      for (let j = 0; j < 4; j++) {
        if (i === j) continue;
        for (const kind of KINDS) {
          const max = model.maxAmount(state, kind, i, j);
          expect(max).toBeGreaterThan(0n);
          expect({ i, j, kind, ok: !reverts(() => model.swap(state, kind, i, j, max)) }).toEqual({
            i,
            j,
            kind,
            ok: true,
          });
          // The 2022 math fails past one threshold; the 2021 invariant stops converging at scattered
          // points near its edge (as on chain), so there the limit is only known to a factor of 2.
          const beyond = model.family === 'composable' ? max + max / 1000n + 1n : max * 2n + 1n;
          expect({ i, j, kind, beyond: reverts(() => model.swap(state, kind, i, j, beyond)) }).toEqual({
            i,
            j,
            kind,
            beyond: true,
          });
        }
      }
    }
  });

  test.each(models())(
    '%s: spot prices of every pair, BPT included, match the exact swap of a millionth to 1e-5',
    (_name, model) => {
      const state = model.initialState();
      const base = (k: number) => (k === model.bptIndex ? model.virtualSupply(state) : state.balances[k]!);
      for (let i = 0; i < 4; i++) {
        for (let j = 0; j < 4; j++) {
          if (i === j) continue;
          const amountIn = base(i) / 1_000_000n;
          const out = model.swap(state, 'givenIn', i, j, amountIn);
          const exact = Number(amountIn) / 10 ** model.decimals[i]! / (Number(out) / 10 ** model.decimals[j]!);
          expect({ i, j, close: Math.abs(model.spotPrice(state, i, j) / exact - 1) < 1e-5 }).toEqual({
            i,
            j,
            close: true,
          });
        }
      }
    },
  );

  test.each(models())(
    '%s: BPT swaps move the Vault balance of the BPT and with it the circulating supply',
    (_name, model) => {
      const state = model.initialState();
      const supply = model.virtualSupply(state);
      const amountIn = 10n ** 22n;
      const bptOut = model.swap(state, 'givenIn', 0, 1, amountIn);
      model.apply(state, 0, 1, amountIn, bptOut);
      expect(model.virtualSupply(state)).toBe(supply + bptOut);
      const back = model.swap(state, 'givenIn', 1, 0, bptOut);
      model.apply(state, 1, 0, bptOut, back);
      expect(model.virtualSupply(state)).toBe(supply);
      // The round trip pays the swap fee: less of the token comes back than went in.
      expect(back).toBeLessThan(amountIn);
      expect(back).toBeGreaterThan((amountIn * 999n) / 1000n);
      expect(model.initialState().balances).toEqual(model.cloneState(model.initialState()).balances);
    },
  );

  test('the BPT scales by 1 whatever rate the store lists for it; a zero amount quotes zero', () => {
    const plain = build(pool('ComposableStable', 3));
    const listed = build(pool('ComposableStable', 3, '1.0123'));
    for (const [i, j] of [
      [0, 1],
      [1, 2],
      [2, 3],
    ] as const) {
      for (const kind of KINDS)
        expect(listed.swap(listed.initialState(), kind, i, j, 10n ** 9n)).toBe(
          plain.swap(plain.initialState(), kind, i, j, 10n ** 9n),
        );
    }
    expect(plain.swap(plain.initialState(), 'givenIn', 0, 1, 0n)).toBe(0n);
  });

  test('a small join through the BPT: ComposableStable charges the fee on the non-proportional part only, StablePhantom on all of it', () => {
    const phantom = build(pool('StablePhantom', 1));
    const composable = build(pool('ComposableStable', 1));
    const amount = 10n ** 18n;
    const viaPhantom = phantom.swap(phantom.initialState(), 'givenIn', 3, 1, amount);
    const viaComposable = composable.swap(composable.initialState(), 'givenIn', 3, 1, amount);
    // Token C holds about a third of the pool: the composable pool charges ~2/3 of the 0.04% fee.
    const ratio = Number(viaComposable) / Number(viaPhantom);
    expect(ratio).toBeGreaterThan(1 + 0.0004 * 0.25);
    expect(ratio).toBeLessThan(1 + 0.0004 * 0.45);
  });

  test('versions and pools the model does not carry are refused with UnsupportedPoolError', () => {
    for (const v of [1, 2, 3, 4, 5, 6]) expect(build(pool('ComposableStable', v)).family).toBe('composable');
    expect(() => build(pool('ComposableStable', 7))).toThrow(UnsupportedPoolError);
    expect(() => build(pool('StablePhantom', 2))).toThrow(UnsupportedPoolError);
    expect(() =>
      build({ ...pool('ComposableStable', 5), address: '0x1111111111111111111111111111111111111111' }),
    ).toThrow(UnsupportedPoolError);
    expect(() => build({ ...pool('ComposableStable', 5), amp: '0' })).toThrow(UnsupportedPoolError);
  });
});
