import type { AppContext } from '../appContext';
import { appStateKey } from '../appState';
import type { Logger } from '../log/logger';
import { compareDecimal } from '../domain/decimal';
import type { JobRecord, StoredPool } from '../domain/pool';
import type { AllPools } from '../sources/subgraph/subgraphClient';
import { SubgraphClient } from '../sources/subgraph/subgraphClient';
import { UpstreamError } from '../sources/upstream';
import { commitOnCurrentPools, type PoolsAt } from './commitOnCurrentPools';
import { JobCallOptions, runExclusive } from './exclusive';
import { NormalizeMemo } from './normalizeMemo';
import { planPoolUpdate, type PoolUpdatePlan } from './planPoolUpdate';
import { RPC_DEFAULTS, withChainMetadata } from './tokenMetadataFromChain';

/**
 * The pool-update job for one chain (docs/ARCHITECTURE.md, "A pool update"): under the chain's lease, read the pools
 * from the subgraph, diff against the store, and commit the difference as ONE change, so a failure
 * anywhere before the commit leaves the store exactly as it was. Then wait for the read model, so
 * the caller's next GET already shows the result.
 *
 * A run reads only the pools whose entity changed since the block the last run began at (the
 * subgraph's `_change_block` filter, the block from `_meta`), so a run after one trade costs that
 * pool, not the universe. A run reads every pool (and drops the pools the subgraph no longer
 * lists) when there is no earlier block, when the subgraph went back (a re-index), when it cannot
 * say its block or refuses the filter, and at least every `SUBGRAPH_FULL_EVERY_SECONDS`: the
 * filter sees changes to the pool entity, and a full read also catches what changed only in its
 * tokens' entities.
 */
export const UPDATE_POOLS_JOB = 'update-pools';

export interface PoolUpdateReport {
  readonly chainId: number;
  /** Pools the subgraph listed (malformed ones included). */
  readonly fetched: number;
  /** Whether the run read every pool, or only those changed since the last run's block. */
  readonly full: boolean;
  readonly pages: number;
  /** Pools stored because they are new or changed. */
  readonly written: number;
  /** Stored pools the subgraph no longer lists. */
  readonly removed: number;
  /** Pools left out because they failed validation, with the reason. */
  readonly skipped: readonly { readonly id: string; readonly error: string }[];
  readonly tokensAdded: number;
  /** New tokens whose symbol or name was read from the chain. */
  readonly tokensFromChain: number;
  readonly poolsVersion: number;
  readonly tokensVersion: number;
  readonly durationMs: number;
}

export function busyMessage(chainId: number): string {
  return `a pool update for chain ${chainId} is already running`;
}

/** Skipped pools are logged one by one up to this many, then summarized. */
const SKIPPED_LOG_LIMIT = 20;

/** One memo per app and chain; runs of a chain never overlap (the lease). */
const MEMOS = appStateKey('pool-update normalize memos', () => new Map<number, NormalizeMemo>());

function memoFor(ctx: AppContext, chainId: number): NormalizeMemo {
  const perChain = ctx.state.get(MEMOS);
  let memo = perChain.get(chainId);
  if (!memo) perChain.set(chainId, (memo = new NormalizeMemo()));
  return memo;
}

export async function updatePools(
  ctx: AppContext,
  chainId: number,
  options: JobCallOptions = {},
): Promise<PoolUpdateReport> {
  const url = ctx.config.subgraphUrls.get(chainId);
  if (url === undefined)
    throw new Error(`chain ${chainId} is not enabled (add it to NETWORKS) so its pools cannot be updated`);
  const client = new SubgraphClient({
    url,
    timeoutMs: ctx.config.subgraph.timeoutMs,
    retries: ctx.config.subgraph.retries,
  });
  const log = ctx.logger.child({ job: UPDATE_POOLS_JOB, chainId });

  const seconds = ctx.config.updatePoolsDeadlineSeconds;
  const deadline = {
    at: Date.now() + seconds * 1000,
    label: `the update's ${seconds} s deadline (UPDATE_POOLS_DEADLINE_SECONDS)`,
  };

  const lease = {
    scope: String(chainId),
    job: UPDATE_POOLS_JOB,
    busyMessage: busyMessage(chainId),
    now: ctx.now,
    waitUntil: options.waitForRunning ? deadline.at : undefined,
  };
  return runExclusive(ctx, lease, async (signal) => {
    const memo = memoFor(ctx, chainId);
    try {
      const report = await fetchDiffCommit(ctx, chainId, { client, memo, signal, log, deadline });
      memo.commitRun();
      return report;
    } catch (e) {
      memo.abandonRun();
      throw e;
    }
  });
}

