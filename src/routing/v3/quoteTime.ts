import type { ChainInfo } from '../../config/chains';
import type { ChainSnapshot } from '../../readModel/chainSnapshot';
import { sorTimestamp } from '../sorConfig';

/**
 * The unix seconds a V3 quote prices time-dependent pools at (ReClamm virtual balances, QuantAMM
 * weights, amp ramps): the block after the state's block, the earliest a transaction sent now
 * lands in, as the head follower evaluates V2 schedules (`jobs/headFollower.ts` `quoteTime`).
 * Without a chain block (the subgraph's state alone) the SOR's clock.
 */
export function v3QuoteTime(chain: ChainInfo, snap: ChainSnapshot, nowMs: number): number {
  return snap.block ? snap.block.timestamp + (chain.blockSeconds ?? 1) : sorTimestamp(nowMs);
}
