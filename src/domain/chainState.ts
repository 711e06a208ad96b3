import { isZeroDecimal, unitsToDecimal } from './decimal';
import type { StoredPool, StoredPoolToken } from './pool';
import type { VaultTokens, OwnChainState } from './poolTypes/chainReads';
import { applyV3VaultState } from './protocols/v3/stored/applyV3VaultState';
import type { StoredBuffer } from './protocols/v3/stored/storedV3';
import type { V3VaultChainState } from './protocols/v3/vaultReads';

/**
 * Pool state as the chain holds it at one block, and how it replaces the subgraph's values in a
 * stored pool. The subgraph is the catalogue (which pools exist, their tokens and static
 * parameters); the chain is the state (balances, fees, supply, amp, rates), read by
 * `sources/chainState/` and followed block by block by `jobs/headFollower.ts`. Pure.
 */

/** A block the state was read at. */
export interface BlockRef {
  readonly number: number;
  readonly hash: string;
  readonly parentHash: string;
  /** Unix seconds. */
  readonly timestamp: number;
}

/**
 * What the chain answered for one pool at one block, in raw on-chain units: what its Vault
 * reads for every pool, and the state its type reads (`own`, declared by the type's `chain` in its
 * family folder, `poolTypes/chainReads.ts`). Only `tokens` is always there; a getter the pool
 * lacks or that reverted leaves its field out, and the stored (subgraph) value stays.
 */
export interface PoolChainState extends VaultTokens {
  readonly poolId: string;
  /**
   * The block the Vault last changed the pool's cash (its `getPoolTokens`' `lastChangeBlock`: every
   * swap, join and exit sets it; an asset manager's moves keep it): a read at block N that names
   * a later block, or an earlier one than the pool's last Swap or PoolBalanceChanged log, was
   * answered from another block (`jobs/follow/followChecks.ts`).
   */
  readonly lastChangeBlock?: number;
  /** 1e18 = 100 %. */
  readonly swapFee?: bigint;
  readonly paused?: boolean;
  readonly recoveryMode?: boolean;
  /** `totalSupply()` in wei; pools holding their own BPT count what circulates (see below). */
  readonly totalSupply?: bigint;
  /** The pool type's own state; absent for a type that reads nothing beyond the Vault reads. */
  readonly own?: OwnChainState;
  /** A V3 pool: the rest of the V3 Vault's state (rates, aggregate fees, yield fee basis, hook). */
  readonly v3?: V3VaultChainState;
  /**
   * The node would not give the event a schedule starts from (a log query it refused): the values
   * are the head's as read, and the pool is read again at every new block.
   */
  readonly timeUnknown?: true;
}

/** The followed state of one chain: every pool read so far, each at or before `block`. */
export interface ChainState {
  readonly block: BlockRef;
  readonly pools: ReadonlyMap<string, PoolChainState>;
  /**
   * The V3 Vault's ERC-4626 buffers read at the block, by wrapped token (lower case); absent on a
   * chain without V3. Buffers are not pools: routes step through them beside the pools.
   */
  readonly buffers?: ReadonlyMap<string, StoredBuffer>;
  /**
   * V3 pools the Vault registered since the catalogue's last read (`PoolRegistered`), by id: stored
   * pools only the chain describes (`protocols/v3/stored/registeredPool.ts`), served beside the
   * catalogue's with their state in `pools` until the catalogue lists them.
   */
  readonly registered?: ReadonlyMap<string, StoredPool>;
  /**
   * The unix seconds the pools that move with time (LBP weights, amp ramps) are evaluated at, when
   * later than the block after `block`: on a chain that makes blocks on demand, an order asked
   * seconds after the head lands at the chain's clock (`jobs/retime.ts`). Absent: that next block.
   */
  readonly pricedAt?: number;
}

/**
 * `pool` with the chain's values in place of the subgraph's, or `pool` itself when the chain's
 * token list is not the catalogue's (a pool the Vault does not know as stored is left as the
 * subgraph describes it). Balances are converted exactly to the stored human decimals.
 */
export function applyChainState(pool: StoredPool, s: PoolChainState): StoredPool {
  if (s.tokens.length !== pool.tokens.length) return pool;
  const onChain = new Map(s.tokens.map((t) => [t.address, t.balance]));
  if (!pool.tokens.every((t) => onChain.has(t.address))) return pool;
  const tokens: StoredPoolToken[] = pool.tokens.map((t) => ({
    ...t,
    balance: unitsToDecimal(onChain.get(t.address)!, t.decimals),
  }));
  // Pools that hold their own BPT (composable stable, linear) store the supply in circulation:
  // the total supply less what the Vault holds for the pool.
  const ownBpt = onChain.get(pool.address) ?? 0n;
  const withVaultState: StoredPool = {
    ...pool,
    tokens,
    ...(s.swapFee !== undefined ? { swapFee: unitsToDecimal(s.swapFee, 18) } : {}),
    ...(s.paused !== undefined ? { isPaused: s.paused } : {}),
    ...(s.recoveryMode !== undefined ? { isInRecoveryMode: s.recoveryMode } : {}),
    ...(s.totalSupply !== undefined ? { totalShares: unitsToDecimal(s.totalSupply - ownBpt, 18) } : {}),
    routable: tokens.some((t) => t.address !== pool.address && !isZeroDecimal(t.balance)),
  };
  const v3 = s.v3 ? applyV3VaultState(withVaultState, s.v3, s.tokens) : withVaultState;
  return s.own ? s.own.reads.apply(v3, s.own.state, s) : v3;
}
