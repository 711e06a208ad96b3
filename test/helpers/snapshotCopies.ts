import { MAINNET } from './snapshot';

/**
 * A larger universe from the mainnet snapshot: `copies` copies of its pools in which every token
 * but the hubs (WETH, DAI, USDC, USDT, WBTC, BAL, wstETH) and every pool id and address gets a
 * copy of its own, so the copies meet at the hubs: ten copies make 3,720 pools whose hub pairs
 * have ten pools each, as a chain whose pools all trade against the same few tokens. Copy 0 is
 * the snapshot itself. Works on the subgraph's pool shape (`loadSnapshotPools`).
 */
export function snapshotCopies<T>(pools: readonly T[], copies: number): T[] {
  const hubs = new Set<string>(Object.values(MAINNET));
  const out: T[] = [];
  for (let c = 0; c < copies; c++) {
    const prefix = c.toString(16).padStart(2, '0');
    const map = (a: unknown) =>
      typeof a !== 'string' || c === 0 || hubs.has(a.toLowerCase()) ? a : `0x${prefix}${a.slice(4)}`;
    for (const p of pools) {
      const pool = p as Record<string, unknown> & { tokens: Record<string, unknown>[] };
      out.push({
        ...pool,
        id: map(pool.id),
        address: map(pool.address),
        tokens: pool.tokens.map((t) => ({ ...t, address: map(t.address) })),
        ...(Array.isArray(pool.tokensList) ? { tokensList: (pool.tokensList as unknown[]).map(map) } : {}),
        ...(pool.principalToken ? { principalToken: map(pool.principalToken) } : {}),
        ...(pool.baseToken ? { baseToken: map(pool.baseToken) } : {}),
      } as T);
    }
  }
  return out;
}
