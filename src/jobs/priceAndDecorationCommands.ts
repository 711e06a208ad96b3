import type { JobCommand } from './jobCommand';
import { decoratePools, DecorationReport } from './decoratePools';
import { PriceUpdateReport, updatePrices } from './updatePrices';

/** `npm run job -- update-prices` and `npm run job -- decorate-pools --chain <id>`: one run, then what changed. */
export function describePriceUpdate(r: PriceUpdateReport): string[] {
  return [
    ...r.chains.map(
      (c) =>
        `chain ${c.chainId}: ${c.tokens} tokens, ${c.requested} requested, ${c.priced} priced, ${c.noPriceData} without price data, ` +
        `${c.failed} in failed batches, ${c.fresh} fresh, ${c.changed} changed${c.skipped ? ` (skipped: ${c.skipped})` : ''}`,
    ),
    `${r.requests} price API requests, chains changed: ${r.changedChains.length > 0 ? r.changedChains.join(',') : 'none'}, ${r.ms} ms`,
  ];
}

export function describeDecoration(r: DecorationReport): string[] {
  return [
    `chain ${r.chainId}: ${r.pools} pools, ${r.changed} changed, ${r.withLiquidity} with liquidity, ` +
      `${r.extrapolatedSnapshots} with extrapolated 24 h figures, ${r.withGauge} with gauge APRs, ${r.historyPoints} history points read, ${r.prunedHistory} pruned, ${r.ms} ms`,
    ...(r.gaugeError !== undefined
      ? [`gauge data failed (${r.gaugeError}); staking and reward APRs keep their last values`]
      : []),
  ];
}

export const updatePricesCommand: JobCommand = {
  description: 'price every known token of every enabled chain (native asset and USD)',
  needsChain: false,
  run: async (ctx) => describePriceUpdate(await updatePrices(ctx)),
};

export const decoratePoolsCommand: JobCommand = {
  description: 'compute liquidity, 24 h volume and fees, APR and isNew for the pools of one chain',
  needsChain: true,
  run: async (ctx, chainId) => {
    if (chainId === undefined) throw new Error('decorate-pools needs --chain <id|name>');
    return describeDecoration(await decoratePools(ctx, chainId));
  },
};
