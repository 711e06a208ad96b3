import { isDeepStrictEqual } from 'node:util';
import type { PoolChainState } from '../../domain/chainState';
import type { StoredBuffer } from '../../domain/protocols/v3/stored/storedV3';
import type { BufferBalances } from '../../sources/chainState/movedInBlocks';
import { MalformedAnswerError } from '../../sources/rpc/jsonRpc';

/**
 * What the head follower checks of a node's answers beyond their shape (the reader checks that).
 * What no check can catch, the slow re-read heals (`slowReread.ts`; docs/ARCHITECTURE.md, "Chain state").
 */

/**
 * A pool whose Swap or PoolBalanceChanged log is at block `m` has the Vault's `lastChangeBlock` at
 * `m` or later in any read at or after `m`: an older one is a read answered from a block before
 * that change (a node behind, or one answering block N from N-1), whose balances would be the
 * pre-trade ones under the new block's label. `moved` is `readMovedPools`' map.
 */
export function checkCashChanges(
  read: ReadonlyMap<string, PoolChainState>,
  moved: ReadonlyMap<string, number>,
  blockNumber: number,
): void {
  for (const [id, s] of read) {
    const m = moved.get(id);
    if (m === undefined || m < 0 || s.lastChangeBlock === undefined || s.lastChangeBlock >= m) continue;
    throw new MalformedAnswerError(
      `getPoolTokens of pool ${id} at block ${blockNumber} says its balances last changed at block ${s.lastChangeBlock}, before its trade in block ${m}: an answer from an older block`,
    );
  }
}

/**
 * The V3 Vault keeps no `lastChangeBlock`, but a swap, an add or a remove always moves a pool's raw
 * balances or its supply (the Vault refuses amounts below its minimum trade): a V3 pool whose Vault
 * log of one is in the blocks read (`moved`, last cash block >= 0) and whose read equals the state
 * held from before them was answered from a block before that change.
 */
export function checkV3CashChanges(
  read: ReadonlyMap<string, PoolChainState>,
  held: ReadonlyMap<string, PoolChainState>,
  moved: ReadonlyMap<string, number>,
  blockNumber: number,
): void {
  for (const [id, s] of read) {
    const m = moved.get(id);
    const before = held.get(id);
    if (s.v3 === undefined || m === undefined || m < 0 || before === undefined) continue;
    if (before.totalSupply !== s.totalSupply || !isDeepStrictEqual(before.tokens, s.tokens)) continue;
    throw new MalformedAnswerError(
      `the V3 pool ${id} read at block ${blockNumber} has the balances and supply held from before its trade in block ${m}: an answer from an older block`,
    );
  }
}

/**
 * Every buffer event carries the buffer's balances after it (`MovedInBlocks.bufferBalances`), and
 * nothing else moves them: a buffer read at or after its last event must answer those balances,
 * and a token with such an event has a buffer. Anything else is another call's or another block's
 * answer. `refused`: tokens whose buffer the chain would not price (no balances to compare).
 */
export function checkBufferLogs(
  buffers: ReadonlyMap<string, StoredBuffer>,
  logged: ReadonlyMap<string, BufferBalances | null>,
  refused: ReadonlySet<string>,
  blockNumber: number,
): void {
  for (const [token, balances] of logged) {
    if (balances === null || refused.has(token)) continue;
    const b = buffers.get(token);
    if (b?.underlyingBalance === String(balances.underlying) && b.wrappedBalance === String(balances.wrapped)) continue;
    throw new MalformedAnswerError(
      `the buffer of ${token} read at block ${blockNumber} holds ${b ? `${b.underlyingBalance} underlying and ${b.wrappedBalance} wrapped` : 'nothing'}, but its last event left ${balances.underlying} and ${balances.wrapped}: an answer of another call or block`,
    );
  }
}

/**
 * What a re-read must find again when nothing happened to the pool: its state as its type compares
 * it (`ChainReads.comparable`: without the rate providers' own rates behind an unexpired cache,
 * which move freely and are read only for when the cache expires; the pool is then read at every
 * block anyway).
 */
function comparable(s: PoolChainState | undefined): unknown {
  const own = s?.own;
  if (!s || !own?.reads.comparable) return s;
  return { ...s, own: { reads: own.reads, state: own.reads.comparable(own.state) } };
}

export function sameState(a: PoolChainState | undefined, b: PoolChainState | undefined): boolean {
  return isDeepStrictEqual(comparable(a), comparable(b));
}