interface RunParts {
  readonly client: SubgraphClient;
  readonly memo: NormalizeMemo;
  readonly signal: AbortSignal;
  readonly log: Logger;
  /** Unix ms by which every upstream call must be over, and how to name it in errors. */
  readonly deadline: { readonly at: number; readonly label: string };
}

/** Changed pools read from the store one by one; more are read with every stored pool. */
const MAX_POOLS_READ_ONE_BY_ONE = 500;

/** Blocks before the last run's that a changed-since read asks again. */
const CHANGED_SINCE_MARGIN_BLOCKS = 100;

/** How a run reads the subgraph: every pool, or the pools changed since a block. */
type ReadPlan = { readonly full: true; readonly why: string } | { readonly full: false; readonly since: number };

function readPlan(
  record: JobRecord | undefined,
  indexed: number | undefined,
  nowMs: number,
  fullEveryMs: number,
): ReadPlan {
  if (indexed === undefined) return { full: true, why: 'the subgraph does not say which block it has indexed' };
  if (record?.subgraphBlock === undefined || record.lastFullAt === undefined)
    return { full: true, why: 'no earlier run recorded its block' };
  if (indexed < record.subgraphBlock)
    return { full: true, why: `the subgraph went back from block ${record.subgraphBlock} to ${indexed}` };
  if (nowMs - record.lastFullAt >= fullEveryMs) return { full: true, why: 'the periodic full read is due' };
  // The last run read after the subgraph said it had indexed its block, so that block's changes
  // are in; the margin covers a subgraph that re-indexed the last blocks (a reorg) or answered the
  // pages from an indexer a little behind the one that answered `_meta` (a gateway). Pools it
  // brings again unchanged are dropped by the diff.
  return { full: false, since: Math.max(0, record.subgraphBlock + 1 - CHANGED_SINCE_MARGIN_BLOCKS) };
}

/** A changed pool with no shares left: the full read lists only pools with shares, so it is gone. */
function isEmptied(raw: unknown): boolean {
  const shares = (raw as { totalShares?: unknown } | null)?.totalShares;
  try {
    return compareDecimal(String(shares ?? '0'), '0') <= 0;
  } catch {
    return false;
  }
}

