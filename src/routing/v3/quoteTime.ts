import type { ChainInfo } from '../../config/chains';
import type { ChainSnapshot } from '../../readModel/chainSnapshot';

/**
 * The unix seconds a V3 quote prices time-dependent pools at (ReClamm virtual balances, QuantAMM
 * and LBP weights): the block after the state's block, the earliest a transaction sent now lands
 * in, the time the head follower evaluates amp ramps at into the stored state (`jobs/headFollower.ts`
 * `quoteTime`).
 * Without a chain block (the subgraph's state alone) the next block after the service's clock: not
 * the SOR's 300-second bucket, which would price an LBP whose sale just ended as still open.
 */
export function v3QuoteTime(chain: ChainInfo, snap: ChainSnapshot, nowMs: number): number {
  const next = chain.blockSeconds ?? 1;
  return snap.block ? snap.block.timestamp + next : Math.floor(nowMs / 1000) + next;
}
