import type { StoredPool } from '../pool';

/**
 * Orders pools so that a pool comes after every pool whose BPT it holds (a boosted pool after its
 * linear pools), which lets one pass price nested BPTs from already computed liquidity. A cycle
 * (A holds B's BPT and B holds A's) is cut where it is found: the later pool in the cycle is then
 * priced from the other's previous liquidity.
 */
export function dependencyOrder(pools: readonly StoredPool[]): StoredPool[] {
  const byAddress = new Map(pools.map((p) => [p.address, p]));
  const seen = new Set<string>();
  const out: StoredPool[] = [];
  // Iterative depth-first walk: nesting chains in synthetic data can be deeper than the call stack.
  for (const root of pools) {
    if (seen.has(root.id)) continue;
    seen.add(root.id);
    const stack: { pool: StoredPool; next: number }[] = [{ pool: root, next: 0 }];
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      const token = top.pool.tokens[top.next];
      if (token === undefined) {
        stack.pop();
        out.push(top.pool);
        continue;
      }
      top.next += 1;
      if (token.address === top.pool.address) continue;
      const dep = byAddress.get(token.address);
      if (!dep || seen.has(dep.id)) continue;
      seen.add(dep.id);
      stack.push({ pool: dep, next: 0 });
    }
  }
  return out;
}
