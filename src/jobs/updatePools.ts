import type { AppContext } from '../appContext';
import { appStateKey } from '../appState';
import type { Logger } from '../log/logger';
import { SubgraphClient } from '../sources/subgraph/subgraphClient';
import { commitOnCurrentPools } from './commitOnCurrentPools';
import { JobCallOptions, runExclusive } from './exclusive';
import { NormalizeMemo } from './normalizeMemo';
import { planPoolUpdate, type PoolUpdatePlan } from './planPoolUpdate';
import { RPC_DEFAULTS, withChainMetadata } from './tokenMetadataFromChain';

/**
 * The pool-update job for one chain (docs/ARCHITECTURE.md, "A pool update"): under the chain's lease, read every pool
 * from the subgraph, diff against the store, and commit the difference as ONE change, so a failure
 * anywhere before the commit leaves the store exactly as it was. Then wait for the read model, so
 * the caller's next GET already shows the result.
 */
export const UPDATE_POOLS_JOB = 'update-pools';

export interface PoolUpdateReport {
  readonly chainId: number;
  /** Pools the subgraph listed (malformed ones included). */
  readonly fetched: number;
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

async function fetchDiffCommit(
  ctx: AppContext,
  chainId: number,
  { client, memo, signal, log, deadline }: RunParts,
): Promise<PoolUpdateReport> {
  const startedAt = ctx.now();
  const all = await client.fetchAllPools({
    signal,
    deadline: deadline.at,
    deadlineLabel: deadline.label,
    onPage: (p) => log.debug(p, 'subgraph page'),
  });

  const known = new Set((await ctx.store.listTokens(chainId)).map((t) => t.address));
  let plan!: PoolUpdatePlan;
  let tokens!: Awaited<ReturnType<typeof withChainMetadata>>;
  // Planned against the pools as stored at commit time: if decoration commits meanwhile, the plan
  // is made again so the decoration it wrote is carried over, not rolled back.
  const meta = (await commitOnCurrentPools(
    ctx.store,
    chainId,
    async ({ pools: stored }) => {
      plan = planPoolUpdate(all.pools, stored, known, {
        nowSeconds: Math.floor(startedAt / 1000),
        // An empty answer from a subgraph that is re-indexing must not wipe the chain.
        removeMissing: all.pools.length > 0,
        normalize: memo.normalize,
      });
      if (all.pools.length === 0 && stored.length > 0)
        log.warn({ stored: stored.length }, 'subgraph listed no pools; keeping the stored ones');
      tokens ??= await withChainMetadata(ctx.config.rpcUrls.get(chainId), plan.change.tokens ?? [], log, {
        ...RPC_DEFAULTS,
        retry: { ...RPC_DEFAULTS.retry, deadline: deadline.at, deadlineLabel: deadline.label },
      });
      return {
        ...plan.change,
        tokens: tokens.tokens,
        jobs: { [UPDATE_POOLS_JOB]: { lastRunAt: startedAt, lastSuccessAt: ctx.now(), lastError: null } },
      };
    },
    { signal },
  ))!;
  plan.skipped
    .slice(0, SKIPPED_LOG_LIMIT)
    .forEach((s) => log.warn({ poolId: s.id, err: s.error }, 'skipped malformed pool'));
  if (plan.skipped.length > SKIPPED_LOG_LIMIT)
    log.warn({ more: plan.skipped.length - SKIPPED_LOG_LIMIT }, 'more malformed pools skipped');
  await ctx.readModel.refresh(chainId);

  const report: PoolUpdateReport = {
    chainId,
    fetched: plan.fetched,
    pages: all.pages,
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
