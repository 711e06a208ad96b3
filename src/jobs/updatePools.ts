import { knownV3Hooks } from '../config/knownV3Hooks';
import type { AppContext } from '../appContext';
import { appStateKey } from '../appState';
import type { Logger } from '../log/logger';
import { compareDecimal } from '../domain/decimal';
import type { ChainMeta, JobRecord, StoredPool } from '../domain/pool';
import type { AllPools } from '../sources/subgraph/subgraphClient';
import { SubgraphClient, type FetchAllOptions } from '../sources/subgraph/subgraphClient';
import { fetchV3Pools, V3_VAULT_POOLS, type V3CatalogueClients } from '../sources/subgraph/v3/v3Catalogue';
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
  /** The V3 catalogue's part (pools listed, whether every pool was read, pages), where it is configured. */
  readonly v3?: { readonly fetched: number; readonly full: boolean; readonly pages: number };
}

/** The V3 catalogue's own record (its subgraph's block and last full read), beside the V2 one. */
export const UPDATE_POOLS_V3_RECORD = `${UPDATE_POOLS_JOB}:v3`;

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
  const v3Urls = ctx.config.subgraphV3Urls.get(chainId);
  const v3 = v3Urls
    ? {
        vault: new SubgraphClient({
          url: v3Urls.vault,
          timeoutMs: ctx.config.subgraph.timeoutMs,
          retries: ctx.config.subgraph.retries,
          pools: V3_VAULT_POOLS,
        }),
        pools: new SubgraphClient({
          url: v3Urls.pools,
          timeoutMs: ctx.config.subgraph.timeoutMs,
          retries: ctx.config.subgraph.retries,
        }),
        knownHooks: knownV3Hooks(chainId),
      }
    : undefined;

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
      const report = await fetchDiffCommit(ctx, chainId, { client, v3, memo, signal, log, deadline });
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
  /** The V3 catalogue's subgraphs, where configured. */
  readonly v3: V3CatalogueClients | undefined;
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

/** How the run's subgraph reads page, stop and log. */
function fetchOptionsOf({ signal, log, deadline }: RunParts): FetchAllOptions {
  return {
    signal,
    deadline: deadline.at,
    deadlineLabel: deadline.label,
    onPage: (p: { number: number; pools: number }) => log.debug(p, 'subgraph page'),
  };
}

/**
 * The run's pools from the subgraph: those changed since the plan's block, or every pool when the
 * plan says so or the subgraph refuses the changed-since filter.
 */
async function fetchPools(
  client: SubgraphClient,
  planned: ReadPlan,
  parts: RunParts,
): Promise<{ fetched: AllPools; full: boolean }> {
  const fetchOptions = fetchOptionsOf(parts);
  let why: string;
  if (planned.full) why = planned.why;
  else
    try {
      return { fetched: await client.fetchChangedPools(planned.since, fetchOptions), full: false };
    } catch (e) {
      if (!isRefusal(e)) throw e;
      why = `the subgraph refused the changed-since filter (${(e as Error).message})`;
    }
  parts.log.debug({ why }, 'reading every pool');
  return { fetched: await client.fetchAllPools(fetchOptions), full: true };
}

/** Ids of the fetched pools (lower case, once each). */
function fetchedIds(pools: readonly unknown[]): string[] {
  return [...new Set(pools.map((p) => String((p as { id?: unknown } | null)?.id ?? '').toLowerCase()))];
}

/** One protocol's catalogue read of this run. */
interface CatalogueRead {
  readonly fetched: AllPools;
  readonly full: boolean;
}

/**
 * The change planned against the pools as stored at commit time and committed with the job's
 * records: if decoration commits meanwhile, the plan is made again so the decoration it wrote is
 * carried over, not rolled back. Changed pools that were emptied leave; the rest are diffed
 * against their stored versions only. A full read of one protocol's catalogue removes that
 * protocol's pools it no longer lists; an empty answer (a subgraph re-indexing) removes nothing.
 */
