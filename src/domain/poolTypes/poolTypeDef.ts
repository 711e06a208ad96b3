import type { ProtocolVersion, StoredPool } from '../pool';
import type { V3Hook } from '../protocols/v3/hooks/hook';
import type { V3PoolMath } from '../protocols/v3/poolMath';
import type { V3PoolState } from '../protocols/v3/vault/poolState';
import type { ModelFactory } from '../swap/poolModel';
import type { ChainReads } from './chainReads';
import type { ParamField } from './paramField';

/**
 * Everything the service knows about one pool type, in one place (its folder under
 * `src/domain/poolTypes/`), read through the registry (`registry.ts`) by every layer that needs it:
 * the subgraph query and schema, normalisation and storage, the engine, the path graph, the
 * relayer's join/exit encoding and the devnet indexer.
 */

/** How the batch relayer encodes a single-token join or exit (`routing/v2/relayer/poolUserData.ts`). */
export type UserDataFamily = 'weighted' | 'legacyStable' | 'composableStable';

/**
 * Where a route may use the pool: `through` anywhere; `ends` only on a hop that buys or sells the
 * pool's own tokens for the order (liquidity bootstrapping pools, whose prices are meant to move).
 */
export type PathRole = 'through' | 'ends';

/**
 * A V3 pool type's math for a stored pool: the V3 Vault operations run it (`protocols/v3/vault/`),
 * `vaultState` being the pool's Vault state (`protocols/v3/stored/v3PoolState.ts`).
 */
export interface V3TypeMath {
  /** The pool's math as a swap in a block at `timestamp` prices it. Throws when the stored pool lacks a parameter. */
  math(pool: StoredPool, vaultState: V3PoolState, timestamp: bigint): V3PoolMath;
  /**
   * For a type whose math takes the timestamp (`timeDependent`): the time its math is built at for
   * a block at `timestamp`, the earliest one at which the pool prices as the chain's would in that
   * block (an LBP before or after its sale, a ReClamm pool whose virtual balances rest, QuantAMM
   * weights past their last interpolation time), else `timestamp`. A model is kept while this time
   * is the same (`protocols/v3/engine/v3ModelCache.ts`); absent, every timestamp is its own.
   */
  pricingTime?(pool: StoredPool, vaultState: V3PoolState, timestamp: bigint): bigint;
  /** Its normalized weights where it has them (a hook such as Akron prices with them). */
  weights?(pool: StoredPool, timestamp: bigint): readonly bigint[];
  /**
   * Whether the pool's hooks contract is the pool itself, doing only what the type's math already
   * does (a ReClamm pool moves its virtual balances before proportional liquidity): the Vault then
   * runs it with no hook.
   */
  ownHook?(pool: StoredPool): boolean;
  /**
   * For a type that is its own hooks contract with rules a quote must follow (an LBP: the pool's
   * address is its hook, refusing adds and removes during the sale), that hook as the Vault calls
   * it; a pool whose hook is elsewhere gets the hook its address names instead.
   */
  selfHook?(pool: StoredPool, vaultState: V3PoolState, timestamp: bigint): V3Hook;
}

export interface PoolTypeDef<F extends readonly ParamField[] = readonly ParamField[]> {
  /**
   * The protocol whose Vault holds its pools; absent means 2. A name is a type per protocol: the
   * V3 Vault's `Weighted` is another type than the V2 Vault's, with its own def.
   */
  readonly protocol?: ProtocolVersion;
  /** The subgraph's `poolType` names this definition covers. */
  readonly names: readonly string[];
  /** Also covers every name ending so (the linear variants: AaveLinear, ERC4626Linear, ...). */
  readonly nameSuffix?: string;
  /** Versions (`poolTypeVersion`) the model carries; others are stored and served, not routed. */
  readonly versions: readonly number[] | 'all';
  /** The folder it is defined in (one family may define several names). */
  readonly family: string;
  /** Its own stored parameters, beyond the fields every pool has. */
  readonly params: F;
  /**
   * Parameters another type declares too and this one reads (the protocol yield fee cache, which
   * ComposableStable stores and weighted v2+ reads): registering the type stores them whether or
   * not that other type is registered. They are stored after every type's own `params`, so
   * declaring one here moves no stored field.
   */
  readonly sharedParams?: readonly ParamField[];
  /**
   * Its own stored parameters of each token, beyond the fields every token has (ComposableStable's
   * rate at the last join or exit): the subgraph's token selection asks for them, normalisation
   * stores them on the token (left out where absent), the engine's token spec carries them.
   */
  readonly tokenParams?: readonly ParamField[];
  /** Stored together under this key (`gyro`) rather than as top-level fields. */
  readonly paramGroup?: string;
  /**
   * A V3 type: the V3 pools subgraph's field of a pool holding this type's parameters (an entity
   * such as `gyroEParams`); the V3 catalogue asks it for the names in `params`. A V3 type's params
   * are not asked of the V2 subgraph.
   */
  readonly paramsEntity?: string;
  /**
   * The V2 engine's model; absent for a V3 type (the V3 Vault operations run `v3` instead). It reads the
   * type's own spec (`SpecOf` in `paramField.ts`), a `ModelFactory<XSpec>`: the engine hands it
   * the pool's spec with every registered field.
   */
  readonly createModel?: ModelFactory;
  /** A V3 type's math. */
  readonly v3?: V3TypeMath;
  /** Swaps depend on the quote's timestamp: the model is rebuilt when it moves. */
  readonly timeDependent: boolean;
  /** Anyone may join it with one token (a route's token -> BPT hop through the relayer). */
  readonly joins: boolean;
  /** Anyone may exit it to one token (a route's BPT -> token hop). */
  readonly exits: boolean;
  /** How the relayer encodes its joins and exits; absent when it has none. */
  readonly userData?: UserDataFamily;
  readonly pathRole: PathRole;
  /**
   * What its pools read at the head beside the Vault reads, how that becomes its state, replaces
   * the stored values, moves with time and asks to be read again (`chainReads.ts`); absent for a
   * type that reads nothing but the Vault reads.
   */
  readonly chain?: ChainReads;
  /**
   * The swap fee its contracts accept, as decimal fractions (`min` <= fee <= `max`); absent: the
   * BasePool's, 0.000001 (0.0001 %) to 0.1 (10 %). The pool update refuses a subgraph value outside
   * (`domain/poolValues.ts`).
   */
  readonly swapFeeBounds?: { readonly min: string; readonly max: string };
  /** The devnet's name for the kind of pool it deploys of this type (`devnet/indexer`), if it deploys one. */
  readonly devnetKind?: string;
}
