import type { SwapKind } from '../../../swap/poolModel';
import type { V3PoolState } from '../vault/poolState';
import type { V3SwapResult } from '../vault/swap';

/**
 * Results kept per Vault state. A quote's split tries a few dozen amounts per hop, and the spot
 * price probes repeat across the quotes of a block.
 */
const KEPT_PER_STATE = 64;

/**
 * The Vault's results of the swaps asked of one pool, per Vault state. A state is replaced by
 * each applied swap and never changed, so a result holds for as long as its state lives. A quote
 * asks a hop the same swap again: each split it tries records the hop's trade on a copy of the
 * state to price what is left, and a copy shares its Vault state.
 */
export class SwapResults {
  private readonly byState = new WeakMap<V3PoolState, Map<string, V3SwapResult>>();

  get(state: V3PoolState, kind: SwapKind, i: number, j: number, amount: bigint): V3SwapResult | undefined {
    return this.byState.get(state)?.get(keyOf(kind, i, j, amount));
  }

  keep(state: V3PoolState, kind: SwapKind, i: number, j: number, amount: bigint, result: V3SwapResult): void {
    let kept = this.byState.get(state);
    if (!kept) this.byState.set(state, (kept = new Map()));
    // A state asked many amounts (a long-lived block's hub pool) starts over rather than grow.
    if (kept.size >= KEPT_PER_STATE) kept.clear();
    kept.set(keyOf(kind, i, j, amount), result);
  }
}

function keyOf(kind: SwapKind, i: number, j: number, amount: bigint): string {
  return `${kind === 'givenIn' ? 'i' : 'o'}${i}.${j}.${amount}`;
}
