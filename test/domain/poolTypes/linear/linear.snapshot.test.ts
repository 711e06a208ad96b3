import { bnum, parseToPoolsDict, type SubgraphPoolBase } from '@balancer-labs/sor';
import { createLinearModel, type LinearModel } from '../../../../src/domain/poolTypes/linear/linearModel';
import type { SwapKind } from '../../../../src/domain/swap/poolModel';
import { describeWithSnapshot } from '../../../helpers/snapshot';
import { human, snapshotPools, toSpec } from '../../../helpers/snapshotSpecs';

/**
 * The linear pool model against the reference SOR's LinearPool on the mainnet snapshot's linear
 * pools (6 AaveLinear, 3 ERC4626Linear): every pair among main, wrapped and BPT, both kinds, amounts
 * from a billionth to 90% of the balance the swap draws on, up to what the pool accepts.
 *
 * Where the two may differ, the contract is the truth:
 * - The SOR applies the wrapped token's rate inside the math at 18 decimals (divUpFixed(delta,
 *   rate)); LinearPool folds the rate into the wrapped token's scaling factor (10^(18-d) * rate,
 *   rounded down once) and scales amounts with it, so the two can part in the last raw unit.
 * - The SOR derives the virtual supply as 2^112 - 1 minus the BPT balance; the model takes the
 *   stored totalShares (the snapshot's bb-a-USDC differs by 1e6 wei of BPT, ~1e-20 relative).
 * So they must agree to 2 raw units, or to 1e-12 relative on BPT amounts of 1e26 wei and more.
 */
const FRACTIONS = [1e-9, 1e-6, 1e-3, 0.01, 0.1, 0.5, 0.9];

function fraction(raw: bigint, f: number): bigint {
  return (raw * BigInt(Math.round(f * 1e9))) / 1_000_000_000n;
}

describeWithSnapshot('linear pool model vs the reference SOR on the mainnet snapshot', () => {
  const pools = snapshotPools((t) => t.endsWith('Linear'));
  const dict = parseToPoolsDict(pools as unknown as SubgraphPoolBase[], 0);

  test('the snapshot holds the linear pools this suite compares', () => {
    expect(pools.filter((p) => p.poolType === 'AaveLinear')).toHaveLength(6);
    expect(pools.filter((p) => p.poolType === 'ERC4626Linear')).toHaveLength(3);
  });

  test.each(pools.map((p) => [`${p.poolType} ${p.id.slice(0, 10)}`, p] as const))(
    '%s: every pair and kind within 2 raw units of the SOR',
    (_name, pool) => {
      const model = createLinearModel(toSpec(pool), { timestamp: 0 }) as LinearModel;
      const sor = dict[pool.id] as unknown as {
        parsePoolPairData(a: string, b: string): unknown;
        _exactTokenInForTokenOut(pd: unknown, amount: ReturnType<typeof bnum>): ReturnType<typeof bnum>;
        _tokenInForExactTokenOut(pd: unknown, amount: ReturnType<typeof bnum>): ReturnType<typeof bnum>;
      };
      const state = model.initialState();
      const virtualSupply = state.totalSupply - state.balances[model.bptIndex]!;
      // The amount a swap draws on: the given token's balance (given in) or the paid token's (given
      // out); for BPT the circulating (virtual) supply rather than the Vault's pre-minted balance.
      const reference = (k: number) => (k === model.bptIndex ? virtualSupply : state.balances[k]!);
      let compared = 0;
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          if (i === j) continue;
          const pairData = sor.parsePoolPairData(model.tokens[i]!, model.tokens[j]!);
          for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
            const given = kind === 'givenIn' ? i : j;
            const result = kind === 'givenIn' ? j : i;
            // Beyond the largest amount the pool accepts (e.g. more wrapped out than it holds) the
            // contract reverts where the SOR still answers; the edge-case suite covers those.
            const max = model.maxAmount(state, kind, i, j);
            for (const f of FRACTIONS) {
              const amount = fraction(reference(given), f);
              if (amount === 0n || amount > max) continue;
              const ours = model.swap(state, kind, i, j, amount);
              const humanAmount = bnum(human(amount, model.decimals[given]!));
              const ref =
                kind === 'givenIn'
                  ? sor._exactTokenInForTokenOut(pairData, humanAmount)
                  : sor._tokenInForExactTokenOut(pairData, humanAmount);
              const refRaw = BigInt(ref.times(bnum(10).pow(model.decimals[result]!)).integerValue(1).toFixed(0));
              const diff = ours > refRaw ? ours - refRaw : refRaw - ours;
              const tolerance = (refRaw * 1_000n) / 10n ** 15n;
              expect({ i, j, kind, f, ours, within: diff <= 2n || diff <= tolerance }).toEqual({
                i,
                j,
                kind,
                f,
                ours,
                within: true,
              });
              expect(ours > 0n).toBe(refRaw > 0n);
              compared++;
            }
          }
        }
      }
      // Pools with an empty wrapped balance still trade main <-> BPT and main -> wrapped.
      expect(compared).toBeGreaterThan(20);
    },
  );
});
