import type { PoolChainState } from '../../domain/chainState';
import type { ProtocolVersion, StoredPool } from '../../domain/pool';
import type { StoredBuffer } from '../../domain/protocols/v3/stored/storedV3';
import type { PinnedRpcOptions } from '../rpc/multicall';
import { callsFor, newChainReadCache, readPoolStates, V2_VAULT_READS, V3_VAULT_READS } from './chainStateReader';
import { readMovedPools } from './logReads';
import { nothingMoved, type MovedInBlocks } from './movedInBlocks';
import { readBuffers, type BufferReads } from './v3/bufferReads';
import { readMovedV3 } from './v3/movedV3';

/**
 * Where one protocol's pools are read from on one chain: its Vault reads and the pool types'
 * reads, and the logs that name its pools. The head follower takes one per protocol deployed on
 * the chain and hands each the pools of its protocol. It owns what its reads keep across blocks.
 */
export interface ChainStateSource {
  readonly protocol: ProtocolVersion;
  /**
   * The state of each of `pools` (all of this protocol) at `blockNumber`; the Vault's refusals left
   * out. Pools with a state in `swappedSince` moved by swaps alone since it: where the protocol and
   * the type allow (`readPoolStates`), only their balances are read.
   */
  readPools(
    pools: readonly StoredPool[],
    blockNumber: number,
    swappedSince?: ReadonlyMap<string, PoolChainState>,
  ): Promise<Map<string, PoolChainState>>;
  /**
   * What the logs of `from`..`to` name (`MovedInBlocks`: pools with the last block of a cash
   * change, V3 buffers and registrations); a refused log query is a `LogsRefusedError`.
   */
  moved(from: number, to: number): Promise<MovedInBlocks>;
  /** How many calls the first round of a read of `pool` makes. */
  callsFor(pool: StoredPool): number;
  /**
   * V3: the Vault's buffers of `tokens` at `blockNumber` (tokens without one left out), checked
   * against `known`, the buffers as last read (`v3/bufferReads.ts`).
   */
  readBuffers?(
    tokens: readonly string[],
    blockNumber: number,
    known?: ReadonlyMap<string, StoredBuffer>,
  ): Promise<BufferReads>;
}

/** The V2 Vault's pools on a chain, read through `rpc`. */
export function v2ChainStateSource(rpc: PinnedRpcOptions, vault: string): ChainStateSource {
  const cache = newChainReadCache();
  return {
    protocol: 2,
    readPools: (pools, blockNumber, swappedSince) =>
      readPoolStates(rpc, vault, pools, blockNumber, cache, V2_VAULT_READS, swappedSince),
    moved: async (from, to) => ({ ...nothingMoved(), ...(await readMovedPools(rpc, vault, from, to, cache)) }),
    callsFor: (pool) => callsFor(vault, [pool], cache),
  };
}

/**
 * The V3 Vault's pools and buffers on a chain, read through `rpc`: pools through the V3 Vault
 * reads (`domain/protocols/v3/vaultReads.ts`) and their types' reads, buffers through
 * `v3/bufferReads.ts`, moves from the V3 Vault's logs (`v3/movedV3.ts`).
 */
export function v3ChainStateSource(rpc: PinnedRpcOptions, vault: string): ChainStateSource {
  const cache = newChainReadCache();
  return {
    protocol: 3,
    readPools: (pools, blockNumber) => readPoolStates(rpc, vault, pools, blockNumber, cache, V3_VAULT_READS),
    moved: (from, to) => readMovedV3(rpc, vault, from, to),
    callsFor: (pool) => callsFor(vault, [pool], cache, V3_VAULT_READS),
    readBuffers: (tokens, blockNumber, known) => readBuffers(rpc, vault, tokens, blockNumber, known, cache),
  };
}

export { addMoved, nothingMoved, type MovedInBlocks } from './movedInBlocks';

/** The protocol of a stored pool; pools stored before pools carried it are V2 pools. */
export function protocolOf(pool: StoredPool): ProtocolVersion {
  return pool.protocolVersion ?? 2;
}
