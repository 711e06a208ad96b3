import { bnum, parseToPoolsDict, type SubgraphPoolBase } from '@balancer-labs/sor';
import { createElementModel, type ElementModel } from '../../../../src/domain/poolTypes/element/elementModel';
import { Revert, type SwapKind } from '../../../../src/domain/swap/poolModel';
import { describeWithSnapshot } from '../../../helpers/snapshot';
import { human, snapshotPools, toSpec, type SnapshotPool } from '../../../helpers/snapshotSpecs';

/**
 * The Element (ConvergentCurvePool) model against the reference SOR's ElementPool on the mainnet
 * snapshot's 27 Element pools, both directions and kinds, at four moments of each pool's life
 * (2%, 30% and 90% of unitSeconds before expiry, and just after it), amounts from a millionth to
 * 30% of the balance the swap draws on.
 *
 * The SOR is a float estimate; the model is the contract's 18-decimal arithmetic. They must agree
 * to 1e-7 of the SOR's figure plus two raw units of truncation, plus the SOR's float error (it
 * subtracts powers of whole reserves, so its absolute error scales with them). Where the SOR deviates from the
 * contract, the contract is the truth:
 * - The SOR adds the LP supply (18 decimals) to the principal token's raw balance in that token's
 *   own decimals, so for 6- and 8-decimal principal tokens it counts the supply 10^12 or 10^10
 *   times over; the contract normalises the balance to 18 decimals first. The SOR here is given
 *   the supply rescaled to the token's decimals, which makes its sum the contract's.
 * - The SOR takes the absolute value of the implied yield when charging the fee; the contract
 *   underflows (reverts) when a trade's implied yield is negative. After expiry the curve is
 *   constant-sum (and a one-wei trade has no yield to speak of), so the contract's pow rounding
 *   decides the sign of a zero yield: the model may revert only where the SOR's answer is the
 *   amount itself, within the SOR's float error.
 */
const FRACTIONS = [1e-6, 1e-4, 1e-2, 0.1, 0.3];
const MOMENTS = [0.02, 0.3, 0.9, -0.01];

function fraction(raw: bigint, f: number): bigint {
  return (raw * BigInt(Math.round(f * 1e9))) / 1_000_000_000n;
}

type SorElement = {
  parsePoolPairData(a: string, b: string): unknown;
  _exactTokenInForTokenOut(pd: unknown, amount: ReturnType<typeof bnum>): ReturnType<typeof bnum>;
  _tokenInForExactTokenOut(pd: unknown, amount: ReturnType<typeof bnum>): ReturnType<typeof bnum>;
};

function referencePool(pool: SnapshotPool, timestamp: number): SorElement {
  const decimals = Number(pool.tokens.find((t) => t.address === pool.principalToken)!.decimals);
  const supplyRaw =
    BigInt(pool.totalShares.replace('.', '').replace(/^0+(?=\d)/, '')) *
    10n ** BigInt(18 - (pool.totalShares.split('.')[1]?.length ?? 0));
  // The supply in the principal token's decimals, so the SOR's raw sum equals the contract's (to
  // less than one raw unit of that token).
  const rescaled = { ...pool, totalShares: human(supplyRaw / 10n ** BigInt(18 - decimals), 18) };
  return parseToPoolsDict([rescaled] as unknown as SubgraphPoolBase[], timestamp)[pool.id] as unknown as SorElement;
}

describeWithSnapshot('element pool model vs the reference SOR on the mainnet snapshot', () => {
  const pools = snapshotPools((t) => t === 'Element');

  test('the snapshot holds 27 Element pools', () => {
    expect(pools).toHaveLength(27);
  });

  test.each(pools.map((p) => [p.id.slice(0, 10), p] as const))(
    '%s: both directions and kinds agree with the SOR over its life',
    (_name, pool) => {
      let compared = 0;
      for (const moment of MOMENTS) {
        const timestamp = Number(pool.expiryTime) - Math.floor(Number(pool.unitSeconds) * moment);
        const model = createElementModel(toSpec(pool), { timestamp }) as ElementModel;
        const sor = referencePool(pool, timestamp);
        const state = model.initialState();
        // The SOR subtracts float powers of whole reserves: its absolute error grows with them.
        const floatNoise =
          1e-14 * (Number(pool.totalShares) + pool.tokens.reduce((sum, t) => sum + Number(t.balance), 0));
        for (const [i, j] of [
          [0, 1],
          [1, 0],
        ] as const) {
          const pairData = sor.parsePoolPairData(model.tokens[i]!, model.tokens[j]!);
          for (const kind of ['givenIn', 'givenOut'] as SwapKind[]) {
            const given = kind === 'givenIn' ? i : j;
            const result = kind === 'givenIn' ? j : i;
            const max = model.maxAmount(state, kind, i, j);
            for (const f of FRACTIONS) {
              const amount = fraction(state.balances[given]!, f);
              if (amount === 0n || amount > max) continue;
              const humanAmount = bnum(human(amount, model.decimals[given]!));
              const ref = Number(
                (kind === 'givenIn'
                  ? sor._exactTokenInForTokenOut(pairData, humanAmount)
                  : sor._tokenInForExactTokenOut(pairData, humanAmount)
                ).toString(),
              );
              const unit = 10 ** -model.decimals[result]!;
              let ours: number;
              try {
                ours = Number(model.swap(state, kind, i, j, amount)) * unit;
              } catch (e) {
                if (!(e instanceof Revert)) throw e;
                // Only a zero implied yield may revert: the SOR answers the amount itself.
                const given = Number(humanAmount.toString());
                expect({ moment, kind, f, zeroYield: Math.abs(ref - given) <= 1e-7 * given + 2 * unit }).toEqual({
                  moment,
                  kind,
                  f,
                  zeroYield: true,
                });
                continue;
              }
              const close = Math.abs(ours - ref) <= 1e-7 * Math.abs(ref) + 2 * unit + floatNoise;
              expect({ moment, i, j, kind, f, ours, close }).toEqual({ moment, i, j, kind, f, ours, close: true });
              compared++;
            }
          }
        }
      }
      expect(compared).toBeGreaterThan(20);
    },
  );
});
