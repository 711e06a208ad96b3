import { ComposableStableModel } from '../../../../src/domain/poolTypes/composableStable/composableStableModel';
import { modelOfType } from '../../../helpers/typeModel';
import { describeWithSnapshot } from '../../../helpers/snapshot';
import { snapshotPools, toSpec, type SnapshotPool } from '../../../helpers/snapshotSpecs';
import { compareWithSor, poolFavour, sorPools, type Comparison } from '../stable/stableReference';

/**
 * The composable stable model against the reference SOR's PhantomStablePool and
 * ComposableStablePool on the mainnet snapshot's 3 StablePhantom pools (one of them bb-a-USD, whose
 * tokens carry rates): every ordered pair including the pool's own BPT (joins and exits as swaps),
 * both kinds, amounts from a billionth to 90% of what the swap draws on (the virtual supply for
 * BPT). The snapshot predates ComposableStable pools, so the same pools also run as ComposableStable.
 *
 * Where they differ, the contract is the truth (the devnet suite checks StablePhantom and
 * ComposableStable v1-v3 against the deployed pools to the wei):
 * - StablePhantomPool is a 2021 pool: its StableMath rounds the invariant up, the SOR's (2022)
 *   down, so the model pays 0 to 4 raw units less out, or asks as much more in, never the reverse;
 *   run with the 2022 invariant it equals the SOR.
 * - The SOR divides an amount in by a rated token's rate rounding down; the pools round it up
 *   (BasePool._downscaleUp): up to 2 raw units more in, given out, when the token in has a rate.
 * - For ComposableStable token swaps the SOR takes the swap fee off the rated (upscaled) amount; the
 *   pool takes it off the raw amount before scaling (BaseGeneralPool): within 2 raw units either way
 *   when a token has a rate, equal otherwise. BPT swaps given in agree exactly.
 */
const reference =
  (model: ComposableStableModel, state: ReturnType<ComposableStableModel['initialState']>) => (k: number) =>
    k === model.bptIndex ? model.virtualSupply(state) : state.balances[k]!;

function isRated(model: ComposableStableModel, k: number): boolean {
  return k !== model.bptIndex && model.scalingFactors[k]! !== 10n ** BigInt(36 - model.decimals[k]!);
}

describeWithSnapshot('composable stable model vs the reference SOR on the mainnet snapshot', () => {
  const pools = snapshotPools((t) => t === 'StablePhantom');
  const sor = sorPools(pools);
  const asComposable: SnapshotPool[] = pools.map((p) => ({ ...p, poolType: 'ComposableStable', poolTypeVersion: 5 }));
  const sorComposable = sorPools(asComposable);
  const named = pools.map((p, k) => [`StablePhantom ${p.id.slice(0, 10)}`, p, asComposable[k]!] as const);

  test('the snapshot holds three StablePhantom pools, one with rated tokens', () => {
    expect(pools).toHaveLength(3);
    const rated = pools.filter((p) => {
      const m = modelOfType(toSpec(p), { timestamp: 0 }) as ComposableStableModel;
      return m.tokens.some((_, k) => isRated(m, k));
    });
    expect(rated).toHaveLength(1);
  });

  test.each(named)(
    '%s: every pair (BPT included) within 4 raw units of the SOR, the 2021 invariant favouring the pool',
    (_name, pool) => {
      const model = modelOfType(toSpec(pool), { timestamp: 0 }) as ComposableStableModel;
      const state = model.initialState();
      const comparisons = compareWithSor(model, sor[pool.id]!, state, reference(model, state));
      for (const c of comparisons) {
        const favour = poolFavour(c);
        expect({ ...c, favour, within: favour >= 0n && favour <= 4n }).toMatchObject({ within: true });
      }
      // Joins and exits as swaps are part of it: BPT in and BPT out, both kinds.
      const bptPairs = comparisons.filter((c) => c.i === model.bptIndex || c.j === model.bptIndex);
      expect(bptPairs.length).toBe(3 * 2 * 2 * 7);
    },
  );

  test.each(named)(
    '%s: with the 2022 invariant, every swap equals the SOR (up to its rounding of rated amounts in)',
    (_name, pool) => {
      const model = new ComposableStableModel(toSpec(pool), 'phantom', '2022');
      const state = model.initialState();
      for (const c of compareWithSor(model, sor[pool.id]!, state, reference(model, state))) {
        const favour = poolFavour(c);
        const allowed = c.kind === 'givenOut' && isRated(model, c.i) ? favour >= 0n && favour <= 2n : favour === 0n;
        expect({ ...c, favour, allowed }).toMatchObject({ allowed: true });
      }
    },
  );

  test.each(named)(
    '%s as ComposableStable: BPT swaps given in equal the SOR, the rest within 2 raw units (equal without rates)',
    (_name, _phantom, pool) => {
      const model = modelOfType(toSpec(pool), { timestamp: 0 }) as ComposableStableModel;
      expect(model.family).toBe('composable');
      const state = model.initialState();
      const comparisons: Comparison[] = compareWithSor(model, sorComposable[pool.id]!, state, reference(model, state));
      for (const c of comparisons) {
        const favour = poolFavour(c);
        const bpt = c.i === model.bptIndex || c.j === model.bptIndex;
        const rated = isRated(model, c.i) || isRated(model, c.j);
        const allowed = (bpt && c.kind === 'givenIn') || !rated ? favour === 0n : favour >= -2n && favour <= 2n;
        expect({ ...c, favour, allowed }).toMatchObject({ allowed: true });
      }
      expect(comparisons).toHaveLength(12 * 2 * 7);
    },
  );
});
