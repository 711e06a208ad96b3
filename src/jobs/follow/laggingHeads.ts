import type { BlockRef } from '../../domain/chainState';

/**
 * Which heads the follower ignores: one below the state's block while the node still has the
 * state's block (a lagging backend behind a load balancer, whose `latest` flips back and forth),
 * or any head while the node lacks the state's block, for less than the stale bound (a lagging
 * backend answered that question, or the chain really went back: past the bound the state is read
 * again at the head, as for a reorg). A state's block the node has with another hash is a reorg,
 * never ignored. Pure: the follower keeps `missingSince` and counts what is ignored.
 */
export function laggingHead(
  head: BlockRef,
  known: BlockRef,
  /** The node's block at the state's height: null when it has none. */
  atKnown: BlockRef | null | undefined,
  /** Since when (unix ms) the node has lacked the state's block, if it did at the last head. */
  missingSince: number | undefined,
  now: number,
  staleMs: number,
): { readonly ignore: boolean; readonly missingSince: number | undefined } {
  if (atKnown === null) {
    const since = missingSince ?? now;
    if (now - since > staleMs) return { ignore: false, missingSince: undefined };
    return { ignore: true, missingSince: since };
  }
  const onChain = atKnown?.hash === known.hash;
  return { ignore: onChain && head.number < known.number, missingSince: undefined };
}
