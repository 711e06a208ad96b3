import { divDown } from '../../../../swap/math/fixedPoint';

/**
 * StableSurgeMedianMath: how far a pool's balances are from their median, as a share of their sum
 * (18 decimals). The median of an even count is the floor of the mean of the middle two.
 */
export function imbalance(balances: readonly bigint[]): bigint {
  const sorted = [...balances].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 0 ? (sorted[mid - 1]! + sorted[mid]!) / 2n : sorted[mid]!;
  let total = 0n;
  let totalDiff = 0n;
  for (const b of balances) {
    total += b;
    totalDiff += b > median ? b - median : median - b;
  }
  return divDown(totalDiff, total);
}
