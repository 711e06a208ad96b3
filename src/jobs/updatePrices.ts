import type { AppContext } from '../appContext';
import { appStateKey, type AppStateKey } from '../appState';
import { UpstreamError } from '../sources/upstream';
import { createPriceClient, PriceClient, PRICE_UPSTREAM } from '../sources/prices/priceClient';
import type { StoredToken } from '../domain/pool';
import { JobCallOptions, runExclusive } from './exclusive';
import { addressesToPrice, planPrices, PricePlan } from './planPriceUpdate';

/**
 * Token price job (docs/ARCHITECTURE.md, "Prices, decoration and gauges"): for every known token of every enabled chain, the price in
 * the chain's native asset and in USD. Everything is fetched first; only then is each chain's change
 * committed, so a run whose fetches all fail changes nothing.
 */
export const UPDATE_PRICES_JOB = 'update-prices';
export const UPDATE_PRICES_BUSY = 'a token price update is already running';

/** How the run's deadline is named in errors, so the message says what to configure. */
export function priceDeadlineLabel(seconds: number): string {
  return `the run's ${seconds} s deadline (PRICE_RUN_DEADLINE_SECONDS)`;
}

export interface ChainPriceReport {
  readonly chainId: number;
  readonly tokens: number;
  readonly requested: number;
  readonly priced: number;
  readonly noPriceData: number;
  readonly failed: number;
  readonly fresh: number;
  readonly changed: number;
  /** Why the chain was left unchanged, when it was. */
  readonly skipped?: string;
}

export interface PriceUpdateReport {
  readonly chains: readonly ChainPriceReport[];
  readonly requests: number;
  readonly changedChains: readonly number[];
  readonly ms: number;
}

// One client per app, so the request gate spans consecutive runs of this app.
const CLIENT: AppStateKey<{ client?: PriceClient }> = appStateKey('price client', () => ({}));

function clientFor(ctx: AppContext): PriceClient {
  const slot = ctx.state.get(CLIENT);
  return (slot.client ??= createPriceClient({
    ...ctx.config.prices,
    deadlineLabel: priceDeadlineLabel(ctx.config.prices.runDeadlineSeconds),
  }));
}

interface ChainWork {
  readonly chainId: number;
  readonly tokens: readonly StoredToken[];
  readonly requested: number;
  readonly plan?: PricePlan;
  readonly skipped?: string;
}

export async function updatePrices(ctx: AppContext, options: JobCallOptions = {}): Promise<PriceUpdateReport> {
  // Every request ends by then (waiting for a run in flight included); batches not reached keep
  // their old prices.
  const deadline = Date.now() + ctx.config.prices.runDeadlineSeconds * 1000;
  return runExclusive(
    ctx,
    {
      scope: 'global',
      job: UPDATE_PRICES_JOB,
      busyMessage: UPDATE_PRICES_BUSY,
      now: ctx.now,
      waitUntil: options.waitForRunning ? deadline : undefined,
    },
    async (signal) => {
      const started = ctx.now();
      const client = clientFor(ctx);
      const sentBefore = client.requestsSent;
      const freshnessMs = ctx.config.prices.freshnessSeconds * 1000;
      const chains = ctx.config.chains;

      // Native asset prices once per run, for all chains in one request.
      const nativeUsd = await client.coinPricesUsd(
        chains.map((c) => c.nativePriceId),
        deadline,
      );

      const work: ChainWork[] = [];
      let answeredBatches = 0;
      let failedBatches = 0;
      let firstError: string | undefined;
      for (const chain of chains) {
        const tokens = await ctx.store.listTokens(chain.id);
        const native = nativeUsd.get(chain.nativePriceId);
        if (!native) {
          work.push({
            chainId: chain.id,
            tokens,
            requested: 0,
            skipped: `the price API has no USD price for ${chain.nativePriceId}`,
          });
          continue;
        }
        const input = { tokens, wrappedNative: chain.wrappedNative, nowMs: ctx.now(), freshnessMs };
        const wanted = chain.pricePlatform ? addressesToPrice(input) : [];
        const results =
          chain.pricePlatform && wanted.length > 0
            ? await client.tokenPricesUsd(chain.pricePlatform, wanted, deadline)
            : [];
        for (const r of results) {
          if (r.prices) answeredBatches += 1;
          else {
            failedBatches += 1;
            firstError ??= r.error;
          }
        }
        work.push({ chainId: chain.id, tokens, requested: wanted.length, plan: planPrices(input, native, results) });
      }
      if (failedBatches > 0 && answeredBatches === 0) {
        throw new UpstreamError(
          PRICE_UPSTREAM,
          `every token price request failed (${failedBatches} batches, first: ${firstError}); no price was changed`,
        );
      }

      const reports: ChainPriceReport[] = [];
      const changedChains: number[] = [];
      for (const w of work) {
        const changed = w.plan?.changed ?? [];
        if (changed.length > 0) {
          // Losing the lease mid-run means another instance may be writing: do not commit over it.
          signal.throwIfAborted();
          await ctx.store.commit(w.chainId, { tokens: changed, bumpTokensVersion: true });
          changedChains.push(w.chainId);
        }
        reports.push({
          chainId: w.chainId,
          tokens: w.tokens.length,
          requested: w.requested,
          priced: w.plan?.priced ?? 0,
          noPriceData: w.plan?.noPriceData ?? 0,
          failed: w.plan?.failed ?? 0,
          fresh: w.plan?.fresh ?? 0,
          changed: changed.length,
          ...(w.skipped ? { skipped: w.skipped } : {}),
        });
      }
      await Promise.all(changedChains.map((id) => ctx.readModel.refresh(id)));
      const report = {
        chains: reports,
        requests: client.requestsSent - sentBefore,
        changedChains,
        ms: ctx.now() - started,
      };
      ctx.logger.info({ job: UPDATE_PRICES_JOB, ...report }, 'token prices updated');
      return report;
    },
  );
}
