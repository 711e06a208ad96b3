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

/**
 * A large amount in [0, candidate] at which `ok` holds (within 2^-32 of the largest), for an `ok`
 * that holds up to some bound and fails beyond it: `candidate` itself when it passes, else just
 * below it (a near miss is common), else halving down to a passing amount and bisecting the last
 * halving at the precision: ~log2(candidate / bound) + 32 calls instead of ~2 x 64.
 */
export function largestValid(candidate: bigint, ok: (amount: bigint) => boolean): bigint {
  if (candidate <= 0n) return 0n;
  if (ok(candidate)) return candidate;
  const near = candidate - (candidate >> PRECISION_BITS) - 1n;
  if (near > 0n && ok(near)) return near;
  let hi = near > 0n ? near : candidate;
  let lo = hi / 2n;
  for (let halvings = 0; lo > 0n && !ok(lo); halvings++) {
    // Past uint256: no amount the Vault takes passes, so nothing does.
    if (halvings === MAX_HALVINGS) return 0n;
    hi = lo;
    lo /= 2n;
  }
  if (lo === 0n) return 0n;
  const tolerance = (lo >> PRECISION_BITS) + 1n;
  // `lo` passes throughout, so stopping early only loses precision.
  for (let step = 0; step < MAX_BISECTIONS && hi - lo > tolerance; step++) {
    const mid = (lo + hi) / 2n;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
