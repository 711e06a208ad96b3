import type { AppContext } from '../appContext';
import { chainById } from '../config/chains';
import { DEFAULT_PROTOCOL_SWAP_FEE } from '../config/env';
import { decorateChain, Decoration } from '../domain/decoration/decorateChain';
import type { GaugeData } from '../domain/decoration/gaugeApr';
import { DECORATION_FIELDS, HISTORY_RETENTION_SECONDS, StoredPool } from '../domain/pool';
import { stableJson } from '../domain/stableJson';
import { BalancerGaugeSource, FreshGauges, GaugeSource } from '../sources/gauges/gaugeSource';
import { UpstreamError } from '../sources/upstream';
import { commitOnCurrentPools, readPoolsAt } from './commitOnCurrentPools';
import { runExclusive } from './exclusive';
import { RPC_DEFAULTS } from './tokenMetadataFromChain';

/**
 * Decoration job for one chain (docs/ARCHITECTURE.md, "Prices, decoration and gauges"): reads pools, token prices, 8 days of history
 * and the chain's gauges, computes liquidity, 24 h volume/fees, APR and isNew with pure functions,
 * writes only the pools whose decoration changed in one commit, then prunes history past retention.
 *
 * Gauge data that cannot be had (subgraph or node down) does not stop the run: every pool keeps its
 * last staking and reward APRs, the failure is logged and named in the report (`gaugeError`), and
 * the internal job endpoint answers 502 so the scheduler retries.
 */
export const DECORATE_POOLS_JOB = 'decorate-pools';

export interface DecorationReport {
  readonly chainId: number;
  readonly pools: number;
  readonly changed: number;
  readonly withLiquidity: number;
  readonly extrapolatedSnapshots: number;
  readonly historyPoints: number;
  readonly prunedHistory: number;
  /** Pools whose staking and reward APRs come from this run's gauge data. */
  readonly withGauge: number;
  /** Why there was no gauge data this run (last staking and reward APRs kept); absent when it came. */
  readonly gaugeError?: string;
  readonly ms: number;
}

/** The chain's gauge source, or why it has none (then staking and reward APRs are 0). */
export function gaugeSourceFor(ctx: AppContext, chainId: number): GaugeSource | string {
  const chain = chainById(chainId)?.gauges;
  const subgraphUrl = ctx.config.gaugesSubgraphUrls.get(chainId);
  const rpcUrl = ctx.config.rpcUrls.get(chainId);
  if (!chain || !subgraphUrl) return 'the chain has no gauges';
  if (!rpcUrl) return `no RPC URL configured (RPC_URL_${chainId})`;
  return new BalancerGaugeSource({
    chain,
    subgraph: { url: subgraphUrl, timeoutMs: ctx.config.subgraph.timeoutMs, retries: ctx.config.subgraph.retries },
    rpc: { ...RPC_DEFAULTS, url: rpcUrl },
  });
}

/**
 * An answer listing no gauge at all while stored pools earn from one is a subgraph that lost its
 * data (re-indexing), not every gauge gone at once: refused like a failure.
 */
function emptiedWhileEarning(fresh: FreshGauges, pools: readonly StoredPool[]): string | undefined {
  if (fresh.byPool.size > 0 || fresh.unread.size > 0) return undefined;
  const earning = pools.filter((p) => (p.apr?.stakingApr.max ?? 0) > 0 || (p.apr?.rewardAprs.total ?? 0) > 0).length;
  return earning > 0
    ? `gauges subgraph: answered no gauges while ${earning} pools earn from one; not believed`
    : undefined;
}

async function fetchGauges(
  ctx: AppContext,
  chainId: number,
  nowSeconds: number,
): Promise<FreshGauges | { error: string } | undefined> {
  const source = gaugeSourceFor(ctx, chainId);
  if (typeof source === 'string') {
    ctx.logger.debug({ job: DECORATE_POOLS_JOB, chainId }, `no gauge data: ${source}`);
    return undefined;
  }
  try {
    const seconds = ctx.config.decoratePoolsDeadlineSeconds;
    // Wall clock like the upstream client's timers (ctx.now may be a test's fixed clock).
    return await source.fetch(nowSeconds, {
      at: Date.now() + seconds * 1000,
      label: `the decoration's ${seconds} s deadline (DECORATE_POOLS_DEADLINE_SECONDS)`,
    });
  } catch (e) {
    if (e instanceof UpstreamError) return { error: e.message };
    throw e;
  }
}

