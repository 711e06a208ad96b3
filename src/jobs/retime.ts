import type { AppContext } from '../appContext';
import type { ChainInfo } from '../config/chains';
import type { PoolChainState } from '../domain/chainState';
import { movesWithTime, nextBlockTime, stateAt } from '../domain/chainTime';
import type { ChainSnapshot } from '../readModel/chainSnapshot';

/** A snapshot to quote from and the unix seconds its time-moving pools hold at. */
export interface TimedSnapshot {
  readonly snap: ChainSnapshot;
  /** Undefined without a chain block (the subgraph's state). */
  readonly pricedAt: number | undefined;
}

/** The time `snap`'s time-moving pools were evaluated at: `ChainSnapshot.pricedAt`, else the block after its block. */
export function pricedAtOf(chain: ChainInfo, snap: ChainSnapshot): number | undefined {
  if (!snap.block) return undefined;
  return snap.pricedAt ?? nextBlockTime(chain, snap.block.timestamp, undefined);
}

/**
 * The followed state with its time-moving pools (LBP weights, amp ramps) evaluated at `t`, on a
 * chain that makes blocks on demand: the follower evaluates them at the block after the head, but
 * an order asked seconds later lands in a block stamped with the chain's clock then (`t`, the
 * node's pending block time). Pure evaluation, no read: the schedules are in the state. The result
 * is published as the chain state (`ChainState.pricedAt`), so orders of the same second share the
 * version, and times only go forward: an order whose clock is older than the state's quotes at the
 * state's time, the nearer one to when it lands.
 *
 * Quotes from the served snapshot while it is at `snap`'s block, else from `snap` at its own time:
 * the label always says the time the pools quoted hold at.
 */
export function retimed(ctx: AppContext, chain: ChainInfo, snap: ChainSnapshot, t: number | undefined): TimedSnapshot {
  const own: TimedSnapshot = { snap, pricedAt: pricedAtOf(chain, snap) };
  if (t === undefined || chain.blocks !== 'onDemand' || !snap.block) return own;
  const state = ctx.readModel.chainState(chain.id);
  const served = ctx.readModel.get(chain.id);
  // A block published meanwhile is another quote's to price: this one stays at its own block.
  if (!state || served?.block?.hash !== snap.block.hash || state.block.hash !== snap.block.hash) return own;
  const evaluated = state.pricedAt ?? nextBlockTime(chain, state.block.timestamp, undefined);
  if (t <= evaluated) return { snap: served, pricedAt: evaluated };
  let pools: Map<string, PoolChainState> | undefined;
  for (const [id, s] of state.pools) {
    if (!movesWithTime(s)) continue;
    const now = stateAt(s, t);
    if (now === s) continue;
    pools ??= new Map(state.pools);
    pools.set(id, now);
  }
  // Nothing moves by `t`: the served pools hold at `t` as they are.
  if (!pools) return { snap: served, pricedAt: t };
  const next = ctx.readModel.setChainState(chain.id, { ...state, pools, pricedAt: t });
  return next ? { snap: next, pricedAt: t } : { snap: served, pricedAt: evaluated };
}
