/** A buffer's raw balances, as `getBufferBalance` answers them. */
export interface BufferBalances {
  readonly underlying: bigint;
  readonly wrapped: bigint;
}

/** What a source's logs named in a range of blocks. */
export interface MovedInBlocks {
  /**
   * Pools whose state moved: ids of V2 pools the Vault's logs name, addresses of V3 pools, and
   * addresses of contracts that emitted a pool state event, each with the last block of a cash
   * change (-1 for the others: `readMovedPools`).
   */
  readonly pools: Map<string, number>;
  /** V2: the pools of `pools` that Vault `Swap` logs named and nothing else (no join, exit or event). */
  readonly swapsOnly: Set<string>;
  /** V3: wrapped tokens whose buffer the Vault's logs name. */
  readonly buffers: Set<string>;
  /**
   * V3: per wrapped token, the buffer's balances its last buffer log carries (every buffer event
   * emits the balances after it), which a read at or after that log's block must repeat; null
   * for a log whose data did not hold them.
   */
  readonly bufferBalances: Map<string, BufferBalances | null>;
  /** V3: pools registered in the range, address -> factory (lower case). */
  readonly registered: Map<string, string>;
  /** V3: buffers were paused or unpaused Vault-wide. */
  allBuffers: boolean;
}

export const nothingMoved = (): MovedInBlocks => ({
  pools: new Map(),
  swapsOnly: new Set(),
  buffers: new Set(),
  bufferBalances: new Map(),
  registered: new Map(),
  allBuffers: false,
});

/** `a` with `b`'s findings added. */
export function addMoved(a: MovedInBlocks, b: MovedInBlocks): MovedInBlocks {
  // Swaps alone in both ranges, or in one range and not named at all in the other.
  const alone = (m: MovedInBlocks, key: string) => !m.pools.has(key) || m.swapsOnly.has(key);
  const swapsOnly = [...a.swapsOnly, ...b.swapsOnly].filter((k) => alone(a, k) && alone(b, k));
  a.swapsOnly.clear();
  for (const k of swapsOnly) a.swapsOnly.add(k);
  for (const [p, block] of b.pools) a.pools.set(p, Math.max(block, a.pools.get(p) ?? -1));
  for (const t of b.buffers) a.buffers.add(t);
  // `b` is the later range: its last log wins.
  for (const [t, balances] of b.bufferBalances) a.bufferBalances.set(t, balances);
  for (const [p, f] of b.registered) a.registered.set(p, f);
  a.allBuffers ||= b.allBuffers;
  return a;
}