async function fetchDiffCommit(
  ctx: AppContext,
  chainId: number,
  { client, memo, signal, log, deadline }: RunParts,
): Promise<PoolUpdateReport> {
  const startedAt = ctx.now();
  const before = await ctx.store.getMeta(chainId);
  const record = before.jobs[UPDATE_POOLS_JOB];
  const indexed = await indexedBlock(client, deadline);
  let plan0 = readPlan(record, indexed, startedAt, ctx.config.subgraph.fullEverySeconds * 1000);
  const fetchOptions = {
    signal,
    deadline: deadline.at,
    deadlineLabel: deadline.label,
    onPage: (p: { number: number; pools: number }) => log.debug(p, 'subgraph page'),
  };
  let all: AllPools | undefined;
  if (!plan0.full) {
    try {
      all = await client.fetchChangedPools(plan0.since, fetchOptions);
    } catch (e) {
      if (!isRefusal(e)) throw e;
      plan0 = { full: true, why: `the subgraph refused the changed-since filter (${(e as Error).message})` };
    }
  }
  if (plan0.full) {
    log.debug({ why: plan0.why }, 'reading every pool');
    all = await client.fetchAllPools(fetchOptions);
  }
  const fetched = all!;
  const full = plan0.full;
  // Changed pools that were emptied leave; the rest are diffed against their stored versions only.
  const emptied = full ? [] : fetched.pools.filter(isEmptied);
  const listed = full ? fetched.pools : fetched.pools.filter((p) => !isEmptied(p));
  const ids = [...new Set(fetched.pools.map((p) => String((p as { id?: unknown } | null)?.id ?? '').toLowerCase()))];
  const readChanged = async (): Promise<PoolsAt> => {
    const meta = await ctx.store.getMeta(chainId);
    const pools = await Promise.all(ids.map((id) => ctx.store.getPool(chainId, id)));
    return { version: meta.poolsVersion, pools: pools.filter((p): p is StoredPool => p !== undefined) };
  };

  const known = new Set((await ctx.store.listTokens(chainId)).map((t) => t.address));
  let plan!: PoolUpdatePlan;
  let tokens!: Awaited<ReturnType<typeof withChainMetadata>>;
  const jobRecord: JobRecord = {
    lastRunAt: startedAt,
    lastSuccessAt: startedAt,
    lastError: null,
    ...(indexed !== undefined ? { subgraphBlock: indexed } : {}),
    ...(full ? { lastFullAt: startedAt } : record?.lastFullAt !== undefined ? { lastFullAt: record.lastFullAt } : {}),
  };
  // Planned against the pools as stored at commit time: if decoration commits meanwhile, the plan
  // is made again so the decoration it wrote is carried over, not rolled back.
  const meta = (await commitOnCurrentPools(
    ctx.store,
    chainId,
    async ({ pools: stored }) => {
      plan = planPoolUpdate(listed, stored, known, {
        nowSeconds: Math.floor(startedAt / 1000),
        // An empty answer from a subgraph that is re-indexing must not wipe the chain.
        removeMissing: full && fetched.pools.length > 0,
        normalize: memo.normalize,
      });
      if (!full) {
        const gone = new Set(emptied.map((p) => String((p as { id?: unknown }).id).toLowerCase()));
        const deletePoolIds = stored.filter((p) => gone.has(p.id)).map((p) => p.id);
        if (deletePoolIds.length > 0)
          plan = {
            ...plan,
            change: { ...plan.change, deletePoolIds, bumpPoolsVersion: true },
            removed: deletePoolIds.length,
          };
      }
      if (full && fetched.pools.length === 0 && stored.length > 0)
        log.warn({ stored: stored.length }, 'subgraph listed no pools; keeping the stored ones');
      tokens ??= await withChainMetadata(ctx.config.rpcUrls.get(chainId), plan.change.tokens ?? [], log, {
        ...RPC_DEFAULTS,
        retry: { ...RPC_DEFAULTS.retry, deadline: deadline.at, deadlineLabel: deadline.label },
      });
      return {
        ...plan.change,
        tokens: tokens.tokens,
        jobs: { [UPDATE_POOLS_JOB]: { ...jobRecord, lastSuccessAt: ctx.now() } },
      };
    },
    // Many changed pools (or a subgraph that answers every pool to the filter) are read in one
    // listing rather than one document each.
    {
      signal,
      ...(full || ids.length > MAX_POOLS_READ_ONE_BY_ONE
        ? { held: () => ctx.readModel.storePools(chainId) }
        : { read: readChanged }),
    },
  ))!;
  plan.skipped
    .slice(0, SKIPPED_LOG_LIMIT)
    .forEach((s) =>
      log.warn({ poolId: s.id, err: s.error }, 'skipped a malformed or impossible pool (its last good version stays)'),
    );
  if (plan.skipped.length > SKIPPED_LOG_LIMIT)
    log.warn({ more: plan.skipped.length - SKIPPED_LOG_LIMIT }, 'more malformed pools skipped');
  await ctx.readModel.refresh(chainId);

  const report: PoolUpdateReport = {
    chainId,
    fetched: fetched.pools.length,
    full,
    pages: fetched.pages,
    written: plan.written,
    removed: plan.removed,
    skipped: plan.skipped,
    tokensAdded: plan.tokensAdded,
    tokensFromChain: tokens.filled,
    poolsVersion: meta.poolsVersion,
    tokensVersion: meta.tokensVersion,
    durationMs: ctx.now() - startedAt,
  };
  const { chainId: _chain, ...fields } = report;
  log.info({ ...fields, skipped: report.skipped.length, revalidated: memo.misses }, 'pools updated');
  return report;
}

/** The subgraph's indexed block; undefined when it cannot say (no `_meta`, or GraphQL errors asking). */
async function indexedBlock(
  client: SubgraphClient,
  deadline: { readonly at: number; readonly label: string },
): Promise<number | undefined> {
  try {
    return await client.fetchIndexedBlock(deadline.at, deadline.label);
  } catch (e) {
    if (isRefusal(e)) return undefined;
    throw e;
  }
}

/** A subgraph that answered, refusing the query (GraphQL errors), rather than one that failed. */
function isRefusal(e: unknown): boolean {
  return e instanceof UpstreamError && e.status !== undefined && e.status < 300;
}
