import { BufferModel } from '../../../../../src/domain/protocols/v3/engine/bufferModel';
import { V3PoolModel } from '../../../../../src/domain/protocols/v3/engine/v3PoolModel';
import { erc4626ByRate } from '../../../../../src/domain/protocols/v3/buffer/erc4626';
import { bufferWrapOrUnwrap } from '../../../../../src/domain/protocols/v3/buffer/wrapOrUnwrap';
import { vaultSwap } from '../../../../../src/domain/protocols/v3/vault/swap';
import type { V3Pool } from '../../../../../src/domain/protocols/v3/vault/v3Pool';
import { isRevert } from '../../../../../src/domain/swap/poolModel';
import { seededRandom } from '../../../../helpers/seededRandom';
import { loadV3Vector, swapTitle, type V3Vector } from '../../../../helpers/v3Vectors';
import { bufferOf, stablePool, stableVector, weightedPool, weightedVector } from '../../../../helpers/v3Universe';

/**
 * The engine's V3 models answer what the V3 Vault operations answer, which is what the chain
 * answered in the vectors; applied swaps leave the pool as the Vault leaves it.
 */

const kindOf = (k: 'exactIn' | 'exactOut') => (k === 'exactIn' ? 'givenIn' : 'givenOut');

function poolCases(name: string, vector: V3Vector, pool: () => V3Pool, decimals: number[]): void {
  describe(name, () => {
    const model = new V3PoolModel({ pool: pool(), decimals, poolType: vector.pool.poolType });

    test.each(vector.swaps.map((s) => [swapTitle(s), s] as const))('swap %s: model = Vault = chain', (_t, swap) => {
      const i = model.tokens.indexOf(swap.tokenIn.toLowerCase());
      const j = model.tokens.indexOf(swap.tokenOut.toLowerCase());
      const fromModel = model.swap(model.initialState(), kindOf(swap.kind), i, j, swap.amountRaw);
      const fromVault = vaultSwap(pool(), { ...swap, amountGivenRaw: swap.amountRaw }).amountCalculatedRaw;
      expect(fromModel).toBe(fromVault);
      expect(fromModel).toBe(swap.outputRaw);
    });

    test('a second swap prices on the balances the first left, as the Vault stores them', () => {
      const state = model.initialState();
      const amount = state.balances[0]! / 100n;
      const out = model.swap(state, 'givenIn', 0, 1, amount);
      model.apply(state, 0, 1, amount, out);
      const first = vaultSwap(pool(), {
        kind: 'exactIn',
        tokenIn: model.tokens[0]!,
        tokenOut: model.tokens[1]!,
        amountGivenRaw: amount,
      });
      const after: V3Pool = {
        ...pool(),
        state: { ...pool().state, balancesLiveScaled18: first.balancesLiveScaled18After },
      };
      const back = vaultSwap(after, {
        kind: 'exactOut',
        tokenIn: model.tokens[1]!,
        tokenOut: model.tokens[0]!,
        amountGivenRaw: amount,
      });
      expect(model.swap(state, 'givenOut', 1, 0, amount)).toBe(back.amountCalculatedRaw);
      // The untouched initial state still prices as before.
      expect(model.swap(model.initialState(), 'givenIn', 0, 1, amount)).toBe(out);
    });

    test('maxAmount is accepted, and well beyond it the Vault refuses', () => {
      const state = model.initialState();
      for (const kind of ['givenIn', 'givenOut'] as const) {
        const max = model.maxAmount(state, kind, 0, 1);
        expect(max).toBeGreaterThan(0n);
        expect(() => model.swap(state, kind, 0, 1, max)).not.toThrow();
        const beyond = kind === 'givenOut' ? state.balances[1]! + 1n : 2n ** 130n;
        let refused = false;
        try {
          model.swap(state, kind, 0, 1, beyond);
        } catch (e) {
          refused = isRevert(e);
        }
        expect(refused).toBe(true);
      }
    });

    test('swaps asked again, on copies and after applied trades, answer as the Vault on that state', () => {
      // The model keeps its results per Vault state: a stale one would show here as a wrong amount.
      const random = seededRandom(3);
      const states = [model.initialState()];
      const amounts = [1n, 2n, 3n].map((k) => (model.initialState().balances[0]! * k) / 1000n);
      let asked = 0;
      for (let step = 0; step < 300; step++) {
        const state = states[Math.floor(random() * states.length)]!;
        const [i, j] = random() < 0.5 ? [0, 1] : [1, 0];
        const kind = random() < 0.5 ? 'givenIn' : 'givenOut';
        const amount = amounts[Math.floor(random() * amounts.length)]! / (j === 0 ? 1n : 2n);
        const onVault = { ...pool(), state: state.vaultState };
        let expected: bigint | 'reverts';
        try {
          expected = vaultSwap(onVault, {
            kind: kind === 'givenIn' ? 'exactIn' : 'exactOut',
            tokenIn: model.tokens[i]!,
            tokenOut: model.tokens[j]!,
            amountGivenRaw: amount,
          }).amountCalculatedRaw;
        } catch (e) {
          if (!isRevert(e)) throw e;
          expected = 'reverts';
        }
        let got: bigint | 'reverts';
        try {
          got = model.swap(state, kind, i, j, amount);
        } catch (e) {
          if (!isRevert(e)) throw e;
          got = 'reverts';
        }
        expect(got).toBe(expected);
        if (got === 'reverts') continue;
        asked++;
        const roll = random();
        if (roll < 0.3) states.push(model.cloneState(state));
        else if (roll < 0.6) {
          const copy = model.cloneState(state);
          const [amountIn, amountOut] = kind === 'givenIn' ? [amount, got] : [got, amount];
          model.apply(copy, i, j, amountIn, amountOut);
          states.push(copy);
        }
      }
      expect(asked).toBeGreaterThan(200);
      expect(new Set(states.map((s) => s.vaultState)).size).toBeGreaterThan(10);
    });

    test('spot price is the small-trade price, fee included', () => {
      const state = model.initialState();
      const spot = model.spotPrice(state, 0, 1);
      const amount = state.balances[0]! / 100_000n;
      const out = model.swap(state, 'givenIn', 0, 1, amount);
      const price = Number(amount) / 10 ** decimals[0]! / (Number(out) / 10 ** decimals[1]!);
      expect(Math.abs(spot / price - 1)).toBeLessThan(1e-4);
    });
  });
}

