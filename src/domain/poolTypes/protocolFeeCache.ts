import { chainEvent, getter } from './chainReads';

/**
 * The protocol fee percentage cache of pools that mint protocol fee BPT (weighted v2+,
 * ComposableStable): `getProtocolFeePercentageCache(feeType)` and its update event.
 */
export const GET_PROTOCOL_FEE_PERCENTAGE_CACHE = getter('getProtocolFeePercentageCache', ['uint256'], ['uint256']);
export const PROTOCOL_FEE_CACHE_UPDATED = chainEvent('ProtocolFeePercentageCacheUpdated(uint256,uint256)');

/** ProtocolFeeType ids of the cache. */
export const FEE_TYPE_SWAP = 0;
export const FEE_TYPE_YIELD = 2;