async function planAndCommit(
  ctx: AppContext,
  chainId: number,
  run: {
    readonly v2: CatalogueRead;
    readonly v3: (CatalogueRead & { readonly record: JobRecord }) | undefined;
    readonly jobRecord: JobRecord;
    readonly startedAt: number;
  },
  { memo, signal, log, deadline }: RunParts,
): Promise<{ plan: PoolUpdatePlan; tokens: Awaited<ReturnType<typeof withChainMetadata>>; meta: ChainMeta }> {
  const { v2, v3, jobRecord, startedAt } = run;
  const reads = v3 ? [v2, v3] : [v2];
  const emptied = reads.flatMap((r) => (r.full ? [] : r.fetched.pools.filter(isEmptied)));
  const listed = reads.flatMap((r) => (r.full ? r.fetched.pools : r.fetched.pools.filter((p) => !isEmptied(p))));
  const ids = fetchedIds(reads.flatMap((r) => r.fetched.pools));
  const removeV2 = v2.full && v2.fetched.pools.length > 0;
  const removeV3 = v3 !== undefined && v3.full && v3.fetched.pools.length > 0;
  const readChanged = async (): Promise<PoolsAt> => {
    const meta = await ctx.store.getMeta(chainId);
    const pools = await Promise.all(ids.map((id) => ctx.store.getPool(chainId, id)));
    return { version: meta.poolsVersion, pools: pools.filter((p): p is StoredPool => p !== undefined) };
  };
  const known = new Set((await ctx.store.listTokens(chainId)).map((t) => t.address));
  let plan: PoolUpdatePlan | undefined;
  let tokens: Awaited<ReturnType<typeof withChainMetadata>> | undefined;
  const meta = await commitOnCurrentPools(
    ctx.store,
    chainId,
    async ({ pools: stored }) => {
      plan = withEmptiedRemoved(
        planPoolUpdate(listed, stored, known, {
          nowSeconds: Math.floor(startedAt / 1000),
          // An empty answer from a subgraph that is re-indexing must not wipe the chain.
          removeMissing: (p) => ((p.protocolVersion ?? 2) === 3 ? removeV3 : removeV2),
          normalize: memo.normalize,
        }),
        stored,
        emptied,
      );
      if (v2.full && v2.fetched.pools.length === 0 && stored.length > 0)
        log.warn({ stored: stored.length }, 'subgraph listed no pools; keeping the stored ones');
      tokens ??= await withChainMetadata(ctx.config.rpcUrls.get(chainId), plan.change.tokens ?? [], log, {
        ...RPC_DEFAULTS,
        retry: { ...RPC_DEFAULTS.retry, deadline: deadline.at, deadlineLabel: deadline.label },
      });
      return {
        ...plan.change,
        tokens: tokens.tokens,
        jobs: {
          [UPDATE_POOLS_JOB]: { ...jobRecord, lastSuccessAt: ctx.now() },
          ...(v3 ? { [UPDATE_POOLS_V3_RECORD]: { ...v3.record, lastSuccessAt: ctx.now() } } : {}),
        },
      };
    },
    // Many changed pools (or a subgraph that answers every pool to the filter) are read in one
    // listing rather than one document each.
    {
      signal,
      ...(reads.some((r) => r.full) || ids.length > MAX_POOLS_READ_ONE_BY_ONE
        ? { held: () => ctx.readModel.storePools(chainId) }
        : { read: readChanged }),
    },
  );
  // The build above always returns a change, so a commit happened and planned it.
  if (!meta || !plan || !tokens) throw new Error(`the pool update of chain ${chainId} committed nothing`);
  return { plan, tokens, meta };
}