poolCases(weightedVector.file, weightedVector, weightedPool, [6, 18]);
poolCases(stableVector.file, stableVector, stablePool, [6, 6]);

describe('buffer-manual.json: a buffer model wraps and unwraps as the Vault state and the chain', () => {
  const vector = loadV3Vector('buffer-manual.json');
  const [wrapped, underlying] = vector.pool.tokens as [string, string];
  const rate = vector.pool.big('rate');
  const buffer = bufferOf(wrapped, underlying, 2n ** 100n, 2n ** 100n);
  // The pre-launch Sepolia Vault priced buffers without the 1-wei guards.
  const models = [rate, rate + 1n].map(
    (r) => new BufferModel({ buffer, token: erc4626ByRate(r), decimals: [6, 6], pricing: 'unguarded' }),
  );

  test.each(vector.swaps.map((s) => [swapTitle(s), s] as const))('swap %s', (_t, swap) => {
    const answers = models.map((m, k) => {
      const i = m.tokens.indexOf(swap.tokenIn.toLowerCase());
      const fromModel = m.swap(m.initialState(), kindOf(swap.kind), i, 1 - i, swap.amountRaw);
      const vaultAnswer = bufferWrapOrUnwrap(
        buffer,
        erc4626ByRate(k === 0 ? rate : rate + 1n),
        { kind: swap.kind, tokenIn: swap.tokenIn, amountGivenRaw: swap.amountRaw },
        { pricing: 'unguarded' },
      );
      expect(fromModel).toBe(vaultAnswer.amountCalculatedRaw);
      return fromModel;
    });
    const [min, max] = answers[0]! <= answers[1]! ? answers : [answers[1]!, answers[0]!];
    expect(swap.outputRaw >= min! && swap.outputRaw <= max!).toBe(true);
  });

  test('a wrap the buffer cannot pay goes through the token, and past its maxDeposit is refused', () => {
    const short = bufferOf(wrapped, underlying, 1_000_000n, 1_000_000n);
    const model = new BufferModel({
      buffer: short,
      token: erc4626ByRate(rate, { maxDeposit: 5_000_000n }),
      decimals: [6, 6],
      pricing: 'unguarded',
    });
    const state = model.initialState();
    const max = model.maxAmount(state, 'givenIn', 1, 0);
    expect(max).toBeGreaterThan(1_000_000n);
    const out = model.swap(state, 'givenIn', 1, 0, max);
    model.apply(state, 1, 0, max, out);
    const vaultAnswer = bufferWrapOrUnwrap(
      short,
      erc4626ByRate(rate, { maxDeposit: 5_000_000n }),
      { kind: 'exactIn', tokenIn: underlying, amountGivenRaw: max },
      { pricing: 'unguarded' },
    );
    expect(vaultAnswer.fromBuffer).toBe(false);
    expect(state.balances).toEqual([
      vaultAnswer.bufferAfter.wrappedBalanceRaw,
      vaultAnswer.bufferAfter.underlyingBalanceRaw,
    ]);
    expect(() => model.swap(model.initialState(), 'givenIn', 1, 0, max + 1000n)).toThrow(/ERC4626ExceededMaxDeposit/);
  });
});
