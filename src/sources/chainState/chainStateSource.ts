import type { PoolChainState } from '../../domain/chainState';
import type { ProtocolVersion, StoredPool } from '../../domain/pool';
import type { JsonRpcOptions } from '../rpc/jsonRpc';
import { callsFor, newChainReadCache, readMovedPools, readPoolStates } from './chainStateReader';

/**
 * Where one protocol's pools are read from on one chain: its Vault's frame and the pool types'
 * reads, and the logs that name its pools. The head follower takes one per protocol deployed on
 * the chain (V2 today; a V3 source reads the V3 Vault over the same batching and decoding) and
 * hands each the pools of its protocol. It owns what its reads keep across blocks.
 */
export interface ChainStateSource {
  readonly protocol: ProtocolVersion;
  /** The state of each of `pools` (all of this protocol) at `blockNumber`; the Vault's refusals left out. */
  readPools(pools: readonly StoredPool[], blockNumber: number): Promise<Map<string, PoolChainState>>;
  /**
   * What moved in `from`..`to`, by pool id (the Vault's balance logs) or by the address of a
   * contract that emitted a pool state event, with the last block of a cash change (-1 for the
   * others: `readMovedPools`); a refused log query is a `LogsRefusedError`.
   */
  movedPools(from: number, to: number): Promise<Map<string, number>>;
  /** How many calls the first round of a read of `pool` makes. */
  callsFor(pool: StoredPool): number;
}

/** The V2 Vault's pools on a chain, read through `rpc`. */
export function v2ChainStateSource(rpc: JsonRpcOptions, vault: string): ChainStateSource {
  const cache = newChainReadCache();
  return {
    protocol: 2,
    readPools: (pools, blockNumber) => readPoolStates(rpc, vault, pools, blockNumber, cache),
    movedPools: (from, to) => readMovedPools(rpc, vault, from, to, cache),
    callsFor: (pool) => callsFor(vault, [pool], cache),
  };
}

/** The protocol of a stored pool; pools stored before pools carried it are V2 pools. */
export function protocolOf(pool: StoredPool): ProtocolVersion {
  return pool.protocolVersion ?? 2;
}
