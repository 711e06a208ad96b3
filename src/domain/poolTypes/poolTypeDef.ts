import type { ModelFactory } from '../swap/poolModel';
import type { ChainReads } from './chainReads';
import type { ParamField } from './paramField';

/**
 * Everything the service knows about one pool type, in one place (its folder under
 * `src/domain/poolTypes/`), read through the registry (`registry.ts`) by every layer that needs it:
 * the subgraph query and schema, normalisation and storage, the engine, the path graph, the
 * relayer's join/exit encoding and the devnet indexer.
 */

/** How the batch relayer encodes a single-token join or exit (`routing/relayer/poolUserData.ts`). */
export type UserDataFamily = 'weighted' | 'legacyStable' | 'composableStable';

/**
 * Where a route may use the pool: `through` anywhere; `ends` only on a hop that buys or sells the
 * pool's own tokens for the order (liquidity bootstrapping pools, whose prices are meant to move).
 */
export type PathRole = 'through' | 'ends';

export interface PoolTypeDef<F extends readonly ParamField[] = readonly ParamField[]> {
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
  /** Stored together under this key (`gyro`) rather than as top-level fields. */
  readonly paramGroup?: string;
  readonly createModel: ModelFactory;
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
   * What its pools read at the head beside the Vault's frame, how that becomes its state, replaces
   * the stored values, moves with time and asks to be read again (`chainReads.ts`); absent for a
   * type that reads nothing but the frame.
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
