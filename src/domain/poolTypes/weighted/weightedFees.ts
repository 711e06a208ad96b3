import { complement, divDown, divUp, mulDown, ONE, powDown, powUp } from '../../swap/math/fixedPoint';
import { Revert } from '../../swap/math/revert';

/**
 * The protocol fees a weighted pool (v2, v3, v4: WeightedPoolProtocolFees) charges around a join
 * or exit, as the contracts compute them, pure bigint. The three versions share the rule (v4 only
 * adds an event when the all-time high moves):
 *
 * - before: the invariant's growth since the last join or exit (`getLastPostJoinExitInvariant`)
 *   came from swap fees; the protocol's share of it (`getProtocolFeePercentageCache(0)`) is owed.
 *   A pool with at least one rate provider also owes its yield share
 *   (`getProtocolFeePercentageCache(2)`) of the growth of its rate product (each provider's
 *   `getRate()` to the power of its token's weight, multiplied; tokens without a provider count
 *   1) over its all-time high (`getATHRateProduct`), which then becomes the new high. Both
 *   percentages are added and minted as BPT on the supply in one division, and the join or exit
 *   is priced on the grown supply. A pool without any provider is exempt from yield fees.
 * - after: the join or exit's own swap fee (invariant growth beyond the supply's growth) is
 *   charged too, and the pool stores the post-join/exit invariant as the new basis. This changes
 *   the supply and basis after it, not what the join or exit pays.
 */

/** What the pool stored at its last join or exit, and its cached protocol fee percentages. */
export interface WeightedFeeBasis {
  /** Invariant after the last join or exit (18 decimals). */
  readonly lastInvariant: bigint;
  /** Cached protocol swap fee percentage (18-decimal fraction). */
  readonly swapPct: bigint;
  /** Pools paying yield fees (a rate provider): their yield fee basis. */
  readonly yield?: WeightedYieldBasis;
}

/** A weighted pool's yield fee basis: the all-time high rate product and the one now. */
export interface WeightedYieldBasis {
  /** `getATHRateProduct()` (18 decimals). */
  readonly athRateProduct: bigint;
  /** The providers' rate product now (`weightedRateProduct`). */
  readonly rateProduct: bigint;
  /** Cached protocol yield fee percentage (18-decimal fraction). */
  readonly yieldPct: bigint;
}

/**
 * WeightedPoolProtocolFees._getRateProduct: each token's rate to the power of its weight
 * (powDown, with the 2022 shortcuts), 1 for a token without a provider (null), multiplied down.
 */
export function weightedRateProduct(weights: readonly bigint[], rates: readonly (bigint | null)[]): bigint {
  let product = ONE;
  for (let k = 0; k < weights.length; k++) {
    const rate = rates[k];
    product = mulDown(product, rate === null || rate === undefined ? ONE : powDown(rate, weights[k]!, true));
  }
  return product;
}

/** WeightedMath._calculateInvariant (2022 on, `shortcuts`: powDown takes the exact shortcuts; 2021: none). */
export function weightedInvariant(weights: readonly bigint[], balances: readonly bigint[], shortcuts = true): bigint {
  let invariant = ONE;
  for (let k = 0; k < balances.length; k++)
    invariant = mulDown(invariant, powDown(balances[k]!, weights[k]!, shortcuts));
  if (invariant <= 0n) throw new Revert('zero invariant (BAL#311)');
  return invariant;
}

/** InvariantGrowthProtocolSwapFees.getProtocolOwnershipPercentage. */
function ownershipPercentage(invariantGrowth: bigint, supplyGrowth: bigint, pct: bigint): bigint {
  if (supplyGrowth >= invariantGrowth || pct === 0n) return 0n;
  return mulDown(ONE - divDown(supplyGrowth, invariantGrowth), pct);
}

/** ExternalFees.bptForPoolOwnershipPercentage: supply * p / (1 - p) in one integer division. */
function bptForOwnership(supply: bigint, percentage: bigint): bigint {
  const c = complement(percentage);
  if (c === 0n) throw new Revert('division by zero (BAL#004)');
  return (supply * percentage) / c;
}

/**
 * The yield part before a join or exit (`_getYieldProtocolFeesPoolPercentage`): the protocol's
 * share of the pool, and the new all-time high (undefined when the rate product did not pass it).
 */
export function yieldOwnership(y: WeightedYieldBasis | undefined): { percentage: bigint; newHigh?: bigint } {
  if (!y || y.rateProduct <= y.athRateProduct) return { percentage: 0n };
  if (y.athRateProduct === 0n) throw new Revert('division by zero (BAL#004)');
  return {
    percentage: ownershipPercentage(divDown(y.rateProduct, y.athRateProduct), ONE, y.yieldPct),
    newHigh: y.rateProduct,
  };
}

/**
 * BPT minted before a join or exit (`_getPreJoinExitProtocolFees`: the swap and yield parts),
 * given the invariant of the upscaled balances before it.
 */
export function preJoinExitFeeBpt(invariant: bigint, supply: bigint, basis: WeightedFeeBasis): bigint {
  if (basis.lastInvariant === 0n) throw new Revert('division by zero (BAL#004)');
  const swap = ownershipPercentage(divDown(invariant, basis.lastInvariant), ONE, basis.swapPct);
  return bptForOwnership(supply, swap + yieldOwnership(basis.yield).percentage);
}

/** BPT minted after a join or exit for its own swap fee (`_getPostJoinExitProtocolFees`). */
export function postJoinExitFeeBpt(
  preInvariant: bigint,
  postInvariant: bigint,
  preSupply: bigint,
  postSupply: bigint,
  swapPct: bigint,
): bigint {
  if (swapPct === 0n) return 0n;
  const pct = ownershipPercentage(divDown(postInvariant, preInvariant), divDown(postSupply, preSupply), swapPct);
  return bptForOwnership(postSupply, pct);
}

/** FixedPoint (2021).MIN_POW_BASE_FREE_EXPONENT: the lowest base the v1 due-fee power takes. */
const MIN_POW_BASE_FREE_EXPONENT = 7n * 10n ** 17n;

/**
 * Weighted v1 (2021 WeightedPool and WeightedPool2Tokens): the protocol's due swap fee, paid at a
 * join or exit out of the largest-weight token's upscaled balance rather than minted as BPT
 * (WeightedMath._calcDueTokenProtocolSwapFeeAmount): pct * balance * (1 - (last / now)^(1 / w)),
 * the base rounded up and floored at 0.7, the power without the 2022 shortcuts. `pct` is what the
 * Vault hands the pool, the ProtocolFeesCollector's swap fee percentage; zero with no growth.
 */
export function v1DueProtocolFee(
  balance: bigint,
  weight: bigint,
  lastInvariant: bigint,
  invariant: bigint,
  pct: bigint,
): bigint {
  if (pct === 0n || invariant <= lastInvariant) return 0n;
  let base = divUp(lastInvariant, invariant);
  if (base < MIN_POW_BASE_FREE_EXPONENT) base = MIN_POW_BASE_FREE_EXPONENT;
  const power = powUp(base, divDown(ONE, weight), false);
  return mulDown(mulDown(balance, complement(power)), pct);
}
