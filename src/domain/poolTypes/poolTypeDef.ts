import type { ModelFactory } from '../swap/poolModel';
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

/**
 * A group of getters a pool type's math needs from the chain at the head, beside the frame every
 * pool is read with (Vault balances, swap fee, pause and recovery state, total supply). The
 * chain-state reader (`sources/chainState/chainStateReader.ts`) implements each group once, and
 * `domain/chainState.ts` says which stored fields its answers replace:
 * - `weights`: `getNormalizedWeights()`;
 * - `amp`: `getAmplificationParameter()`, and the ramp in progress from its `AmpUpdateStarted`;
 * - `composableRates`: each token's `getTokenRate` and `getTokenRateCache`, `getRateProviders()`
 *   and the providers' `getRate()` (a swap after expiry caches the provider's rate first);
 * - `composableFeeBasis`: `getLastJoinExitData()` and the swap and yield protocol fee caches;
 * - `weightedFeeBasis`: `getLastPostJoinExitInvariant()`, the swap fee cache, and for yield fees
 *   `getATHRateProduct()`, the providers' rates and the yield fee cache;
 * - `legacyFeeBasis` / `legacyStableFeeBasis`: `getLastInvariant()` (stable: with its amp) and the
 *   Vault's fees collector's swap fee percentage, which such pools pay at joins and exits;
 * - `lbpSchedule`: `getSwapEnabled()` and `getGradualWeightUpdateParams()`, with the start weights
 *   from its `GradualWeightUpdateScheduled`;
 * - `linearTargets`: `getTargets()` and `getWrappedTokenRate()`;
 * - `phantomState`: StablePhantom's cached token rates and the protocol fee BPT it owes;
 * - `priceRateCaches`: MetaStable's `getPriceRateCache(token)` and the providers' `getRate()`.
 */
export type ChainReadGroup =
  | 'weights'
  | 'amp'
  | 'composableRates'
  | 'composableFeeBasis'
  | 'weightedFeeBasis'
  | 'legacyFeeBasis'
  | 'legacyStableFeeBasis'
  | 'lbpSchedule'
  | 'linearTargets'
  | 'phantomState'
  | 'priceRateCaches';

export interface ChainRead {
  readonly group: ChainReadGroup;
  /** The first version (`poolTypeVersion`) whose contract has these getters (default: every version). */
  readonly since?: number;
  /** The first version whose contract no longer has them (default: none). */
  readonly before?: number;
}

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
  /** What its pools' state at the head is read as, beyond the frame (`ChainReadGroup`). */
  readonly chainReads: readonly ChainRead[];
  /**
   * The swap fee its contracts accept, as decimal fractions (`min` <= fee <= `max`); absent: the
   * BasePool's, 0.000001 (0.0001 %) to 0.1 (10 %). The pool update refuses a subgraph value outside
   * (`domain/poolValues.ts`).
   */
  readonly swapFeeBounds?: { readonly min: string; readonly max: string };
  /** The devnet's name for the kind of pool it deploys of this type (`devnet/indexer`), if it deploys one. */
  readonly devnetKind?: string;
}
