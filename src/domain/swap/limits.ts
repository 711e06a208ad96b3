/**
 * Search helpers for a model's `maxAmount`: the contract's own arithmetic decides, so a limit is
 * found by asking the model's swap whether it reverts, starting from a close estimate.
 */

/** Relative precision of a limit found by search: a limit bounds searches, it is never quoted. */
const PRECISION_BITS = 32n;
/**
 * Caps on the two loops below, out of reach for any uint256 amount (at most 256 halvings; the
 * bisection of one halving needs ~33 steps): they keep a limit search finite by construction.
 */
const MAX_HALVINGS = 256;
const MAX_BISECTIONS = 128;

/** The gap below which two amounts are the same limit: 2^-32 of the amount, and at least 1. */
const tolerance = (amount: bigint): bigint => (amount >> PRECISION_BITS) + 1n;

/** One step of the precision below `amount`: where a limit the contract's rounding just misses passes. */
export const justBelow = (amount: bigint): bigint => amount - tolerance(amount);

/**
 * A large amount in [0, candidate] at which `ok` holds (within 2^-32 of the largest), for an `ok`
 * that holds up to some bound and fails beyond it: `candidate` itself when it passes, else just
 * below it (a near miss is common), else halving down to a passing amount and bisecting the last
 * halving at the precision: ~log2(candidate / bound) + 32 calls instead of ~2 x 64.
 *
 * `guess`, asked only when the candidate and its near miss fail, is a closer estimate (a pool's
 * limit on the other side of the swap, carried over). It is taken when it passes and one step
 * of the precision above it fails, and the step below it when that passes and it fails: the
 * bound then lies between the two. Otherwise the search runs as without it, below the guess when
 * the guess failed.
 */
export function largestValid(
  candidate: bigint,
  ok: (amount: bigint) => boolean,
  guess?: () => bigint | undefined,
): bigint {
  if (candidate <= 0n) return 0n;
  if (ok(candidate)) return candidate;
  const near = justBelow(candidate);
  if (near > 0n && ok(near)) return near;
  let hi = near > 0n ? near : candidate;
  const g = guess?.();
  if (g !== undefined && g > 0n && g < hi) {
    if (ok(g)) {
      const above = g + tolerance(g);
      // Far below the bound, the guess says little: the search below runs from the top.
      if (above >= hi || !ok(above)) return g;
    } else {
      const below = justBelow(g);
      if (below > 0n && ok(below)) return below;
      hi = below > 0n ? below : g;
    }
  }
  let lo = hi / 2n;
  for (let halvings = 0; lo > 0n && !ok(lo); halvings++) {
    // Past uint256: no amount the Vault takes passes, so nothing does.
    if (halvings === MAX_HALVINGS) return 0n;
    hi = lo;
    lo /= 2n;
  }
  if (lo === 0n) return 0n;
  const within = tolerance(lo);
  // `lo` passes throughout, so stopping early only loses precision.
  for (let step = 0; step < MAX_BISECTIONS && hi - lo > within; step++) {
    const mid = (lo + hi) / 2n;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
