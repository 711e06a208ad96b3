/**
 * Search helpers for a model's `maxAmount`: the contract's own arithmetic decides, so a limit is
 * found by asking the model's swap whether it reverts, starting from a close estimate.
 */

/**
 * The largest amount in [0, candidate] at which `ok` holds, for an `ok` that holds up to some
 * bound and fails beyond it: `candidate` itself when it passes, else stepping down from it by
 * doubling distances and bisecting the last step, so a near miss costs a few calls.
 */
export function largestValid(candidate: bigint, ok: (amount: bigint) => boolean): bigint {
  if (candidate <= 0n) return 0n;
  if (ok(candidate)) return candidate;
  let hi = candidate;
  let step = 1n;
  let lo = 0n;
  while (step < candidate) {
    const probe = candidate - step;
    if (ok(probe)) {
      lo = probe;
      break;
    }
    hi = probe;
    step *= 2n;
  }
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    if (ok(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
