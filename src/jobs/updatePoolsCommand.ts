import type { JobCommand } from './jobCommand';
import { PoolUpdateReport, updatePools } from './updatePools';

/** `npm run job -- update-pools --chain <id|name>`: one pool update, then what changed. */
export function describePoolUpdate(r: PoolUpdateReport): string[] {
  return [
    ...r.skipped.map((s) => `skipped pool ${s.id}: ${s.error}`),
    `chain ${r.chainId}: ${r.fetched} pools fetched in ${r.pages} pages, ${r.written} written, ${r.removed} removed, ` +
      `${r.skipped.length} skipped, ${r.tokensAdded} tokens added (${r.tokensFromChain} with metadata from the chain), ` +
      `poolsVersion ${r.poolsVersion}, tokensVersion ${r.tokensVersion}, ${r.durationMs} ms`,
  ];
}

export const updatePoolsCommand: JobCommand = {
  description: 'fetch every pool of the chain from its subgraph and store what changed',
  needsChain: true,
  run: async (ctx, chainId) => {
    if (chainId === undefined) throw new Error('update-pools needs --chain <id|name>');
    return describePoolUpdate(await updatePools(ctx, chainId));
  },
};