function decorationJson(d: Decoration | StoredPool): string {
  const copy: Record<string, unknown> = {};
  for (const f of DECORATION_FIELDS) if (f !== 'decoratedAt' && d[f] !== undefined) copy[f] = d[f];
  return stableJson(copy);
}

export async function decoratePools(ctx: AppContext, chainId: number): Promise<DecorationReport> {
  return runExclusive(
    ctx,
    {
      scope: String(chainId),
      job: DECORATE_POOLS_JOB,
      busyMessage: `pool decoration for chain ${chainId} is already running`,
      now: ctx.now,
    },
    async (signal) => {
      const started = ctx.now();
      const nowSeconds = Math.floor(started / 1000);
      const [first, tokens, history, fetched] = await Promise.all([
        readPoolsAt(ctx.store, chainId, ctx.readModel.storePools(chainId)),
        ctx.store.listTokens(chainId),
        ctx.store.readHistory(chainId, { from: nowSeconds - HISTORY_RETENTION_SECONDS, to: nowSeconds }),
        fetchGauges(ctx, chainId, nowSeconds),
      ]);
      const pricesUsd = new Map<string, string>();
      for (const t of tokens) if (t.priceUsd !== null) pricesUsd.set(t.address, t.priceUsd);

      let gauges: GaugeData | undefined;
      let gaugeError: string | undefined;
      if (fetched && 'error' in fetched) gaugeError = fetched.error;
      else if (fetched) gaugeError = emptiedWhileEarning(fetched, first.pools);
      if (gaugeError !== undefined) {
        gauges = { status: 'stale' };
        ctx.logger.error(
          { job: DECORATE_POOLS_JOB, chainId, err: gaugeError },
          'gauge data failed; staking and reward APRs keep their last values',
        );
      } else if (fetched && !('error' in fetched)) {
        gauges = fetched;
        if (fetched.problems.length > 0) {
          ctx.logger.warn(
            {
              job: DECORATE_POOLS_JOB,
              chainId,
              problems: fetched.problems.slice(0, 20),
              count: fetched.problems.length,
            },
            'some gauges unreadable; their pools keep their last staking and reward APRs',
          );
        }
      }

      const decorations = decorateChain({
        pools: first.pools,
        pricesUsd,
        history,
        nowSeconds,
        protocolSwapFee: ctx.config.protocolSwapFees.get(chainId) ?? DEFAULT_PROTOCOL_SWAP_FEE,
        gauges,
      });

      // Applied onto the pools as they are at commit time (see commitOnCurrentPools), so the
      // subgraph fields a concurrent pool update wrote are never rolled back.
      let written = 0;
      const meta = await commitOnCurrentPools(
        ctx.store,
        chainId,
        ({ pools: current }) => {
          const writes: StoredPool[] = [];
          for (const pool of current) {
            const d = decorations.get(pool.id);
            if (!d || decorationJson(d) === decorationJson(pool)) continue;
            writes.push({ ...pool, ...d, decoratedAt: started });
          }
          written = writes.length;
          return writes.length === 0 ? null : { pools: writes, bumpPoolsVersion: true };
        },
        { first, signal, held: () => ctx.readModel.storePools(chainId) },
      );
      if (meta) await ctx.readModel.refresh(chainId);
      const prunedHistory = await ctx.store.pruneHistory(chainId, nowSeconds - HISTORY_RETENTION_SECONDS);

      let withLiquidity = 0;
      let extrapolatedSnapshots = 0;
      for (const d of decorations.values()) {
        if (d.totalLiquidity !== undefined) withLiquidity += 1;
        if (d.snapshotExtrapolated) extrapolatedSnapshots += 1;
      }
      const report: DecorationReport = {
        chainId,
        pools: first.pools.length,
        changed: written,
        withLiquidity,
        extrapolatedSnapshots,
        historyPoints: history.length,
        prunedHistory,
        withGauge: gauges?.status === 'fresh' ? first.pools.filter((p) => gauges.byPool.has(p.id)).length : 0,
        ...(gaugeError !== undefined ? { gaugeError } : {}),
        ms: ctx.now() - started,
      };
      ctx.logger.info({ job: DECORATE_POOLS_JOB, ...report }, 'pools decorated');
      return report;
    },
  );
}
