import type { ChainState } from '../../domain/chainState';

/**
 * The state to publish for `next`, over the state served before (`prev`): the buffers and the
 * chain-only pools of `prev` stay where `next` names none; a chain-only pool leaves once the
 * catalogue (`storedIds`, the store's pool ids, asked only when there are such pools) lists it.
 */
export function servedState(
  prev: ChainState | undefined,
  next: ChainState,
  storedIds: () => ReadonlySet<string>,
): ChainState {
  const buffers = next.buffers ?? prev?.buffers;
  const named = next.registered ?? prev?.registered;
  // Usually none: the set of catalogued ids is made only when the chain named pools of its own.
  const stored = named && named.size > 0 ? storedIds() : undefined;
  const registered = [...(named ?? [])].filter(([id]) => !stored?.has(id));
  // A retimed state's time holds for its block only: a new block's state is at the block after it.
  const { registered: _named, pricedAt, ...rest } = next;
  const sameBlock = prev !== undefined && prev.block.hash === next.block.hash;
  return {
    ...rest,
    ...(pricedAt !== undefined && sameBlock ? { pricedAt } : {}),
    ...(buffers ? { buffers } : {}),
    ...(registered.length > 0 ? { registered: new Map(registered) } : {}),
  };
}