/** The plan with the emptied changed pools the store holds deleted too (a changed-since read). */
function withEmptiedRemoved(
  plan: PoolUpdatePlan,
  stored: readonly StoredPool[],
  emptied: readonly unknown[],
): PoolUpdatePlan {
  if (emptied.length === 0) return plan;
  const gone = new Set(emptied.map((p) => String((p as { id?: unknown }).id).toLowerCase()));
  const already = new Set(plan.change.deletePoolIds ?? []);
  const more = stored.filter((p) => gone.has(p.id) && !already.has(p.id)).map((p) => p.id);
  if (more.length === 0) return plan;
  const deletePoolIds = [...already, ...more];
  return { ...plan, change: { ...plan.change, deletePoolIds, bumpPoolsVersion: true }, removed: deletePoolIds.length };
}

async function fetchDiffCommit(ctx: AppContext, chainId: number, parts: RunParts): Promise<PoolUpdateReport> {
  const { client, memo, log, deadline } = parts;
  const startedAt = ctx.now();
  const before = await ctx.store.getMeta(chainId);
  const record = before.jobs[UPDATE_POOLS_JOB];
  const indexed = await indexedBlock(client, deadline);
  const planned = readPlan(record, indexed, startedAt, ctx.config.subgraph.fullEverySeconds * 1000);
  const { fetched, full } = await fetchPools(client, planned, parts);
  // The V3 catalogue, read the same way (its own block and full-read record) in the same run.
  const v3 = parts.v3
    ? await readV3Catalogue(parts.v3, before.jobs[UPDATE_POOLS_V3_RECORD], startedAt, ctx, parts)
    : undefined;
  const jobRecord: JobRecord = {
    lastRunAt: startedAt,
    lastSuccessAt: startedAt,
    lastError: null,
    ...(indexed !== undefined ? { subgraphBlock: indexed } : {}),
    ...(full ? { lastFullAt: startedAt } : record?.lastFullAt !== undefined ? { lastFullAt: record.lastFullAt } : {}),
  };
  const { plan, tokens, meta } = await planAndCommit(
    ctx,
    chainId,
    { v2: { fetched, full }, v3, jobRecord, startedAt },
    parts,
  );
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
    fetched: fetched.pools.length + (v3?.fetched.pools.length ?? 0),
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
    ...(v3 ? { v3: { fetched: v3.fetched.pools.length, full: v3.full, pages: v3.fetched.pages } } : {}),
  };
  const { chainId: _chain, ...fields } = report;
  log.info({ ...fields, skipped: report.skipped.length, revalidated: memo.misses }, 'pools updated');
  return report;
}

/**
 * The V3 catalogue for this run: every pool, or those changed since its last run's block (its
 * own `readPlan`, record and refusal fallback, as the V2 subgraph's), and the record to store.
 */
async function readV3Catalogue(
  v3: V3CatalogueClients,
  record: JobRecord | undefined,
  startedAt: number,
  ctx: AppContext,
  parts: RunParts,
): Promise<CatalogueRead & { record: JobRecord }> {
  const fetchOptions = fetchOptionsOf(parts);
  const indexed = await indexedBlock(v3.vault, parts.deadline);
  const planned = readPlan(record, indexed, startedAt, ctx.config.subgraph.fullEverySeconds * 1000);
  let changed: AllPools | undefined;
  if (!planned.full)
    try {
      changed = await fetchV3Pools(v3, planned.since, fetchOptions);
    } catch (e) {
      if (!isRefusal(e)) throw e;
      parts.log.debug({ err: (e as Error).message }, 'the V3 subgraph refused the changed-since filter');
    }
  const full = changed === undefined;
  const fetched = changed ?? (await fetchV3Pools(v3, undefined, fetchOptions));
  return {
    fetched,
    full,
    record: {
      lastRunAt: startedAt,
      lastSuccessAt: startedAt,
      lastError: null,
      ...(indexed !== undefined ? { subgraphBlock: indexed } : {}),
      ...(full ? { lastFullAt: startedAt } : record?.lastFullAt !== undefined ? { lastFullAt: record.lastFullAt } : {}),
    },
  };
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
