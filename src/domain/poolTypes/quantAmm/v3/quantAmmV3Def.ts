import type { PoolTypeDef } from '../../poolTypeDef';
import { QUANT_AMM_CHAIN } from './quantAmmV3Reads';
import { QUANT_AMM_PARAMS } from './quantAmmV3Params';
import { quantAmmMath } from './quantAmmV3Pool';
import { quantAmmWeights } from './quantAmmV3Weights';
import { quantAmmStateOf, quantAmmWordsOf } from './quantAmmV3Stored';

/**
 * The V3 Vault's QuantAMM weighted pools. Their weights interpolate with time: the math is built
 * for the quote's block timestamp (never before the last weight update, which no block the pool
 * trades in precedes), and caps every swap at the pool's max trade size ratio, which routes read
 * as the pool's swap ratio bounds.
 */
export const QUANT_AMM_WEIGHTED: PoolTypeDef = {
  protocol: 3,
  names: ['QuantAMMWeighted'],
  versions: 'all',
  family: 'quantAmm',
  params: QUANT_AMM_PARAMS,
  paramsEntity: 'quantAMMWeightedParams',
  timeDependent: true,
  joins: false,
  exits: false,
  pathRole: 'through',
  chain: QUANT_AMM_CHAIN,
  v3: {
    math(pool, vaultState, timestamp) {
      const state = quantAmmStateOf(pool, vaultState);
      return quantAmmMath(state, atOrAfter(timestamp, state.lastUpdateTime));
    },
    pricingTime(pool, _vaultState, timestamp) {
      // The weights stop at the last interpolation time: any later block prices as that one.
      const { lastUpdateTime, lastInteropTime } = quantAmmWordsOf(pool);
      const at = atOrAfter(timestamp, lastUpdateTime);
      return at > lastInteropTime && lastInteropTime >= lastUpdateTime ? lastInteropTime : at;
    },
    weights(pool, timestamp) {
      const words = quantAmmWordsOf(pool);
      return quantAmmWeights(words, pool.tokens.length, atOrAfter(timestamp, words.lastUpdateTime));
    },
  },
};

const atOrAfter = (timestamp: bigint, since: bigint): bigint => (timestamp > since ? timestamp : since);
