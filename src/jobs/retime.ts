import type { AppContext } from '../appContext';
import type { ChainInfo } from '../config/chains';
import type { PoolChainState } from '../domain/chainState';
import { movesWithTime, nextBlockTime, stateAt } from '../domain/chainTime';
import type { ChainSnapshot } from '../readModel/chainSnapshot';

/**
 * The followed state with its time-moving pools (LBP weights, amp ramps) evaluated at `t`, for a
 * chain that makes blocks on demand: the follower evaluates them at the block after the head, but
 * an order asked seconds later lands in a block stamped with the chain's clock then. Pure
 * evaluation, no read: the pool schedules are in the state. Returns the snapshot to quote from:
 * `snap` itself when nothing moves by `t` or the served state is no longer at `snap`'s block.
 * Times only go forward: two orders asked in the same second share the version.
 */
export function retimed(ctx: AppContext, chain: ChainInfo, snap: ChainSnapshot, t: number | undefined): ChainSnapshot {
  const state = ctx.readModel.chainState(chain.id);
  if (t === undefined || chain.blocks !== 'onDemand' || !state || !snap.block) return snap;
  if (state.block.hash !== snap.block.hash) return snap;
  const evaluated = state.pricedAt ?? nextBlockTime(chain, state.block.timestamp, undefined);
  if (t <= evaluated) return snap;
  let pools: Map<string, PoolChainState> | undefined;
  for (const [id, s] of state.pools) {
    if (!movesWithTime(s)) continue;
    const now = stateAt(s, t);
    if (now === s) continue;
    pools ??= new Map(state.pools);
    pools.set(id, now);
  }
  if (!pools) return snap;
  return ctx.readModel.setChainState(chain.id, { ...state, pools, pricedAt: t }) ?? snap;
}
