import type { AppContext } from '../appContext';
import { DEFAULT_PROTOCOL_SWAP_FEE } from '../config/env';
import { decorateChain, Decoration } from '../domain/decoration/decorateChain';
import { DECORATION_FIELDS, HISTORY_RETENTION_SECONDS, StoredPool } from '../domain/pool';
import { stableJson } from '../domain/stableJson';
import { commitOnCurrentPools, readPoolsAt } from './commitOnCurrentPools';
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
    { scope: String(chainId), job: DECORATE_POOLS_JOB, busyMessage: `pool decoration for chain ${chainId} is already running`, now: ctx.now },
    async (signal) => {
      const started = ctx.now();
      const nowSeconds = Math.floor(started / 1000);
      const [first, tokens, history] = await Promise.all([
        readPoolsAt(ctx.store, chainId),
        ctx.store.listTokens(chainId),
        ctx.store.readHistory(chainId, { from: nowSeconds - HISTORY_RETENTION_SECONDS, to: nowSeconds }),
      ]);
      const pricesUsd = new Map<string, string>();
      for (const t of tokens) if (t.priceUsd !== null) pricesUsd.set(t.address, t.priceUsd);

      const decorations = decorateChain({
        pools: first.pools,
        pricesUsd,
        history,
        nowSeconds,
        protocolSwapFee: ctx.config.protocolSwapFees.get(chainId) ?? DEFAULT_PROTOCOL_SWAP_FEE,
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
        { first, signal },
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
        ms: ctx.now() - started,
      };
      ctx.logger.info({ job: DECORATE_POOLS_JOB, ...report }, 'pools decorated');
      return report;
    },
  );
}
