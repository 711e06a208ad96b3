import { complement, divDown, mulDown, ONE } from '../../swap/math/fixedPoint';
import { Revert } from '../../swap/math/revert';
import { calculateInvariant } from '../stable/stableMath';

/**
 * The protocol fees a ComposableStable pool charges around a join or exit (and so around a BPT
 * swap), as the contracts compute them, pure bigint:
 *
 * - before: the protocol's share of the swap fees and yield earned since the last join or exit,
 *   measured by invariants at the amp stored then (`lastAmp`) against the invariant stored then
 *   (`lastInvariant`), is minted as BPT; the join or exit is then priced on the grown supply.
 * - after: the protocol's share of the swap fee the join or exit itself charged is minted too, and
 *   the pool stores the post-join/exit invariant, the current amp and the current rates as the new
 *   basis. This changes nothing in the amount the join or exit pays, only the state after it.
 *
 * Rules by version (read from the contracts of each release):
 * - 'v1' (ComposableStable v1, 2022-09): per-token yield-fee exemptions; three growth invariants,
 *   deltas floored at zero. After a join/exit: fees from the invariant growth ratio against the
 *   supply growth ratio (InvariantGrowthProtocolSwapFees). Fee BPT from a percentage rounds twice
 *   (see bptForPoolOwnershipPercentage).
 * - 'v2' (v2 to v4): as v1 before; after, the "feeless invariant" form.
 * - 'v5' (v5 and v6, 2023-07 patch): no fee at all when the total growth invariant did not grow;
 *   the swap-fee growth invariant is clamped between the stored invariant and the total one; one
 *   exemption flag for every token with a rate provider. After a join/exit: as v2.
 *
 * All invariants use the 2022 StableMath.
 */

export type FeeRules = 'v1' | 'v2' | 'v5';

export function feeRulesOf(version: number): FeeRules {
  if (version <= 1) return 'v1';
  return version <= 4 ? 'v2' : 'v5';
}

/** What the pool stored at its last join or exit, and its cached protocol fee percentages. */
export interface FeeBasis {
  /** Amp (times 1000) at the last join or exit. */
  readonly lastAmp: bigint;
  /** Invariant after the last join or exit (18 decimals). */
  readonly lastInvariant: bigint;
  /** Cached protocol swap and yield fee percentages (18-decimal fractions). */
  readonly swapPct: bigint;
  readonly yieldPct: bigint;
}

/** A token's rate cache as far as fees go (tokens without the BPT, in the math's order). */
export interface FeeToken {
  /** Old rate (at the last join or exit); null for a token without a rate provider. */
  readonly oldRate: bigint | null;
  /** Current cached rate (the one in its scaling factor). */
  readonly currentRate: bigint;
  readonly exempt: boolean;
}

/** Solidity's Math.divDown: integer division that reverts on zero. */
function idiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new Revert('division by zero (BAL#004)');
  return a / b;
}

/** balance * oldRate / currentRate (ComposableStablePoolRates._adjustedBalance). */
function adjusted(balance: bigint, t: FeeToken): bigint {
  return t.oldRate === null ? balance : idiv(balance * t.oldRate, t.currentRate);
}

/** Balances with the yield since the last join or exit undone for the tokens `which` selects. */
function adjustedBalances(
  balances: readonly bigint[],
  tokens: readonly FeeToken[],
  which: (t: FeeToken) => boolean,
): bigint[] {
  return balances.map((b, k) => (which(tokens[k]!) ? adjusted(b, tokens[k]!) : b));
}

const sameArray = (a: readonly bigint[], b: readonly bigint[]) => a.every((v, k) => v === b[k]);

/**
 * The share of the pool (18-decimal fraction) the protocol is owed before a join or exit
 * (`_getProtocolPoolOwnershipPercentage`), with the total growth invariant it measured.
 * `balances` are the upscaled balances without the BPT.
 */
