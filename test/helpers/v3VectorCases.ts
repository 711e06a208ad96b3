import { V3PoolModel } from '../../src/domain/protocols/v3/engine/v3PoolModel';
import { vaultAddLiquidity } from '../../src/domain/protocols/v3/vault/addLiquidity';
import { vaultRemoveLiquidity } from '../../src/domain/protocols/v3/vault/removeLiquidity';
import { vaultSwap } from '../../src/domain/protocols/v3/vault/swap';
import type { V3Pool } from '../../src/domain/protocols/v3/vault/v3Pool';
import { largestValid } from '../../src/domain/swap/limits';
import { mulDown } from '../../src/domain/swap/math/fixedPoint';
import { isRevert } from '../../src/domain/swap/poolModel';
import { swapTitle, type V3Vector } from './v3Vectors';

/**
 * Registers one test per operation of a vector against a pool built from it: swaps and removes
 * must be the chain's answers exactly (swaps through the routing engine's model of the pool too,
 * `V3PoolModel`); adds within 1 wei, because the vector's live balances were read rounded down
 * while the Vault loads them rounded up for an add.
 */
export function vectorCases(vector: V3Vector, pool: V3Pool): void {
  const swaps = vector.swaps.map((s) => [swapTitle(s), s] as const);
  const model = new V3PoolModel({
    pool,
    // 10^(18 - decimals) per token.
    decimals: pool.state.scalingFactors.map((f) => 18 - (f.toString().length - 1)),
    poolType: vector.pool.poolType,
  });
  const adds = vector.adds.map((a) => [`${a.kind} ${a.inputAmountsRaw.join(', ')}`, a] as const);
  const removes = vector.removes.map((r) => [`${r.kind} ${r.bptInRaw} BPT, ${r.amountsOutRaw.join(', ')}`, r] as const);

  if (swaps.length > 0) {
    test.each(swaps)('swap %s: the chain query exactly', (_t, swap) => {
      const result = vaultSwap(pool, {
        kind: swap.kind,
        tokenIn: swap.tokenIn,
        tokenOut: swap.tokenOut,
        amountGivenRaw: swap.amountRaw,
      });
      expect(result.amountCalculatedRaw).toBe(swap.outputRaw);
      // The routing engine's model of the pool answers the same through the same Vault operations.
      const i = model.tokens.indexOf(swap.tokenIn.toLowerCase());
      const j = model.tokens.indexOf(swap.tokenOut.toLowerCase());
      const kind = swap.kind === 'exactIn' ? 'givenIn' : 'givenOut';
      expect(model.swap(model.initialState(), kind, i, j, swap.amountRaw)).toBe(swap.outputRaw);
    });
  }

  test("maxAmount, each pair and kind: the Vault takes it, and it is the Vault's limit (or the type's cap) to 2^-32", () => {
    const state = model.initialState();
    const ratio = pool.math.maxSwapRatio;
    for (const [i, j] of pairsOf(model.tokens.length)) {
      for (const kind of ['givenIn', 'givenOut'] as const) {
        const max = model.maxAmount(state, kind, i, j);
        if (max === 0n) continue;
        const takes = (amount: bigint): boolean => {
          try {
            vaultSwap(pool, {
              kind: kind === 'givenIn' ? 'exactIn' : 'exactOut',
              tokenIn: model.tokens[i]!,
              tokenOut: model.tokens[j]!,
              amountGivenRaw: amount,
            });
            return true;
          } catch (e) {
            if (isRevert(e)) return false;
            throw e;
          }
        };
        expect(takes(max)).toBe(true);
        // The Vault's own limit, by a plain search from the widest amount, with no estimate.
        const widest = kind === 'givenIn' ? 2n ** 128n - 1n - state.balances[i]! : state.balances[j]! - 1n;
        const limit = largestValid(widest, takes);
        const cap =
          ratio && mulDown(state.balances[kind === 'givenIn' ? i : j]!, kind === 'givenIn' ? ratio.in : ratio.out);
        const bound = cap !== undefined && cap < limit ? cap : limit;
        const gap = max > bound ? max - bound : bound - max;
        expect(gap <= 2n * ((bound >> 32n) + 1n)).toBe(true);
      }
    }
  });

  if (adds.length > 0) {
    test.each(adds)('add %s: the chain query within 1 wei', (_t, add) => {
      if (add.kind === 'Unbalanced') {
        const result = vaultAddLiquidity(pool, {
          kind: 'unbalanced',
          maxAmountsInRaw: add.inputAmountsRaw,
          minBptAmountOut: 0n,
        });
        expect(result.amountsInRaw).toEqual(add.inputAmountsRaw);
        expectWithinOneWei(result.bptAmountOut, add.bptOutRaw);
      } else {
        // The chain's amount in is the limit here, plus the wei the answers may differ by.
        const limits = add.inputAmountsRaw.map((a) => (a === 0n ? 0n : a + 1n));
        const result = vaultAddLiquidity(pool, {
          kind: 'singleTokenExactOut',
          maxAmountsInRaw: limits,
          minBptAmountOut: add.bptOutRaw,
        });
        expect(result.bptAmountOut).toBe(add.bptOutRaw);
        result.amountsInRaw.forEach((a, i) => expectWithinOneWei(a, add.inputAmountsRaw[i]!));
      }
    });
  }

  if (removes.length > 0) {
    test.each(removes)('remove %s: the chain query exactly', (_t, remove) => {
      switch (remove.kind) {
        case 'Proportional': {
          const minAmountsOutRaw = remove.amountsOutRaw.map(() => 0n);
          const result = vaultRemoveLiquidity(pool, {
            kind: 'proportional',
            maxBptAmountIn: remove.bptInRaw,
            minAmountsOutRaw,
          });
          expect(result.amountsOutRaw).toEqual(remove.amountsOutRaw);
          break;
        }
        case 'SingleTokenExactIn': {
          // A min of 1 names the token out without constraining its amount.
          const minAmountsOutRaw = remove.amountsOutRaw.map((a) => (a === 0n ? 0n : 1n));
          const result = vaultRemoveLiquidity(pool, {
            kind: 'singleTokenExactIn',
            maxBptAmountIn: remove.bptInRaw,
            minAmountsOutRaw,
          });
          expect(result.amountsOutRaw).toEqual(remove.amountsOutRaw);
          break;
        }
        case 'SingleTokenExactOut': {
          const result = vaultRemoveLiquidity(pool, {
            kind: 'singleTokenExactOut',
            maxBptAmountIn: pool.state.totalSupply,
            minAmountsOutRaw: remove.amountsOutRaw,
          });
          expect(result.bptAmountIn).toBe(remove.bptInRaw);
          expect(result.amountsOutRaw).toEqual(remove.amountsOutRaw);
          break;
        }
      }
    });
  }
}

function pairsOf(n: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) out.push([i, j]);
  return out;
}

function expectWithinOneWei(actual: bigint, chain: bigint): void {
  const diff = actual > chain ? actual - chain : chain - actual;
  if (diff > 1n) throw new Error(`expected ${actual} within 1 wei of the chain's ${chain} (off by ${diff})`);
}
