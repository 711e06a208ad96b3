import { complement, divDown, divUp, mulDown, ONE, powUp } from '../math/fixedPoint';
import { Revert } from '../math/revert';
import { powDown } from '../math/weightedMath';

/**
 * The protocol swap fee a weighted pool (v2, v3, v4: WeightedPoolProtocolFees) charges around a
 * join or exit, as the contracts compute it, pure bigint. The three versions share the rule:
 *
 * - before: the invariant's growth since the last join or exit (`getLastPostJoinExitInvariant`)
 *   came from swap fees; the protocol's share of it (`getProtocolFeePercentageCache(0)`) is minted
 *   as BPT on the supply, and the join or exit is priced on the grown supply.
 * - after: the join or exit's own swap fee (invariant growth beyond the supply's growth) is
 *   charged too, and the pool stores the post-join/exit invariant as the new basis. This changes
 *   the supply and basis after it, not what the join or exit pays.
 *
 * Pools with rate providers also charge a yield fee from the growth of the weighted product of
 * their token rates over its all-time high (`getATHRateProduct`); the store does not carry the
 * current rates of a weighted pool's providers, so that part is not modelled (see README).
 */

/** What the pool stored at its last join or exit, and its cached protocol swap fee percentage. */
export interface WeightedFeeBasis {
  /** Invariant after the last join or exit (18 decimals). */
  readonly lastInvariant: bigint;
  /** Cached protocol swap fee percentage (18-decimal fraction). */
  readonly swapPct: bigint;
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
 * BPT minted before a join or exit (`_getPreJoinExitProtocolFees`, swap part), given the
 * invariant of the upscaled balances before it.
 */
export function preJoinExitFeeBpt(invariant: bigint, supply: bigint, basis: WeightedFeeBasis): bigint {
  if (basis.lastInvariant === 0n) throw new Revert('division by zero (BAL#004)');
  const pct = ownershipPercentage(divDown(invariant, basis.lastInvariant), ONE, basis.swapPct);
  return bptForOwnership(supply, pct);
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
