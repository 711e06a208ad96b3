import type { StoredPool, StoredPoolToken } from '../pool';
import { dec, Exact, ZERO } from './exact';

/**
 * USD liquidity of one pool from its balances and token prices:
 * - the pool's own BPT (composable / phantom pools hold it) is excluded;
 * - all prices known: the sum of balance x price;
 * - weighted pools missing some prices: the known value scaled up by the weights
 *   (known value / share of weight that is priced);
 * - stable-like pools missing some prices: a missing token is priced at the mean of the known
 *   prices, each taken per unit of priceRate and scaled back by the missing token's own rate
 *   (with all rates 1 this is the plain mean);
 * - any other pool type missing prices: the sum of what is known;
 * - no price at all: undefined, so the caller keeps the previous value.
 */
export type LiquidityRule = 'complete' | 'weighted' | 'stable' | 'partial';

export interface PoolLiquidity {
  readonly total: Exact;
  /** USD value per token address (priced or imputed tokens only), for APR weighting. */
  readonly values: ReadonlyMap<string, Exact>;
  readonly rule: LiquidityRule;
}

/** Stable math pools and linear pools trade tokens of (rate-adjusted) equal value. */
export function isStableLike(poolType: string): boolean {
  return /stable|linear/i.test(poolType);
}

function positive(value: string | null): Exact | undefined {
  if (value === null) return undefined;
  const d = dec(value);
  return d.gt(0) ? d : undefined;
}

export function poolLiquidity(
  pool: StoredPool,
  priceOf: (address: string) => Exact | undefined,
): PoolLiquidity | undefined {
  const tokens = pool.tokens.filter((t) => t.address !== pool.address);
  const known: { token: StoredPoolToken; price: Exact }[] = [];
  const missing: StoredPoolToken[] = [];
  for (const token of tokens) {
    const price = priceOf(token.address);
    if (price === undefined) missing.push(token);
    else known.push({ token, price });
  }
  if (known.length === 0) return undefined;

  const values = new Map<string, Exact>();
  let knownSum = ZERO;
  for (const { token, price } of known) {
    const v = dec(token.balance).times(price);
    values.set(token.address, v);
    knownSum = knownSum.plus(v);
  }
  if (missing.length === 0) return { total: knownSum, values, rule: 'complete' };

  const weights = tokens.map((t) => positive(t.weight));
  if (weights.every((w) => w !== undefined)) {
    const all = weights.reduce<Exact>((s, w) => s.plus(w!), ZERO);
    const priced = known.reduce<Exact>((s, k) => s.plus(dec(k.token.weight!)), ZERO);
    return { total: knownSum.times(all).div(priced), values, rule: 'weighted' };
  }

  if (isStableLike(pool.poolType)) {
    const rate = (t: StoredPoolToken) => positive(t.priceRate) ?? dec(1);
    const perRate = known.reduce<Exact>((s, k) => s.plus(k.price.div(rate(k.token))), ZERO).div(known.length);
    let total = knownSum;
    for (const token of missing) {
      const v = dec(token.balance).times(perRate).times(rate(token));
      values.set(token.address, v);
      total = total.plus(v);
    }
    return { total, values, rule: 'stable' };
  }

  return { total: knownSum, values, rule: 'partial' };
}
