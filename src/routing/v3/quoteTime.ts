import type { ChainInfo } from '../../config/chains';
import { nextBlockTime } from '../../domain/chainTime';
import type { ChainSnapshot } from '../../readModel/chainSnapshot';

/**
 * The unix seconds a V3 quote prices time-dependent pools at (ReClamm virtual balances, QuantAMM
 * and LBP weights): the block a transaction sent now lands in (`nextBlockTime`: on a timer the
 * block after the state's; on demand the chain's clock, at least a second past it), the time the
 * head follower evaluates amp ramps at into the stored state (`jobs/headFollower.ts` `quoteTime`).
 * `chainNow` is the chain's clock where the node said it (`Quoting.chainClock`), else ours.
 * Without a chain block (the subgraph's state alone) the next block after the service's clock: not
 * the SOR's 300-second bucket, which would price an LBP whose sale just ended as still open.
 */
export function v3QuoteTime(chain: ChainInfo, snap: ChainSnapshot, nowMs: number, chainNow?: number): number {
  const clock = chainNow ?? Math.floor(nowMs / 1000);
  return nextBlockTime(chain, snap.block ? snap.block.timestamp : clock, clock);
}

/**
 * The time the block after one priced at `timestamp` is priced at, which the quote threads build
 * ahead while idle: a slot later on a timer; on demand a second later (the chain's clock moves on
 * between blocks, and with it the quotes' time).
 */
export function v3NextQuoteTime(chain: ChainInfo, timestamp: number): number {
  return timestamp + (chain.blocks === 'timer' ? (chain.blockSeconds ?? 1) : 1);
}
