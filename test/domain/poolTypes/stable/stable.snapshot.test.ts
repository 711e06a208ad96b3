import { modelOfType } from '../../../helpers/typeModel';
import { StableMathBigInt } from '@balancer-labs/sor';
import { mulDown, divDown } from '../../../../src/domain/swap/math/fixedPoint';
import { StableModel } from '../../../../src/domain/poolTypes/stable/stableModel';
import { describeWithSnapshot } from '../../../helpers/snapshot';
import { snapshotPools, toSpec } from '../../../helpers/snapshotSpecs';
import { compareWithSor, poolFavour, sorPools } from './stableReference';

/**
 * The Stable and MetaStable models against the reference SOR's StablePool / MetaStablePool on the
 * mainnet snapshot's 3 Stable and 2 MetaStable pools: every pair, both kinds, amounts from a
 * billionth to 90% of the balance the swap draws on.
 *
 * Where they differ, the contract is the truth (the devnet suite checks the model against the
 * deployed 2021 and 2022 pools to the wei):
 * - Every snapshot pool is a 2021 pool (StablePool v1, MetaStablePool), whose StableMath rounds the
 *   invariant up; the SOR carries only the 2022 StableMath (always rounding down). The pool's
 *   larger invariant pays slightly less out and asks slightly more in: the model favours the pool
 *   by 0 to 4 raw units, never the other way. Run with the 2022 invariant, the model equals the SOR.
 * - The SOR's MetaStablePool divides an amount in by the rated scaling factor rounding down; the
 *   pool rounds it up (BasePool._downscaleUp): up to 2 raw units more in, given out.
 * - The SOR's StablePool multiplies an amount in by 10 ** (18 - decimals) as a JS number, which
 *   ethers' BigNumber refuses past 2^53 (tokens with fewer than 3 decimals): it answers 0 where the
 *   pool pays.
 */
describeWithSnapshot('stable and metastable models vs the reference SOR on the mainnet snapshot', () => {
  const pools = snapshotPools((t) => t === 'Stable' || t === 'MetaStable');
  const sor = sorPools(pools);
  const named = pools.map((p) => [`${p.poolType} ${p.id.slice(0, 10)}`, p] as const);

  test('the snapshot holds the stable pools this suite compares, all of the first generation', () => {
    expect(pools.filter((p) => p.poolType === 'Stable')).toHaveLength(3);
    expect(pools.filter((p) => p.poolType === 'MetaStable')).toHaveLength(2);
    for (const p of pools) expect(p.poolTypeVersion ?? 1).toBe(1);
  });

  test.each(named)(
    '%s: every swap within 4 raw units of the SOR, the 2021 invariant favouring the pool',
    (_name, pool) => {
      const model = modelOfType(toSpec(pool), { timestamp: 0 }) as StableModel;
      const state = model.initialState();
      const comparisons = compareWithSor(model, sor[pool.id]!, state, (k) => state.balances[k]!);
      let differing = 0;
      for (const c of comparisons) {
        if (c.kind === 'givenIn' && model.decimals[c.i]! < 3) {
          // The SOR's own overflow (see above): it answers 0, the pool pays.
          expect({ ...c, sorAnswersZero: c.sor === 0n, poolPays: c.ours !== 'revert' && c.ours > 0n }).toMatchObject({
            sorAnswersZero: true,
            poolPays: true,
          });
          continue;
        }
        const favour = poolFavour(c);
        expect({ ...c, favour, within: favour >= 0n && favour <= 4n }).toMatchObject({ within: true });
        if (favour !== 0n) differing++;
      }
      expect(comparisons.length).toBeGreaterThanOrEqual(7 * 2 * 2);
      // The rounded-up invariant shows wherever the balances differ; at perfectly equal upscaled
      // balances both invariants are their sum and the two agree throughout.
      const up = state.balances.map((b, k) => mulDown(b, model.scalingFactors[k]!));
      expect(differing > 0).toBe(up.some((b) => b !== up[0]));
    },
  );

  test.each(named)(
    '%s: with the 2022 invariant, every swap equals the SOR (up to its rounding of rated amounts in)',
    (_name, pool) => {
      const model = new StableModel(toSpec(pool), '2022', pool.poolType === 'MetaStable');
      const state = model.initialState();
      let compared = 0;
      for (const c of compareWithSor(model, sor[pool.id]!, state, (k) => state.balances[k]!)) {
        if (c.kind === 'givenIn' && model.decimals[c.i]! < 3) continue;
        const rated = model.scalingFactors[c.i]! !== 10n ** BigInt(36 - model.decimals[c.i]!);
        const favour = poolFavour(c);
        const allowed = c.kind === 'givenOut' && rated ? favour >= 0n && favour <= 2n : favour === 0n;
        expect({ ...c, allowed }).toMatchObject({ allowed: true });
        compared++;
      }
      expect(compared).toBeGreaterThan(20);
    },
  );

  test.each(named)(
    '%s: single-token joins and exits: the 2022 generation equals StableMathBigInt, the 2021 one favours the pool by < 1e-15',
    (_name, pool) => {
      const v2 = new StableModel(toSpec(pool), '2022', pool.poolType === 'MetaStable');
      const v1 = modelOfType(toSpec(pool), { timestamp: 0 }) as StableModel;
      const state = v2.initialState();
      const sf = v2.scalingFactors;
      const up = state.balances.map((b, k) => mulDown(b, sf[k]!));
      const amp = v2.params.amp;
      const fee = v2.params.fee;
      for (let i = 0; i < up.length; i++) {
        for (const f of [1e-9, 1e-5, 0.01, 0.3, 2]) {
          const amountIn = (state.balances[i]! * BigInt(Math.round(f * 1e9))) / 1_000_000_000n;
          if (amountIn === 0n) continue;
          const amounts = up.map((_, k) => (k === i ? mulDown(amountIn, sf[k]!) : 0n));
          const refJoin = StableMathBigInt._calcBptOutGivenExactTokensIn(amp, [...up], amounts, state.totalSupply, fee);
          expect(v2.joinGivenIn(state, i, amountIn)).toBe(refJoin);
          const join1 = v1.joinGivenIn(state, i, amountIn);
          expect(join1 <= refJoin && refJoin - join1 <= refJoin / 10n ** 15n + 1n).toBe(true);

          const bptIn = (state.totalSupply * BigInt(Math.round(Math.min(f, 0.5) * 1e9))) / 1_000_000_000n;
          const refExit = divDown(
            StableMathBigInt._calcTokenOutGivenExactBptIn(amp, [...up], i, bptIn, state.totalSupply, fee),
            sf[i]!,
          );
          expect(v2.exitGivenIn(state, i, bptIn)).toBe(refExit);
          let exit1: bigint;
          try {
            exit1 = v1.exitGivenIn(state, i, bptIn);
          } catch (e) {
            // A 2021 pool recomputes its invariant after the exit, and on balances this lopsided
            // that iteration does not converge: the exit reverts (BAL#322 on the devnet's v1 pool).
            expect({ large: f >= 0.3, error: String(e) }).toMatchObject({
              large: true,
              error: expect.stringContaining('did not converge') as unknown,
            });
            continue;
          }
          expect(exit1 <= refExit && refExit - exit1 <= refExit / 10n ** 15n + 1n).toBe(true);
        }
      }
    },
  );
});
