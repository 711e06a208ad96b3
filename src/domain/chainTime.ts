import type { PoolChainState } from './chainState';
import { hasRateProvider } from './protocols/v3/vaultReads';

/**
 * Chain state that moves with time and no event (an amp ramp in progress, rate caches that
 * expire, a liquidity bootstrapping pool's weights during a gradual update). The chain's getters
 * answer at the block they were read at; a quote is executed in a later block, so the follower
 * evaluates a pool's state at that block's timestamp exactly as the pool does. What moves, and
 * how, is the pool type's (`at`, `movesWithTime` and `needsReread` of its `chain`,
 * `poolTypes/chainReads.ts`); this asks it. Pure.
 */

/** `s` as a swap at `timestamp` sees it; `s` itself when nothing differs, so unchanged pools keep their objects. */
export function stateAt(s: PoolChainState, timestamp: number): PoolChainState {
  const own = s.own;
  if (!own?.reads.at) return s;
  const state = own.reads.at(own.state, BigInt(timestamp));
  return state === own.state ? s : { ...s, own: { reads: own.reads, state } };
}

/**
 * Whether `s` holds a schedule that moves its state with time alone (an amp ramp, a weight
 * update): the follower evaluates it again at each new head, with no read.
 */
export function movesWithTime(s: PoolChainState): boolean {
  return s.own?.reads.movesWithTime?.(s.own.state) === true;
}

/**
 * Whether a pool's state at `timestamp` may differ from what was read with no event naming it (a
 * rate that moves freely, or a schedule whose start the node would not give): such a pool is read
 * again at each new head; a schedule alone only needs `stateAt` again.
 */
export function needsReread(s: PoolChainState, timestamp: number): boolean {
  if (s.timeUnknown) return true;
  // A V3 token's rate comes from its provider at each call the Vault makes: it moves with no event.
  if (s.v3 !== undefined && hasRateProvider(s.v3)) return true;
  // A hook's settings for the pool (StableSurge's threshold, an exit fee) change with no Vault event.
  if (s.v3?.hookParams !== undefined) return true;
  return s.own?.reads.needsReread?.(s.own.state, BigInt(timestamp)) === true;
}

/**
 * Whether a V2 Vault `Swap` leaves `s` as it was but for the Vault's balances (its type's reads
 * say so): such a pool, named by swaps alone, is read again by its balances alone.
 */
export function swapsMoveBalancesOnly(s: PoolChainState): boolean {
  return s.v3 === undefined && s.own?.reads.swapsMoveBalancesOnly === true;
}

/** Other contracts whose events re-read the pool (lower case): a fees collector whose fee it pays. */
export function watchedContracts(s: PoolChainState): readonly string[] {
  return s.own?.reads.watches?.(s.own.state) ?? [];
}

/** How a chain makes blocks (its row in `config/chains.ts`). */
export interface BlockMaking {
  readonly blocks: 'timer' | 'onDemand';
  readonly blockSeconds?: number;
}

/**
 * The unix seconds of the block a transaction sent now lands in, the time a quote prices
 * time-moving pools at (LBP weights, ReClamm virtual balances, amp ramps). On a timer the head's
 * plus a slot: a clock past that only means the follower has not seen that block yet. On demand
 * the chain stamps the block with its clock when the transaction comes, one second past the head
 * at least: an order asked seconds after the last block lands that many seconds later.
 * `chainNow` is the chain's clock (unix seconds), undefined when unknown.
 */
export function nextBlockTime(chain: BlockMaking, headTimestamp: number, chainNow: number | undefined): number {
  if (chain.blocks === 'timer') return headTimestamp + (chain.blockSeconds ?? 1);
  return Math.max(headTimestamp + 1, chainNow ?? 0);
}
