/**
 * Search helpers for a model's `maxAmount`: the contract's own arithmetic decides, so a limit is
 * found by asking the model's swap whether it reverts, starting from a close estimate.
 */

/** Relative precision of a limit found by search: a limit bounds searches, it is never quoted. */
const PRECISION_BITS = 32n;

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
  while (lo > 0n && !ok(lo)) {
    hi = lo;
    lo /= 2n;
  }
  if (lo === 0n) return 0n;
  const tolerance = (lo >> PRECISION_BITS) + 1n;
  while (hi - lo > tolerance) {
    const mid = (lo + hi) / 2n;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
