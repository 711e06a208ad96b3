import { isDeepStrictEqual } from 'node:util';
import { normalizePool, NormalizeResult } from '../domain/normalizePool';
import { carryDecoration, DECORATION_FIELDS, PoolCore, PoolHistoryPoint, StoredPool } from '../domain/pool';
import { discoverTokens } from '../domain/poolTokens';
import { impossibleChange } from '../domain/poolValues';
import type { ChainChange } from '../store/Store';

/**
 * Pure planning step shared by the pool-update job and `npm run seed`: normalize fetched pools,
 * diff them against the stored ones, and describe the one change to commit.
 */
export interface PoolUpdatePlan {
  readonly change: ChainChange;
  readonly fetched: number;
  readonly written: number;
  readonly removed: number;
  readonly skipped: readonly { readonly id: string; readonly error: string }[];
  readonly tokensAdded: number;
}

export interface PlanOptions {
  /** Unix seconds of this run (history timestamp). */
  readonly nowSeconds: number;
  /**
   * Remove stored pools the source no longer lists (only after a complete fetch); a predicate names
   * the stored pools a complete fetch covered (one protocol's catalogue read in full, the other's not).
   */
  readonly removeMissing: boolean | ((pool: StoredPool) => boolean);
  /** Normalizer to use instead of `normalizePool` (e.g. one that remembers unchanged pools). */
  readonly normalize?: (raw: unknown) => NormalizeResult;
}

/**
 * True when the stored pool's subgraph-owned fields equal the fresh ones. A structural comparison
 * rather than comparing serialized forms: on a no-change run over 10,000 pools, building two sorted
 * JSON strings per pool was most of the run's time.
 */
function sameCore(stored: StoredPool, core: PoolCore): boolean {
  const copy: Record<string, unknown> = { ...stored };
  for (const f of DECORATION_FIELDS) delete copy[f];
  return isDeepStrictEqual(copy, { ...core });
}

export function historyPoint(pool: PoolCore, timestamp: number): PoolHistoryPoint {
  return {
    poolId: pool.id,
    timestamp,
    totalSwapVolume: pool.totalSwapVolume,
    totalSwapFee: pool.totalSwapFee,
    totalShares: pool.totalShares,
    priceRates: Object.fromEntries(pool.tokens.map((t) => [t.address, t.priceRate])),
  };
}

export function planPoolUpdate(
  rawPools: readonly unknown[],
  stored: readonly StoredPool[],
  knownTokens: ReadonlySet<string>,
  options: PlanOptions,
): PoolUpdatePlan {
  const previous = new Map(stored.map((p) => [p.id, p]));
  const skipped: { id: string; error: string }[] = [];
  const seen = new Set<string>();
  // A pool the source still lists but sent malformed or impossible this time keeps its last good
  // stored version (`domain/poolValues.ts` says what is impossible).
  const listed = new Set<string>();
  const cores: PoolCore[] = [];
  const writes: StoredPool[] = [];
  const history: PoolHistoryPoint[] = [];

  // A token's decimals are its contract's: the first seen (stored, then this run) holds.
  const decimals = new Map<string, number>();
  for (const p of stored) for (const t of p.tokens) if (!decimals.has(t.address)) decimals.set(t.address, t.decimals);

  const normalize = options.normalize ?? normalizePool;
  for (const raw of rawPools) {
    const result = normalize(raw);
    if (!result.ok) {
      skipped.push({ id: result.id, error: result.error });
      listed.add(result.id.toLowerCase());
      continue;
    }
    const core = result.pool;
    if (seen.has(core.id)) continue;
    seen.add(core.id);
    listed.add(core.id);
    const prev = previous.get(core.id);
    const impossible = impossibleChange(core, prev, decimals);
    if (impossible) {
      skipped.push({ id: core.id, error: impossible });
      continue;
    }
    for (const t of core.tokens) if (!decimals.has(t.address)) decimals.set(t.address, t.decimals);
    cores.push(core);
    if (prev && sameCore(prev, core)) continue;
    writes.push(carryDecoration(core, prev));
    history.push(historyPoint(core, options.nowSeconds));
  }

  const covered = options.removeMissing;
  const removed =
    covered === false
      ? []
      : stored.filter((p) => !listed.has(p.id) && (covered === true || covered(p))).map((p) => p.id);
  const tokens = discoverTokens(cores, knownTokens);
  const changed = writes.length > 0 || removed.length > 0;

  return {
    change: {
      pools: writes,
      deletePoolIds: removed,
      tokens,
      history,
      bumpPoolsVersion: changed,
      bumpTokensVersion: tokens.length > 0,
    },
    fetched: rawPools.length,
    written: writes.length,
    removed: removed.length,
    skipped,
    tokensAdded: tokens.length,
  };
}