export function protocolOwnershipPercentage(
  rules: FeeRules,
  balances: readonly bigint[],
  tokens: readonly FeeToken[],
  basis: FeeBasis,
): { percentage: bigint; totalGrowthInvariant: bigint } {
  const inv = (b: readonly bigint[]) => calculateInvariant('2022', basis.lastAmp, b, true);
  const last = basis.lastInvariant;
  const hasProvider = (t: FeeToken) => t.oldRate !== null;
  let swapGrowth: bigint;
  let nonExemptGrowth: bigint;
  let totalGrowth: bigint;
  if (rules === 'v5') {
    totalGrowth = inv(balances);
    if (totalGrowth <= last) return { percentage: 0n, totalGrowthInvariant: totalGrowth };
    const forSwap = adjustedBalances(balances, tokens, hasProvider);
    swapGrowth = sameArray(forSwap, balances) ? totalGrowth : inv(forSwap);
    if (swapGrowth > totalGrowth) swapGrowth = totalGrowth;
    if (swapGrowth < last) swapGrowth = last;
    // One flag for the pool: a token with a rate provider is exempt exactly when the pool is.
    const exempt = tokens.some((t) => t.exempt);
    nonExemptGrowth = exempt ? swapGrowth : totalGrowth;
  } else {
    // The contract skips invariants it knows to be equal (no token or every token exempt); the
    // general form below computes the same numbers, since equal balances give equal invariants.
    const forSwap = adjustedBalances(balances, tokens, (t) => t.exempt || hasProvider(t));
    const forNonExempt = adjustedBalances(balances, tokens, (t) => t.exempt);
    totalGrowth = inv(balances);
    swapGrowth = sameArray(forSwap, balances) ? totalGrowth : inv(forSwap);
    nonExemptGrowth = sameArray(forNonExempt, balances)
      ? totalGrowth
      : sameArray(forNonExempt, forSwap)
        ? swapGrowth
        : inv(forNonExempt);
  }
  const swapDelta = swapGrowth > last ? swapGrowth - last : 0n;
  const yieldDelta = nonExemptGrowth > swapGrowth ? nonExemptGrowth - swapGrowth : 0n;
  const percentage =
    mulDown(divDown(swapDelta, totalGrowth), basis.swapPct) + mulDown(divDown(yieldDelta, totalGrowth), basis.yieldPct);
  return { percentage, totalGrowthInvariant: totalGrowth };
}

/**
 * BPT to mint so that it is `percentage` of the supply after minting: supply * p / (1 - p), in
 * one integer division from v2 on (ExternalFees); v1 rounds twice, through FixedPoint
 * (supply.mulDown(p).divDown(1 - p), the form ComposableStablePoolProtocolFees used in 2022-08/09
 * when v1 was built), which mints up to a wei less: measured against v1 pools on chain.
 */
export function bptForPoolOwnershipPercentage(supply: bigint, percentage: bigint, rules: FeeRules = 'v2'): bigint {
  if (rules === 'v1') return divDown(mulDown(supply, percentage), complement(percentage));
  return idiv(supply * percentage, complement(percentage));
}

/** Protocol fee BPT minted before a join or exit on `virtualSupply` (0 when nothing is due). */
export function dueProtocolFeeBpt(
  rules: FeeRules,
  balances: readonly bigint[],
  tokens: readonly FeeToken[],
  basis: FeeBasis,
  virtualSupply: bigint,
): bigint {
  const { percentage } = protocolOwnershipPercentage(rules, balances, tokens, basis);
  return bptForPoolOwnershipPercentage(virtualSupply, percentage, rules);
}

/**
 * Protocol fee BPT minted after a join or exit for the swap fee it charged
 * (`_updateInvariantAfterJoinExit`): `preInvariant` and `postInvariant` at the current amp,
 * supplies before (due fees included) and after the join or exit.
 */
export function protocolFeeAfterJoinExit(
  rules: FeeRules,
  preInvariant: bigint,
  postInvariant: bigint,
  preSupply: bigint,
  postSupply: bigint,
  swapPct: bigint,
): bigint {
  if (rules === 'v1') {
    const invariantGrowth = divDown(postInvariant, preInvariant);
    const supplyGrowth = divDown(postSupply, preSupply);
    if (supplyGrowth >= invariantGrowth || swapPct === 0n) return 0n;
    const feesPct = ONE - divDown(supplyGrowth, invariantGrowth);
    return bptForPoolOwnershipPercentage(postSupply, mulDown(feesPct, swapPct), rules);
  }
  const feeless = mulDown(preInvariant, divDown(postSupply, preSupply));
  if (postInvariant <= feeless) return 0n;
  const percentage = idiv((postInvariant - feeless) * swapPct, postInvariant);
  return percentage > 0n ? bptForPoolOwnershipPercentage(postSupply, percentage, rules) : 0n;
}
