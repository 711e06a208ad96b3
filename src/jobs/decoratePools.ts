import type { AppContext } from '../appContext';
import { DEFAULT_PROTOCOL_SWAP_FEE } from '../config/env';
import { decorateChain, Decoration } from '../domain/decoration/decorateChain';
import { DECORATION_FIELDS, HISTORY_RETENTION_SECONDS, StoredPool } from '../domain/pool';
import { stableJson } from '../domain/stableJson';
import { runExclusive } from './exclusive';

/**
 * Decoration job for one chain (DESIGN section 4): reads pools, token prices and 8 days of history,
 * computes liquidity, 24 h volume/fees, APR and isNew with pure functions, writes only the pools
 * whose decoration changed in one commit, then prunes history past retention.
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
  readonly ms: number;
}

function decorationJson(d: Decoration | StoredPool): string {
  const copy: Record<string, unknown> = {};
  for (const f of DECORATION_FIELDS) if (f !== 'decoratedAt' && d[f] !== undefined) copy[f] = d[f];
  return stableJson(copy);
}

export async function decoratePools(ctx: AppContext, chainId: number): Promise<DecorationReport> {
  return runExclusive(
    ctx.store,
    { scope: String(chainId), job: DECORATE_POOLS_JOB, busyMessage: `pool decoration for chain ${chainId} is already running; retry when it has finished`, now: ctx.now },
    async () => {
      const started = ctx.now();
      const nowSeconds = Math.floor(started / 1000);
      const metaBefore = await ctx.store.getMeta(chainId);
      const [pools, tokens, history] = await Promise.all([
        ctx.store.listPools(chainId),
        ctx.store.listTokens(chainId),
        ctx.store.readHistory(chainId, { from: nowSeconds - HISTORY_RETENTION_SECONDS, to: nowSeconds }),
      ]);
      const pricesUsd = new Map<string, string>();
      for (const t of tokens) if (t.priceUsd !== null) pricesUsd.set(t.address, t.priceUsd);

      const decorations = decorateChain({
        pools,
        pricesUsd,
        history,
        nowSeconds,
        protocolSwapFee: ctx.config.protocolSwapFees.get(chainId) ?? DEFAULT_PROTOCOL_SWAP_FEE,
      });

      // The pool-update job may have committed while we computed: apply the decoration onto the
      // pools as they are now, so their subgraph fields are never rolled back.
      const metaNow = await ctx.store.getMeta(chainId);
      const base = metaNow.poolsVersion === metaBefore.poolsVersion ? pools : await ctx.store.listPools(chainId);
      const writes: StoredPool[] = [];
      for (const pool of base) {
        const d = decorations.get(pool.id);
        if (!d || decorationJson(d) === decorationJson(pool)) continue;
        writes.push({ ...pool, ...d, decoratedAt: started });
      }
      if (writes.length > 0) {
        await ctx.store.commit(chainId, { pools: writes, bumpPoolsVersion: true });
        await ctx.readModel.refresh(chainId);
      }
      const prunedHistory = await ctx.store.pruneHistory(chainId, nowSeconds - HISTORY_RETENTION_SECONDS);

      let withLiquidity = 0;
      let extrapolatedSnapshots = 0;
      for (const d of decorations.values()) {
        if (d.totalLiquidity !== undefined) withLiquidity += 1;
        if (d.snapshotExtrapolated) extrapolatedSnapshots += 1;
      }
      const report: DecorationReport = {
        chainId,
        pools: pools.length,
        changed: writes.length,
        withLiquidity,
        extrapolatedSnapshots,
        historyPoints: history.length,
        prunedHistory,
        ms: ctx.now() - started,
      };
      ctx.logger.info({ job: DECORATE_POOLS_JOB, ...report }, 'pools decorated');
      return report;
    },
  );
}
