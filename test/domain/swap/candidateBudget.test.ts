import { SwapEngine, type EngineRequest } from '../../../src/domain/swap/engine';
import { buildModels } from '../../../src/domain/swap/models';
import type { PoolSpec } from '../../../src/domain/swap/poolModel';

/**
 * The candidate paths an engine keeps per token pair are bounded in total (a quote thread holds
 * a lineage per chain and vault, and unbounded lists grew every thread by hundreds of MiB under a quote
 * load): the least recently asked pair goes first, a pair asked again keeps its list, and a pair
 * dropped is searched again to the same answer.
 */

const TOKENS = Array.from({ length: 7 }, (_, i) => `0x${(0xa0 + i).toString(16).padStart(40, '0')}`);

/** Two pools on every pair of the 7 tokens: every pair has direct, two- and three-hop paths. */
function universe(): PoolSpec[] {
  const specs: PoolSpec[] = [];
  let n = 0;
  for (let a = 0; a < TOKENS.length; a++)
    for (let b = a + 1; b < TOKENS.length; b++)
      for (const fee of ['0.003', '0.01']) {
        const address = `0x${(++n).toString(16).padStart(40, '0')}`;
        specs.push({
          id: `${address}0002${'0'.repeat(20)}`,
          address,
          poolType: 'Weighted',
          poolTypeVersion: 2,
          swapFee: fee,
          totalShares: '1000',
          tokens: [TOKENS[a]!, TOKENS[b]!].map((t, k) => ({
            address: t,
            balance: String(1000 + 37 * n + 11 * k),
            decimals: 18,
            weight: '0.5',
            priceRate: '1',
          })),
        });
      }
  return specs;
}

const engineWith = (budget?: number | (() => number)) =>
  new SwapEngine(buildModels(universe(), { timestamp: 0 }).models, undefined, { candidateBudget: budget });

const sell = (tokenIn: string, tokenOut: string): EngineRequest => ({
  tokenIn,
  tokenOut,
  kind: 'sell',
  amount: 10n ** 18n,
  gasPerSwap: () => 0n,
});

const pairs = TOKENS.flatMap((a) => TOKENS.filter((b) => b !== a).map((b) => [a, b] as const));

describe('candidate paths kept per engine', () => {
  const budget = 300;
  const perPair = engineWith().candidates(TOKENS[0]!, TOKENS[1]!).length;

  it('holds at most the budget over every pair asked', () => {
    expect(perPair * pairs.length).toBeGreaterThan(budget * 2); // the bound is reached
    const engine = engineWith(budget);
    for (const [a, b] of pairs) {
      engine.route(sell(a, b));
      expect(engine.heldCandidates).toBeLessThanOrEqual(budget);
    }
    expect(engine.heldCandidates).toBeGreaterThan(budget - perPair * 2);
  });

  it('keeps the list of a pair asked all along and drops the one asked long ago', () => {
    const engine = engineWith(budget);
    const [hotIn, hotOut] = pairs[0]!;
    const hot = engine.candidates(hotIn, hotOut);
    const [coldIn, coldOut] = pairs[1]!;
    const cold = engine.candidates(coldIn, coldOut);
    for (const [a, b] of pairs.slice(2)) {
      engine.candidates(a, b);
      expect(engine.candidates(hotIn, hotOut)).toBe(hot);
    }
    expect(engine.candidates(coldIn, coldOut)).not.toBe(cold);
    expect(engine.candidates(coldIn, coldOut)).toEqual(cold);
  });

  it('shrinks to a budget read anew, as a thread shares it with a chain that comes later', () => {
    let share = budget * 2;
    const engine = engineWith(() => share);
    for (const [a, b] of pairs) engine.route(sell(a, b));
    expect(engine.heldCandidates).toBeGreaterThan(budget);
    share = budget / 2;
    engine.route(sell(pairs[0]![0], pairs[0]![1]));
    expect(engine.heldCandidates).toBeLessThanOrEqual(budget / 2);
  });

  it('answers a pair searched again exactly as before', () => {
    const bounded = engineWith(budget);
    const unbounded = engineWith();
    const first = pairs.map(([a, b]) => bounded.route(sell(a, b))?.returnAmount);
    // The first pairs' lists were dropped long ago: searched again.
    const again = pairs.slice(0, 6).map(([a, b]) => bounded.route(sell(a, b))?.returnAmount);
    const reference = pairs.map(([a, b]) => unbounded.route(sell(a, b))?.returnAmount);
    expect(first.every((x) => x !== undefined && x > 0n)).toBe(true);
    expect(again).toEqual(first.slice(0, 6));
    expect(first).toEqual(reference);
  });
});
